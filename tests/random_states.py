"""States met along a random game: what tests that check a fast answer against its
definition at many real positions walk through."""

from __future__ import annotations

import random


def states_met(game, n: int, seed: int, players: int = 2, share: float = 0.2):
    """Up to `n` states of one game played by uniform random choices, each at a decision;
    about `share` of the decisions are yielded (the state itself, which then plays on)."""
    rng = random.Random(seed)
    S = game.new_state(players=players, seed=seed)
    while not S.over and n:
        d = S.decision()
        if rng.random() < share:
            n -= 1
            yield S
        S.apply(rng.choice(d.actions))
