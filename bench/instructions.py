"""Instructions per search-bot rollout, counted by valgrind: a measure the machine's load cannot move.

On a shared machine two timed runs of the same code differ by tens of percent, more than
most changes gain. valgrind's callgrind counts the instructions a process runs, which
depends only on the code and the work: the same tree gives the same count, busy machine
or not. This plays `bench.search`'s workload (the search bot deciding mid-game states of
greedy games, with an iteration cap) for each tree given, once with the bot and once
without, and reports the difference per rollout. Instructions are not time (a cache miss
costs more than an add), but a change that removes work shows here at its true size.

    python -m bench.instructions theyre-coming/overwhelming-odds --tree ../horde-old
    python -m bench.instructions theyre-coming --iterations 30 --games 1

Needs valgrind; about a minute of CPU per workload and tree (callgrind runs ~50x slower).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_RUN = r"""
import sys
sys.path.insert(0, sys.argv[1])
import engine
from bench.search import mid_game_states
from engine.bots import make_bot
pack, mode, iterations, games = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
game = engine.load(pack, mode=None if mode == "-" else mode)
states = mid_game_states(game, game.players_default, games)
bot = make_bot(f"search:iters={max(iterations, 1)}", 0, game)
done = 0
for s in states[:len(states) if iterations else 0]:
    bot.choose(s.clone(), s.decision())
    done += bot.last_iterations
print("rollouts", done)
"""


def _count(tree: Path, pack: str, mode: str, iterations: int, games: int) -> tuple[int, int]:
    """(instructions, rollouts) of one run of the workload in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    got = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", _RUN, str(tree), pack, mode, str(iterations),
                          str(games)], cwd=tree, env=env, capture_output=True, text=True, check=True)
    text = got.stdout + got.stderr
    return _number(r"Collected : (\d+)", text), _number(r"rollouts (\d+)", text)


def _number(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    if m is None:
        raise SystemExit(f"bench.instructions: no '{pattern}' in the run's output:\n{text[-2000:]}")
    return int(m.group(1))


def per_rollout(tree: Path, workload: str, iterations: int, games: int) -> tuple[float, int]:
    """Instructions per rollout of `workload` (pack or pack/mode) on `tree`, and rollouts."""
    pack, _, mode = workload.partition("/")
    full, rollouts = _count(tree, pack, mode or "-", iterations, games)
    setup, _ = _count(tree, pack, mode or "-", 0, games)
    return (full - setup) / rollouts, rollouts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.splitlines()[0])
    ap.add_argument("packs", nargs="+", metavar="PACK[/MODE]")
    ap.add_argument("--tree", action="append", type=Path, default=[],
                    help="another tree to count too (repeatable); this one is always counted")
    ap.add_argument("--iterations", type=int, default=30, help="iteration cap a decision (30)")
    ap.add_argument("--games", type=int, default=1, help="greedy games to take states from (1)")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed", file=sys.stderr)
        return 1
    trees = [*(t.resolve() for t in args.tree), ROOT]
    for w in args.packs:
        counts = [per_rollout(t, w, args.iterations, args.games) for t in trees]
        line = " -> ".join(f"{n / 1e6:.3f} M" for n, _ in counts)
        ratio = f"  first / this tree {counts[0][0] / counts[-1][0]:.3f}" if len(counts) > 1 else ""
        print(f"{w:40} {line} instructions a rollout ({counts[-1][1]} rollouts){ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
