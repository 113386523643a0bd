"""horde's own bots on the agent APIs: a bot decides a seat's move, given as an action id.

Agents' states (OpenSpiel's) are in explicit-chance mode: every roll stops the run as a
chance node. horde's bots search by copying the state and playing on, rolling inside, so
a bot never decides on the agent's state itself: it decides on a copy with explicit chance
off and dice of its own, drawn from the seat's RNG (a copy sharing the game's dice would
see the future). Its label then becomes the id of the fixed action space.
"""

from __future__ import annotations

import random

from engine.agents.actions import space
from engine.bots import make_bot
from engine.errors import StateError


class Seat:
    """One seat played by the horde bot of `spec` (`random`, `greedy`, `mcts:10`, ...)."""

    def __init__(self, game, spec: str, seed: int = 0):
        self.game = game
        self.spec = spec
        self.bot = make_bot(spec, seed, game)
        self.rng = random.Random(seed)

    def copy_to_decide(self, S):
        """A copy of `S` that rolls inside, as in ordinary play, with fresh dice."""
        if S.is_chance_node():
            raise StateError("a chance node has no seat to decide",
                             hint="apply one of chance_outcomes() first")
        c = S.clone(reseed=self.rng.getrandbits(64))
        c.chance = None
        return c

    def decide(self, S) -> int:
        """The action id the bot picks in `S` (a legal one of `S.legal_action_ids()`)."""
        c = self.copy_to_decide(S)
        d = c.decision()
        if d is None:
            raise StateError("the game is over: no seat decides")
        label = self.bot.choose(c, d)
        action, args = d.bindings[label]
        return space(S.game, len(S.pl)).id_of(c, "pass" if action is None else action.id, args)
