"""Two trees, the same games: `python -m bench.ab OLD_TREE [--packs ...] [--rounds N]`.

The harness plays as many games as fit in a time budget, so two runs on a busy machine
play different numbers of different games, and its ratios move by tens of percent. For a
before/after question this plays a fixed set of games instead: game 0..n-1 of each
workload (those of `horde sim --seed 0`), in fresh processes, alternating between the
old tree (a checkout or an unpacked `git archive` of the commit to compare with) and
this one, round after round, and keeps each side's best games/s (CPU time). The same
games played by both sides also means the comparison is of speed alone.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from bench.harness import discover

ROOT = Path(__file__).resolve().parent.parent

_PLAY = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import engine
from bench.play import play_game
pack, mode, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
game = engine.load(pack, None if mode == "-" else mode)
players = game.players_default  # as the harness plays
play_game(game, players, 10**6)  # plans and caches made once, as in the harness
t = time.process_time()
for i in range(n):
    play_game(game, players, i)
print(json.dumps(n / (time.process_time() - t)))
"""


def games_per_second(tree: Path, pack: str, mode: str | None, games: int) -> float:
    out = subprocess.run([sys.executable, "-c", _PLAY, str(tree), pack, mode or "-", str(games)],
                         capture_output=True, text=True, cwd=tree, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: {pack}/{mode or '-'} failed:\n{out.stderr.strip()[-2000:]}")
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="the tree to compare with (a checkout of an older commit)")
    ap.add_argument("--packs", nargs="*", help="PACK or PACK/MODE (default: every pack and mode)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="about how long one side plays a workload per round (default 2)")
    args = ap.parse_args(argv)
    if not (args.old / "engine").is_dir():
        raise SystemExit(f"{args.old} is not a horde tree (no engine/ folder)")
    results = {}
    for w in discover(args.packs):
        # size the game set by a short probe of the new tree, then play it on both sides
        probe = games_per_second(ROOT, w.pack, w.mode, 2)
        games = max(2, round(probe * args.seconds))
        best = {"old": 0.0, "new": 0.0}
        for _ in range(args.rounds):
            best["old"] = max(best["old"], games_per_second(args.old, w.pack, w.mode, games))
            best["new"] = max(best["new"], games_per_second(ROOT, w.pack, w.mode, games))
        results[w.name] = {"games": games, **best, "ratio": best["new"] / best["old"]}
        print(f"{w.name:36} {games:5} games  old {best['old']:8.1f}  new {best['new']:8.1f} games/s"
              f"  x{best['new'] / best['old']:.2f}", flush=True)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
