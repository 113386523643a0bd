"""Warm measurements of one pack and mode: whole games, apply, clone, memory.

Games are played by uniform random bots (the engine's `random` bot) over a fixed sequence
of games: game k is game k of `horde sim --seed 0` (its seeds derived from 0 and k, so
games do not share dice), and two runs of the harness play the same games in the same
order, so their speeds compare like for like. A time budget says how many of those games
to play; at least a couple are always played whole.

Time is measured as this process's CPU time (`time.process_time`), not wall time: the
machine is shared, and CPU time does not count the moments another process had the core.
Budgets are wall time, so a busy machine cannot stretch a run.

Speed runs use `state.transactional = False`: a transactional `apply` snapshots the state
first so it can roll back a failing action, which a batch of bot games never needs. One
shorter run measures the transactional cost as well, since interactive play pays it.
"""

from __future__ import annotations

import time
import tracemalloc
from dataclasses import dataclass, field

from engine.bots.random_bot import RandomBot
from engine.sim.seeds import bot_seed, game_seed

MIN_GAMES = 2
CLONE_SAMPLES = 3


@dataclass
class PlayRun:
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    apply_seconds: float = 0.0
    lengths: list[tuple[int, int]] = field(default_factory=list)  # (game index, decisions)


def _bots(players: int, index: int) -> list[RandomBot]:
    return [RandomBot(bot_seed(0, index, seat)) for seat in range(players)]


def play_game(game, players: int, index: int, transactional: bool = False,
              stop_after: int | None = None):
    """Play game `index` with random bots; returns (state, decisions). With `stop_after`,
    stop once that many decisions were made (the state is then mid-game)."""
    bots = _bots(players, index)
    state = game.new_state(players=players, seed=game_seed(0, index))
    state.transactional = transactional
    n = 0
    while not state.over and n != stop_after:
        d = state.decision()
        state.apply(bots[d.player].choose(state, d))
        n += 1
    return state, n


def play_for(game, players: int, seconds: float, transactional: bool = False) -> PlayRun:
    """Play games 0, 1, 2... until `seconds` have passed (and at least MIN_GAMES)."""
    run = PlayRun()
    clock = time.process_time
    wall = time.perf_counter
    deadline = wall() + seconds
    start = clock()
    index = 0
    while index < MIN_GAMES or wall() < deadline:
        bots = _bots(players, index)
        state = game.new_state(players=players, seed=game_seed(0, index))
        state.transactional = transactional
        n = 0
        in_apply = 0.0
        while not state.over:
            d = state.decision()
            label = bots[d.player].choose(state, d)
            t0 = clock()
            state.apply(label)
            in_apply += clock() - t0
            n += 1
        run.games += 1
        run.decisions += n
        run.apply_seconds += in_apply
        run.lengths.append((index, n))
        index += 1
    run.seconds = clock() - start
    return run


def mid_game_states(game, players: int, lengths: list[tuple[int, int]],
                    samples: int = CLONE_SAMPLES) -> list:
    """States halfway through the first few games that have a middle."""
    out = []
    for index, n in lengths:
        if n >= 2:
            out.append(play_game(game, players, index, stop_after=n // 2)[0])
        if len(out) == samples:
            break
    return out


def clone_time(states: list, seconds: float) -> float | None:
    """Mean seconds per `clone()` over the given states, each cloned for a share of `seconds`."""
    if not states:
        return None
    clock = time.process_time
    wall = time.perf_counter
    total = 0.0
    count = 0
    share = seconds / len(states)
    for s in states:
        deadline = wall() + share
        start = clock()
        while True:
            for _ in range(50):
                s.clone()
            count += 50
            if wall() >= deadline:
                break
        total += clock() - start
    return total / count


def peak_memory(game, players: int, index: int = 0) -> int:
    """Peak bytes of Python allocations while one game is created and played to the end."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        play_game(game, players, index)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(game, players: int, seconds: float) -> tuple[dict, list]:
    """Every warm measurement of one game, as plain numbers, and the mid-game states used."""
    run = play_for(game, players, seconds)
    txn = play_for(game, players, seconds / 2, transactional=True)
    states = mid_game_states(game, players, run.lengths)
    clone = clone_time(states, min(seconds / 4, 0.5))
    return {
        "players": players,
        "games": run.games,
        "games_per_s": run.games / run.seconds,
        "decisions_per_game": run.decisions / run.games,
        "decisions_per_s": run.decisions / run.seconds,
        "apply_per_s": run.decisions / run.apply_seconds if run.apply_seconds else None,
        "txn_games_per_s": txn.games / txn.seconds,
        "clone_us": clone * 1e6 if clone is not None else None,
        "peak_kib": peak_memory(game, players) / 1024,
    }, states
