"""Two trees, the same games: `python -m bench.ab OLD_TREE [--packs ...] [--rounds N]`.

The harness plays as many games as fit in a time budget, so two runs on a busy machine
play different numbers of different games, and its ratios move by tens of percent. For a
before/after question this plays a fixed set of games instead: game 0..n-1 of each
workload (those of `horde sim --seed 0`), in fresh processes, alternating between the
old tree (a checkout or an unpacked `git archive` of the commit to compare with) and
this one, round after round, and keeps each side's best games/s (CPU time). The same
games played by both sides also means the comparison is of speed alone.

Three workloads (`--bots`): uniform random bots (`bench.play`, each tree's own), the
pack's greedy policy at every seat (`bench.policy`, this tree's module on both sides, so
both play exactly the games of `horde sim --bots greedy --seed 0`), and `check`: the same
games played under every law of `horde check` (`bench.check`, this tree's module on both
sides; its figure is decisions checked per second, not games).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import engine
from bench.harness import discover
from bench.policy import has_policy

ROOT = Path(__file__).resolve().parent.parent

_PLAY = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import engine
pack, mode, n, bots = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
if bots in ("greedy", "check"):  # this tree's module, the engine of the tree under test
    import importlib.util
    spec = importlib.util.spec_from_file_location("_bench_" + bots, sys.argv[6])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    play = module.play_greedy if bots == "greedy" else module.play_checked
else:
    from bench.play import play_game as play
game = engine.load(pack, None if mode == "-" else mode)
players = game.players_default  # as the harness plays
play(game, players, 10**6)  # plans and caches made once, as in the harness
t = time.process_time()
done = 0
for i in range(n):
    got = play(game, players, i)
    done += got if bots == "check" else 1
print(json.dumps(done / (time.process_time() - t)))
"""
BOTS = ("random", "greedy", "check")
_MODULES = {"greedy": "policy.py", "check": "check.py"}


def games_per_second(tree: Path, pack: str, mode: str | None, games: int,
                     bots: str = "random") -> float:
    cmd = [sys.executable, "-c", _PLAY, str(tree), pack, mode or "-", str(games), bots,
           str(ROOT / "bench" / _MODULES.get(bots, "policy.py"))]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=tree, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: {pack}/{mode or '-'} ({bots}) failed:\n"
                         f"{out.stderr.strip()[-2000:]}")
    return float(out.stdout.strip())


def _has_greedy(pack: str, mode: str | None) -> bool:
    return has_policy(engine.load(pack, mode))


def _decisions_per_game(pack: str, mode: str | None) -> float:
    """Decisions in checked game 0 (this tree), to size a set of checked games in games."""
    from bench.check import play_checked
    game = engine.load(pack, mode)
    return max(1, play_checked(game, game.players_default, 0))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="the tree to compare with (a checkout of an older commit)")
    ap.add_argument("--packs", nargs="*", help="PACK or PACK/MODE (default: every pack and mode)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="about how long one side plays a workload per round (default 2)")
    ap.add_argument("--bots", nargs="*", choices=BOTS, default=["random", "greedy"],
                    help="workloads: random bots, the pack's greedy policy (default: both), "
                         "checked games (decisions/s)")
    args = ap.parse_args(argv)
    if not (args.old / "engine").is_dir():
        raise SystemExit(f"{args.old} is not a horde tree (no engine/ folder)")
    results = {}
    for bots in args.bots:
        for w in discover(args.packs):
            if bots == "greedy" and not _has_greedy(w.pack, w.mode):
                continue
            name = w.name if bots == "random" else f"{w.name} {bots}"
            # size the game set by a short probe of the new tree, then play it on both sides
            probe = games_per_second(ROOT, w.pack, w.mode, 1 if bots == "check" else 2, bots)
            if bots == "check":  # decisions/s: a checked game may take seconds
                probe /= _decisions_per_game(w.pack, w.mode)
            games = max(1 if bots == "check" else 2, round(probe * args.seconds))
            best = {"old": 0.0, "new": 0.0}
            for _ in range(args.rounds):
                best["old"] = max(best["old"], games_per_second(args.old, w.pack, w.mode, games, bots))
                best["new"] = max(best["new"], games_per_second(ROOT, w.pack, w.mode, games, bots))
            results[name] = {"games": games, **best, "ratio": best["new"] / best["old"]}
            unit = "decisions/s" if bots == "check" else "games/s"
            print(f"{name:43} {games:5} games  old {best['old']:8.1f}  new {best['new']:8.1f} "
                  f"{unit}  x{best['new'] / best['old']:.2f}", flush=True)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
