"""One seeded game per pack and mode, written out as text a reviewer can read.

A playthrough is every decision (seat and label) and every log line, in the order they
happened, then the winners. `tests/goldens/test_goldens.py` plays each one again and
compares it line by line with the file kept beside it, so a change to the engine that
changes any game shows as a readable diff. After a change that is meant to change games,
write the files anew with `python -m tests.goldens.playthrough` and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import engine
from engine.bots import make_bot

HERE = Path(__file__).parent
SEED = 7
# (pack, mode, players, bots): random bots where games end by themselves; DEFCON Z's random
# players almost never finish (the 200-turn limit), so its golden games are the pack's greedy.
GAMES = [
    ("roll-them-bones", None, 3, "random"),
    ("theyre-coming", None, 2, "random"),
    ("theyre-coming", "death-comes-knocking", 1, "random"),
    ("theyre-coming", "kamikaze", 2, "random"),
    ("theyre-coming", "overwhelming-odds", 2, "random"),
    ("theyre-coming", "red-runners", 2, "random"),
    ("theyre-coming", "romerio", 2, "random"),
    ("theyre-coming", "zombie-race", 2, "random"),
    ("defcon-z", None, 3, "greedy"),
    ("defcon-z", "competitive", 2, "greedy"),
    ("defcon-z", "cooperative", 3, "greedy"),
]


def name(pack: str, mode: str | None) -> str:
    return f"{pack}--{mode or 'base'}.txt"


def play(pack: str, mode: str | None, players: int, bots: str) -> list[str]:
    """The playthrough's lines."""
    game = engine.load(pack, mode=mode)
    seats = [make_bot(bots, SEED * 100 + s, game) for s in range(players)]
    state = game.new_state(players=players, seed=SEED)
    lines = [f"# {pack} {mode or '(base)'}: {players} players, {bots} bots, seed {SEED}"]
    seen = 0
    while not state.over:
        lines += [_entry(e) for e in state.log[seen:]]
        seen = len(state.log)
        d = state.decision()
        if d is None:
            break
        label = seats[d.player].choose(state, d)
        lines.append(f"P{d.player} {d.point}: {label}")
        state.apply(label)
    lines += [_entry(e) for e in state.log[seen:]]
    lines.append(f"# winners {list(state.winners)}, turns {state.turns}, "
                 f"limit {'hit' if state.limit_hit else 'not hit'}")
    return lines


def _entry(entry: dict) -> str:
    return "  " + json.dumps(entry, sort_keys=True, separators=(",", ":"), default=str)


def main() -> None:
    for pack, mode, players, bots in GAMES:
        path = HERE / name(pack, mode)
        path.write_text("\n".join(play(pack, mode, players, bots)) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
