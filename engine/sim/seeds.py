"""Seeds derived from a master seed and a position, so batches are reproducible piecewise.

Game i of a batch and the bot at seat s of that game get seeds that depend only on
(master seed, i, s): not on how many games ran before, nor in which order or process.
That is what lets a batch be split, resumed or run in parallel and still agree.
Python's `hash()` is salted per process, so a stable digest is used instead.
"""

from __future__ import annotations

import hashlib


def derive_seed(*parts: object) -> int:
    """A 63-bit seed determined by `parts` (ints and strings)."""
    text = "/".join(repr(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def game_seed(seed: int, index: int) -> int:
    return derive_seed(seed, "game", index)


def bot_seed(seed: int, index: int, seat: int) -> int:
    return derive_seed(seed, "bot", index, seat)
