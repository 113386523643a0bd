"""Hand-written programs of bundled packs, the yardsticks for the engine's speed.

Each module plays its game with uniform random bots through `play_game(players, seed)`
and returns `(winner seat or None, turns, decisions)`. The harness times them next to the
engine in the same process, on the same core, in alternating turns (`alternating`), so
the ratio of the two speeds is fair. `CONTRACTS` are second programs of the same games that
keep the engine's contract (labelled sorted decisions, the engine's RNG, a log): engine /
contract says what the engine costs beyond what it promises.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

# pack id -> module with `play_game(players, seed)` (base pack, default params)
REFERENCES = {"roll-them-bones": "bench.reference.roll_them_bones"}
CONTRACTS = {"roll-them-bones": "bench.reference.roll_them_bones_contract"}
SLICES = 10  # turns each side gets in `alternating`


def has_reference(pack: str, mode: str | None) -> bool:
    return mode is None and pack in REFERENCES


def alternating(pack: str, players: int, seconds: float, play_engine: Callable[[int], object],
                slices: int = SLICES, programs: dict = REFERENCES) -> dict:
    """Games per second of the hand-written program and of the engine (`play_engine(k)`
    plays the engine's game k), measured in `slices` alternating turns of the two over
    `seconds` in all. The speed of this machine drifts by several per cent within a minute;
    two measurements taken one after the other put that drift into their ratio, while
    alternating turns give both sides the same moments, and the drift cancels out.
    Both play games 0, 1, 2... in order, each picking up where its last turn stopped.
    `programs` says which hand-written program: `REFERENCES` or `CONTRACTS`."""
    play_ref = importlib.import_module(programs[pack]).play_game
    sides = (play_engine, lambda k: play_ref(players, k))
    clock = time.process_time  # CPU time, as for the engine (see bench.play)
    games = [0, 0]
    spent = [0.0, 0.0]
    share = seconds / (2 * slices)
    for _ in range(slices):
        for side, play in enumerate(sides):
            deadline = time.perf_counter() + share
            start = clock()
            while True:  # at least one game a turn
                play(games[side])
                games[side] += 1
                if time.perf_counter() >= deadline:
                    break
            spent[side] += clock() - start
    engine, by_hand = (g / max(t, 1e-9) for g, t in zip(games, spent, strict=True))
    return {"games": games[1], "games_per_s": by_hand, "ratio": engine / by_hand}
