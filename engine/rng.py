"""The game's random number generator: splitmix64, its whole state one integer.

Python's `random.Random` carries 625 words of state, which would dominate the cost of
cloning and saving a game. One 64-bit integer keeps `clone()` and `to_dict()` cheap and
makes the RNG part of the state, as boardgame.io does.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
STEP = 0x9E3779B97F4A7C15  # what each draw adds to the state word: the word counts draws


def seed_state(seed: int) -> int:
    """The starting state for a seed. splitmix64 walks its state by a fixed step, so the
    seed is scrambled first: seeds k and k+1 must not start one step apart on the same walk
    (their games would share a shifted dice stream)."""
    z = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def next_u64(state: int) -> tuple[int, int]:
    """(new state, 64 random bits)."""
    state = (state + STEP) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, uniform int in [0, n)). The bias of `% n` is below 2**-58 for game-sized n."""
    state, r = next_u64(state)
    return state, r % n
