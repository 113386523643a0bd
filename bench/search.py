"""Iterations per second of the horizon search bot (`search`) at mid-game, by pack and mode.

A search bot's speed decides how strong it can be in a second a move, so this measures it
where it is used: at the decisions of real games. The states are taken from games played
by the pack's `greedy` policy (game k of `horde sim --bots greedy --seed 0`, as
`bench/policy.py` plays them), at 40, 50 and 60% of each game's decisions — the first
real choice (more than one action) from there on. The bot decides each of them with an
iteration cap, not a time budget, so two runs do the same work; the figure is iterations
(rollouts) per second of CPU time.

    python -m bench.search                        # every pack and mode with a `value:`
    python -m bench.search defcon-z/competitive theyre-coming --horizon 4 --iterations 100
"""

from __future__ import annotations

import argparse
import sys
import time

import engine
from bench import machine
from bench.harness import discover
from engine.bots import make_bot
from engine.sim.seeds import bot_seed, game_seed

GAMES = 3  # greedy games to take states from
POINTS = (0.4, 0.5, 0.6)  # where in each game


def mid_game_states(game, players: int, games: int = GAMES) -> list:
    """States of greedy games 0.. at POINTS of their length, each at a real choice."""
    out = []
    for k in range(games):
        bots = [make_bot("greedy", bot_seed(0, k, seat), game) for seat in range(players)]
        state = game.new_state(players=players, seed=game_seed(0, k))
        state.transactional = False
        history = []
        while not state.over:
            d = state.decision()
            history.append(state.clone())
            state.apply(bots[d.player].choose(state, d))
        for p in POINTS:
            for s in history[int(len(history) * p):]:
                if len(s.decision().actions) > 1:
                    out.append(s)
                    break
    return out


def measure(game, players: int, iterations: int, horizon: int | None,
            games: int = GAMES) -> dict:
    """Iterations per second of CPU time of `search:iters=N[:horizon=H]` at mid-game."""
    states = mid_game_states(game, players, games)
    if not states:
        return {"error": "no mid-game state with a real choice"}
    spec = f"search:iters={iterations}" + (f":horizon={horizon}" if horizon is not None else "")
    bot = make_bot(spec, 0, game)
    done = 0
    start = time.process_time()
    for s in states:
        bot.choose(s.clone(), s.decision())
        done += bot.last_iterations
    spent = time.process_time() - start
    return {"search_iterations_per_s": done / spent, "decisions": len(states),
            "iterations": done, "cpu_s": spent}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__.splitlines()[0])
    ap.add_argument("packs", nargs="*", metavar="PACK[/MODE]", help="default: every pack and mode")
    ap.add_argument("--iterations", type=int, default=200, help="iteration cap a decision (200)")
    ap.add_argument("--horizon", type=int, default=None, help="decisions a rollout plays (the bot's default)")
    ap.add_argument("--games", type=int, default=GAMES, help=f"greedy games to take states from ({GAMES})")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    m = machine.describe()
    print(f"{m['cpu']}, nproc {m['nproc']}, {m['implementation']} {m['python']}")
    for w in discover(args.packs or None):
        game = engine.load(w.pack, mode=w.mode)
        if game.value is None or "greedy" not in game.policies:
            print(f"{w.name:40} (no value: or greedy policy: skipped)")
            continue
        got = measure(game, game.players_default, args.iterations, args.horizon, args.games)
        if "error" in got:
            print(f"{w.name:40} {got['error']}")
            continue
        print(f"{w.name:40} {got['search_iterations_per_s']:8,.0f} it/s "
              f"({got['iterations']} iterations, {got['decisions']} decisions, "
              f"{got['cpu_s']:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
