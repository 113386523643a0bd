"""What every snippet of every pack and mode reads and writes, written out for review.

For each compiled snippet of a game (found by walking the game's objects, in their
order), one line: where it is, the keys it reads and writes (engine.dsl.footprint),
whether it is contained (engine.flow.steppers) and whether it may end the game
(engine.flow.effects `may_end`). tests/dsl/test_footprint.py works them out again and
compares them with the files in footprints/, so a change of what the analyses answer
shows as a readable diff. After a change meant to change them, write the files anew with
`python -m tests.dsl.footprint_golden` and review the diff.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import engine
from engine.dsl import footprint
from engine.dsl.compiler import Compiled
from engine.flow import effects, steppers
from tests.goldens.playthrough import GAMES, name

HERE = Path(__file__).parent / "footprints"
PACKS = [(pack, mode) for pack, mode, _, _ in GAMES]


def snippets(game) -> list[Compiled]:
    """Every compiled snippet the game holds, each once, in the order of its objects."""
    found: list[Compiled] = []
    seen: set[int] = set()
    todo: list = [game]
    while todo:
        x = todo.pop()
        if id(x) in seen or isinstance(x, str | int | float | bool | type(None) | type):
            continue
        seen.add(id(x))
        if isinstance(x, Compiled):
            found.append(x)
        elif isinstance(x, dict):
            todo.extend(reversed(list(x.values())))
        elif isinstance(x, list | tuple | set | frozenset):
            todo.extend(reversed(sorted(x, key=str) if isinstance(x, set | frozenset) else list(x)))
        elif dataclasses.is_dataclass(x):
            todo.extend(reversed([getattr(x, f.name) for f in dataclasses.fields(x) if f.name != "plans"]))
    return found


def _keys(keys: frozenset) -> str:
    return " ".join(sorted(keys)) or "-"


def lines(pack: str, mode: str | None) -> list[str]:
    game = engine.load(pack, mode=mode)
    out = [f"# {pack} {mode or '(base)'}: where, then reads | writes | contained? | may end?"]
    for c in snippets(game):
        span = c.locate(None) if c.locate else None
        label = c.fn.__code__.co_filename.split(":")[1]
        where = f"{Path(span.file).name}:{span.line}:{span.col}" if span else "?"
        out.append(f"{where} {label}: {_keys(footprint.reads(game, c))} | "
                   f"{_keys(footprint.writes(game, c))} | "
                   f"{'contained' if steppers.contained(game, c) else 'not contained'} | "
                   f"{'may end' if effects.may_end(game, c) else 'cannot end'}")
    return out


def main() -> None:
    for pack, mode in PACKS:
        path = HERE / name(pack, mode)
        path.write_text("\n".join(lines(pack, mode)) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
