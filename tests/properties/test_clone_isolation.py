"""A clone's future never reaches its original, nor the original's the clone's.

Clones share entity records until one of them writes (`State.ent_w`), so a write that went
around `ent_w` would show up here: in every pack, mode and house example, states along a
random game are cloned, one side plays on, and the other must be exactly as it was.
"""

from __future__ import annotations

import random

import pytest

from tests.properties.variants import all_variants, game, variant_id

VARIANTS = all_variants()
DECISIONS = 240  # of the original game, cloned every EVERY decisions
EVERY = 15
AHEAD = 25  # decisions the other side plays


def _play(S, r: random.Random, n: int) -> None:
    for _ in range(n):
        if S.over:
            return
        S.apply(r.choice(S.decision().actions))


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_clones_and_originals_do_not_touch(variant):
    g = game(*variant)
    players = min(max(2, g.players_min), g.players_max)
    S = g.new_state(players=players, seed=7)
    S.transactional = False
    r = random.Random(7)
    for k in range(DECISIONS):
        if S.over:
            break
        if k % EVERY == 0:
            before = S.to_dict()
            C = S.clone()
            _play(C, random.Random(k), AHEAD)  # the clone plays on: the original stays
            assert S.to_dict() == before
            after_clone = C.to_dict()
            D = S.clone()
            _play(S, random.Random(k + 1), 1)  # the original plays on: its clones stay
            assert C.to_dict() == after_clone and D.to_dict() == before
        else:
            _play(S, r, 1)
