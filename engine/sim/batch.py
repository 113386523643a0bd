"""Play many games with bots, fast and reproducibly.

Each game and each bot gets its own seed derived from the batch seed and its position
(`engine.sim.seeds`), so game 517 of a batch is the same game whether it runs first, last
or alone. States run non-transactionally: nobody needs an illegal move rolled back here,
and skipping the snapshot before every action is most of a random game's cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from engine.bots import is_human, make_bot
from engine.errors import HordeError
from engine.sim.seeds import bot_seed, game_seed
from engine.sim.stats import GameRecord, SimResult


def seat_specs(bots: Sequence[str], players: int) -> list[str]:
    """One bot spec per seat: the list cycles over the seats (default random everywhere)."""
    specs = [b.strip() for b in bots if b.strip()] or ["random"]
    return [specs[i % len(specs)] for i in range(players)]


def play_one(game, players: int, specs: list[str], seed: int, index: int) -> GameRecord:
    """Game `index` of the batch with master seed `seed`, played to the end."""
    gseed = game_seed(seed, index)
    seats = [make_bot(spec, bot_seed(seed, index, s), game) for s, spec in enumerate(specs)]
    state = game.new_state(players=players, seed=gseed)
    state.transactional = False
    decisions = 0
    try:
        while not state.over:
            d = state.decision()
            if d is None:
                break
            state.apply(seats[d.player].choose(state, d))
            decisions += 1
    except HordeError as exc:
        for problem in exc.problems[:1]:  # say which game, so it can be replayed alone
            problem.message = f"game {index} (seed {gseed}): {problem.message}"
        raise
    # A game stopped by the turn limit counted the turn it never started.
    return GameRecord(index, gseed, tuple(state.winners), state.turns, state.limit_hit, decisions)


def simulate(game, players: int | None, bots: Sequence[str], n: int, seed: int = 0,
             progress: Callable[[int, int], None] | None = None) -> SimResult:
    """Play `n` games of `game` with `players` seats; `progress(done, n)` after each."""
    players = game.players_default if players is None else players
    specs = seat_specs(bots, players)
    for seat, spec in enumerate(specs):
        if is_human(make_bot(spec, 0, game)):
            raise HordeError(f"seat {seat} is '{spec}': a simulation needs bots at every seat")
    if n < 0:
        raise HordeError(f"cannot play {n} games")
    result = SimResult(game.pack_id, game.mode, dict(game.params), players, specs, seed)
    start = time.perf_counter()
    for i in range(n):
        result.records.append(play_one(game, players, specs, seed, i))
        if progress is not None:
            progress(i + 1, n)
    result.seconds = time.perf_counter() - start
    return result
