"""Hand-written programs of bundled packs, the yardsticks for the engine's speed.

Each module plays its game with uniform random bots through `play_game(players, seed)`
and returns `(winner seat or None, turns, decisions)`. The harness times them next to the
engine in the same process run, on the same core, so the ratio of the two speeds is fair.
"""

from __future__ import annotations

import importlib
import time

# pack id -> module with `play_game(players, seed)` (base pack, default params)
REFERENCES = {"roll-them-bones": "bench.reference.roll_them_bones"}


def has_reference(pack: str, mode: str | None) -> bool:
    return mode is None and pack in REFERENCES


def play_for(pack: str, players: int, seconds: float) -> dict:
    """Games per second of the hand-written program, seeds 0, 1, 2... for `seconds`."""
    play_game = importlib.import_module(REFERENCES[pack]).play_game
    clock = time.process_time  # CPU time, as for the engine (see bench.play)
    deadline = time.perf_counter() + seconds
    start = clock()
    games = decisions = 0
    while games < 2 or time.perf_counter() < deadline:
        decisions += play_game(players, games)[2]
        games += 1
    elapsed = clock() - start
    return {"games": games, "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed}
