"""Decisions checked per second: `horde check`'s speed, every law after every decision.

An author runs `horde check PACK` before a release, and it plays far fewer games than a
batch of bot games would in the same time: after every decision it compares the state
with a clone and a saved-and-loaded copy, looks at every player's view and remembers
where the game has been (`engine.laws.Watch`). This plays games under that watch with
every law on, each decision chosen uniformly by a seeded generator instead of by
Hypothesis (whose own bookkeeping is not what is measured), through
`engine.check.play.play`, which every tree since `horde check` has, so `bench.ab` can play
the very same checked games on an older tree.

Game k: state seed `game_seed(0, k)`, choices from `random.Random(k)`.
"""

from __future__ import annotations

import random
import time

from engine.check.play import play
from engine.sim.seeds import game_seed

MIN_GAMES = 1


def play_checked(game, players: int, index: int) -> int:
    """Check game `index` to its end (or its first broken law); returns its decisions."""
    rnd = random.Random(index)
    try:
        return play(game, players, game_seed(0, index), lambda n: rnd.randrange(n))
    except Exception as exc:  # a broken law still checked its decisions  # noqa: BLE001
        failure = getattr(exc, "failure", None)
        if failure is None:
            raise
        return len(failure.steps)


def measure(game, players: int, seconds: float) -> dict:
    """Games 0, 1, 2... checked until `seconds` (wall) have passed, at least MIN_GAMES:
    decisions checked per second of CPU time."""
    clock = time.process_time
    deadline = time.perf_counter() + seconds
    start = clock()
    games = decisions = 0
    while games < MIN_GAMES or time.perf_counter() < deadline:
        decisions += play_checked(game, players, games)
        games += 1
    return {"check_decisions_per_s": decisions / (clock() - start)}
