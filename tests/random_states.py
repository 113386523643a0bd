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


def random_decisions(game, seed: int, players: int | None = None, limit: int | None = None,
                     rng: random.Random | None = None):
    """The state at every decision of one game played by uniform random choices (`rng`, by
    default one seeded with `seed`), up to `limit` decisions: the caller looks at it, then
    it plays on. Tests that check a fast path against its definition at every real
    position of a game walk through these."""
    rng = rng or random.Random(seed)
    S = game.new_state(seed=seed) if players is None else game.new_state(players=players, seed=seed)
    n = 0
    while not S.over and n != limit:
        d = S.decision()
        yield S
        S.apply(rng.choice(d.actions))
        n += 1


def trace(game, seed: int, limit: int = 150) -> list:
    """What a random game shows at each of its first `limit` decisions (who decides where,
    among what, the flow's stack and the steps taken), then its whole state: two ways of
    running the same rules must give the same trace."""
    seen = []
    S = None
    for S in random_decisions(game, seed, limit=limit):
        d = S.decision()
        seen.append((d.player, d.point, d.actions, repr(S.stack), S.steps))
    return [*seen, S.to_dict()]
