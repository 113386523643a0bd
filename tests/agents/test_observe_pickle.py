"""Observations of a seat (string and tensor of declared shape), and states that pickle."""

from __future__ import annotations

import pickle
import random

import pytest

from engine.agents import observe
from engine.agents.pickling import game_spec
from tests.agents.cases import game

PACKS = ["roll-them-bones", "theyre-coming", "defcon-z"]


def _walk(g, players, n, explicit=True, seed=0):
    S = g.new_state(players=players, seed=seed, explicit_chance=explicit)
    r = random.Random(seed)
    for _ in range(n):
        if S.is_terminal():
            return
        yield S
        if S.is_chance_node():
            S.apply_chance(r.randrange(len(S.chance_outcomes())))
        else:
            S.apply(r.choice(S.legal_action_ids()))


@pytest.mark.parametrize("pack", PACKS)
def test_states_and_chance_nodes_pickle_and_play_on_the_same(pack):
    g = game(pack, None)
    back = pickle.loads(pickle.dumps(g))  # the game loaded once per process, by its spec
    assert back.hash == g.hash and game_spec(back) == game_spec(g)
    assert pickle.loads(pickle.dumps(back)) is back
    kinds = set()
    for k, S in enumerate(_walk(g, 2, 150)):
        if k % 13:
            continue
        T = pickle.loads(pickle.dumps(S))
        kinds.add(S.is_chance_node())
        assert T.is_chance_node() == S.is_chance_node()
        assert T.chance_outcomes() == S.chance_outcomes()
        if not S.is_chance_node():
            assert T.to_dict() == S.to_dict() and T.legal_action_ids() == S.legal_action_ids()
        else:
            T.apply_chance(0)
            S = S.clone()
            S.apply_chance(0)
            assert T.to_dict() == S.to_dict()
    assert kinds == {True, False}
    plain = g.new_state(players=2, seed=4)
    assert pickle.loads(pickle.dumps(plain)).to_dict() == plain.to_dict()


@pytest.mark.parametrize("pack", PACKS)
def test_the_tensor_keeps_its_declared_shape_and_hides_what_the_seat_cannot_see(pack):
    g = game(pack, None)
    lay = observe.layout(g, 3)
    assert lay.size == sum(n for _, n in lay.blocks)
    for S in _walk(g, 3, 120, explicit=False, seed=2):
        for seat in range(3):
            assert len(observe.tensor(S, seat)) == lay.size
        seen = observe.seen_by(S, 0)
        assert observe.observation(S, 0) == repr(seen)
        for key, uids in S.zones.items():
            if not observe.can_see(S, key, 0):
                assert seen["zones"][key] == len(uids)
            else:
                assert [r["id"] for r in seen["zones"][key]] == [S.ents[u]["id"] for u in uids]
        assert "log" not in seen and "history" not in seen and "ents" not in seen
