"""Finished games with the pack's `greedy` policy at every seat: the speed of real use.

Balance questions are asked with the packs' policies, not with uniform random bots, and
the two play very differently: random DEFCON Z runs into the 200-turn limit in most games,
greedy finishes every game in ~37 turns, and most of its time goes into deciding. So this
is a workload of its own, beside `play`'s random games.

Game k is game k of `horde sim --bots greedy --seed 0`: its state seed and its bots' seeds
are derived from (0, k) as the CLI derives them. The module asks the engine only for what
every tree has had since bots had a registry (`make_bot`, `engine.sim.seeds`), so that
`bench.ab` can play the very same games with it on an older tree.
"""

from __future__ import annotations

import time

from engine.bots import make_bot
from engine.sim.seeds import bot_seed, game_seed

MIN_GAMES = 2


def has_policy(game) -> bool:
    return "greedy" in getattr(game, "policies", {})


def play_greedy(game, players: int, index: int) -> int:
    """Play game `index` to the end with greedy bots; returns its number of decisions."""
    bots = [make_bot("greedy", bot_seed(0, index, seat), game) for seat in range(players)]
    state = game.new_state(players=players, seed=game_seed(0, index))
    state.transactional = False
    n = 0
    while not state.over:
        d = state.decision()
        state.apply(bots[d.player].choose(state, d))
        n += 1
    return n


def measure(game, players: int, seconds: float) -> dict:
    """Games 0, 1, 2... with greedy bots until `seconds` (wall) have passed, at least
    MIN_GAMES: finished games and decisions per second of CPU time."""
    clock = time.process_time
    deadline = time.perf_counter() + seconds
    start = clock()
    games = decisions = 0
    while games < MIN_GAMES or time.perf_counter() < deadline:
        decisions += play_greedy(game, players, games)
        games += 1
    spent = clock() - start
    return {"greedy_games_per_s": games / spent, "greedy_decisions_per_game": decisions / games}
