"""Explicit chance: a state stops before every random draw as a chance node; given the
draws its own RNG would have made, it plays exactly the seeded game."""

from __future__ import annotations

import random

import pytest

from engine import rng
from engine.errors import StateError
from tests.agents.cases import CASES, IDS, game


def _without_rng(S) -> dict:
    d = S.to_dict()
    d.pop("rng")
    return d


@pytest.mark.parametrize(("pack", "mode"), CASES, ids=IDS)
def test_the_rng_draws_as_chance_outcomes_replay_the_seeded_game(pack, mode):
    g = game(pack, mode)
    seed = 7
    plain = g.new_state(players=2, seed=seed)
    S = g.new_state(players=2, seed=seed, explicit_chance=True)
    r = rng.seed_state(seed)
    pick = random.Random(seed)
    nodes = decisions = 0
    while decisions < 40 and not plain.over:
        if S.is_chance_node():
            outcomes = S.chance_outcomes()
            n = len(outcomes)
            assert outcomes == [(k, 1 / n) for k in range(n)]
            r, w = rng.next_u64(r)
            S.apply_chance(w % n)
            nodes += 1
            continue
        assert _without_rng(S) == _without_rng(plain)
        action = pick.choice(plain.legal_action_ids())
        plain.apply(action)
        S.apply(action)
        decisions += 1
    assert nodes > 0


def test_a_chance_node_takes_no_action_and_only_its_outcomes():
    g = game("roll-them-bones", None)
    S = g.new_state(players=2, explicit_chance=True)
    assert S.is_chance_node()
    n = len(S.chance_outcomes())
    with pytest.raises(StateError, match="chance node"):
        S.apply("pass")
    with pytest.raises(StateError, match="not a chance outcome"):
        S.apply_chance(n)
    S.apply_chance(0)
    assert S.clone().chance_outcomes() == S.chance_outcomes()
    plain = g.new_state(players=2)
    assert not plain.is_chance_node() and plain.chance_outcomes() == []
    with pytest.raises(StateError, match="not a chance node"):
        plain.apply_chance(0)


def test_reseeded_clones_roll_their_own_dice():
    g = game("roll-them-bones", None)
    S = g.new_state(players=2, seed=3)
    label = S.decision().actions[0]
    same, own = set(), set()
    for k in range(20):
        for out, reseed in ((same, None), (own, k)):
            c = S.clone(reseed=reseed)
            c.apply(label)
            out.add(str(c.to_dict()["log"][-30:]))
    assert len(same) == 1 and len(own) > 10
