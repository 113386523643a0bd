"""The baseline bot: every legal action equally likely.

It needs no information at all, so it never looks at the state. Its own `random.Random`
(not the game's RNG) keeps the game's dice the same whoever sits at the table.
"""

from __future__ import annotations

import random

from engine.bots.base import register_bot


class RandomBot:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, state, decision) -> str:
        return self.rng.choice(decision.actions)


@register_bot("random")
def _make_random(arg, seed, game):
    return RandomBot(seed)
