"""The fixed action space: every legal binding of every pack and mode has an id, one state's
ids are distinct, and ids go to labels and back."""

from __future__ import annotations

import random

import pytest

import engine
from engine.errors import PackError, StateError
from tests.agents.cases import CASES, IDS, game
from tests.packfiles import write


@pytest.mark.parametrize(("pack", "mode"), CASES, ids=IDS)
def test_every_legal_binding_has_a_distinct_id_that_round_trips(pack, mode):
    g = game(pack, mode)
    for seed, players in enumerate(sorted({g.players_min, g.players_default, g.players_max})):
        space = g.action_space(players)
        rng = random.Random(seed)
        S = g.new_state(players=players, seed=seed)
        for step in range(60):
            if S.over:
                break
            d = S.decision()
            ids = S.legal_action_ids()
            legal = space.legal(S)
            assert ids == sorted(set(ids)) and all(0 <= i < space.size for i in ids)
            for lab in d.actions:  # each label's id is legal, and names its kind of action
                a, args = d.bindings[lab]
                i = space.id_of(S, "pass" if a is None else a.id, args)
                assert i in legal
                assert space.label(i).split("(")[0] == lab.split("(")[0]
            i = rng.choice(ids)
            if step % 10:
                S.apply(i)
                continue
            by_label = S.clone()
            by_label.apply(legal[i])
            S.apply(i)
            assert S.to_dict() == by_label.to_dict()


def test_the_space_is_the_same_for_every_game_of_a_pack():
    g = game("defcon-z", None)
    fresh = engine.load("defcon-z")
    assert fresh.num_distinct_actions(3) == g.num_distinct_actions(3)
    assert [fresh.action_label(i, 3) for i in range(0, fresh.num_distinct_actions(3), 997)] == \
        [g.action_label(i, 3) for i in range(0, g.num_distinct_actions(3), 997)]


def test_interchangeable_copies_share_their_kind_id_and_the_first_is_played():
    g = game("defcon-z", None)
    for S in _states(g, 4, 400):
        d = S.decision()
        copies = [lab for lab in d.actions if "#" in lab]
        if len(copies) < 2 or copies[0].split("#")[0] != copies[1].split("#")[0]:
            continue
        legal = g.action_space(4).legal(S)
        ids = {i for i, lab in legal.items() if lab in copies[:2]}
        assert len(ids) == 1 and legal[ids.pop()] == copies[0]
        assert copies[1] not in legal.values()
        return
    pytest.fail("no decision offered two copies of one card")


def _states(g, players, n):
    rng = random.Random(3)
    for seed in range(20):
        S = g.new_state(players=players, seed=seed)
        for _ in range(n):
            if S.over:
                break
            yield S
            S.apply(rng.choice(S.decision().actions))


def test_an_id_that_is_not_legal_is_a_clear_error():
    g = game("roll-them-bones", None)
    S = g.new_state(players=3, seed=1)
    bad = next(i for i in range(g.num_distinct_actions(3)) if i not in S.legal_action_ids())
    with pytest.raises(StateError, match="not legal now"):
        S.apply(bad)
    with pytest.raises(StateError, match="is not an action id"):
        g.action_label(10**9, 3)


PACK = """
pack: p
title: P
players: {min: 2, max: 2}
vars: {spots: []}
flow:
  - ask: main
actions:
  - id: go
    at: main
    params: {to: "game.spots"}
    do: end_game()
end: []
"""


def test_a_parameter_that_cannot_be_bounded_asks_for_a_domain(tmp_path):
    g = engine.load(write(tmp_path, {"pack.yaml": PACK}))
    with pytest.raises(PackError) as err:
        g.action_space(2)
    text = str(err.value.problems[0].message) + str(err.value.problems[0].hint)
    assert "'to'" in text and "domains:" in text


def test_a_value_outside_its_declared_domain_is_a_clear_error(tmp_path):
    pack = PACK.replace("vars: {spots: []}", "vars: {spots: [5]}").replace(
        "    do: end_game()", "    domains: {to: [1, 2]}\n    do: end_game()")
    g = engine.load(write(tmp_path, {"pack.yaml": pack}))
    assert g.num_distinct_actions(2) == 2 and g.action_label(1, 2) == "go(to=2)"
    with pytest.raises(StateError, match="outside the domain"):
        g.new_state(players=2).legal_action_ids()


def test_id_0_is_pass_only_in_a_pack_where_a_player_may_pass(tmp_path):
    pack = PACK.replace("vars: {spots: []}", "vars: {spots: [1]}").replace(
        "    do: end_game()", "    domains: {to: [1, 2]}\n    do: end_game()")
    g = engine.load(write(tmp_path / "no-pass", {"pack.yaml": pack}))
    assert [g.action_label(i, 2) for i in range(g.num_distinct_actions(2))] == \
        ["go(to=1)", "go(to=2)"]
    assert g.new_state(players=2).legal_action_ids() == [0]
    passing = engine.load(write(tmp_path / "pass", {"pack.yaml": pack.replace(
        "  - ask: main", "  - ask: main\n    pass: true")}))
    assert [passing.action_label(i, 2) for i in range(passing.num_distinct_actions(2))] == \
        ["pass", "go(to=1)", "go(to=2)"]
    assert passing.new_state(players=2).legal_action_ids() == [0, 1]
