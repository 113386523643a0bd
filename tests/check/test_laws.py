"""The engine's laws one by one: each catches the breakage it names and nothing else."""

from __future__ import annotations

import pytest

import engine
from engine.check.play import costly_at
from engine.dsl.values import E
from engine.errors import PackError
from engine.flow.decision import Decision
from engine.laws import (
    Watch,
    conservation,
    determinism,
    entity_counts,
    explore,
    fingerprint,
    legal_order,
    unconserved,
    view_leaks,
    violations,
)
from engine.scenario import run_file
from tests.check.conftest import FIXTURES


@pytest.fixture(scope="module")
def game():
    return engine.load("roll-them-bones")


@pytest.fixture
def state(game):
    return game.new_state(players=3, seed=5)


def test_a_fresh_state_keeps_every_law(game, state):
    w = Watch(game)
    w.start(state)
    assert w.check(state) == []


def test_conservation_sees_copies_losses_and_double_places(state):
    base = entity_counts(state)
    assert conservation(state, base) == []
    uid = state.zones["item_stack"][0]
    card = state.ents[uid]["id"]
    state.zones["item_discard"].append(uid)
    [double] = conservation(state, base)
    assert "in zone item_stack and in zone item_discard" in double.detail
    state.zones["item_discard"].pop()
    state.zones["item_stack"].remove(uid)
    del state.ents[uid]
    [lost] = conservation(state, base)
    assert f"'{card}'" in lost.detail and "vanished" in lost.detail
    assert lost.span is not None and lost.span.file.endswith("pack.yaml")


def test_an_entity_must_be_somewhere(state):
    state.new_entity("keys", {})
    problems = conservation(state, None)
    assert any("is nowhere" in v.detail for v in problems)


def test_cards_are_conserved_and_piece_kinds_are_not_unless_they_say_so(tmp_path):
    house = tmp_path / "h.yaml"
    house.write_text("extends: roll-them-bones\ncards:\n  - {id: keys, conserved: false}\n")
    g = engine.load("roll-them-bones", house=[str(house)])
    assert unconserved(g) == {"keys"}
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: roll-them-bones\ncards:\n  - {id: keys, conserved: maybe}\n")
    with pytest.raises(PackError, match="conserved"):
        engine.load("roll-them-bones", house=[str(bad)])


def test_legal_actions_must_be_sorted_and_unique(state):
    d = state.decision()
    state._decision = Decision(d.player, d.point, d.kind, list(reversed(d.actions)) * 2,
                               d.bindings)
    assert legal_order(state)[0].key == "legal-actions"


def test_explore_takes_a_spread_sample_of_the_actions(state):
    d = state.decision()
    everything = explore(state)
    assert set(everything) == set(d.actions)
    assert len(explore(state, 1)) == 1
    assert all(not isinstance(r, Exception) for r in everything.values())


def test_a_view_must_not_show_a_hidden_entity_anywhere(state):
    assert view_leaks(state) == []
    hidden = state.zones["item_stack"][-1]
    state.turn["last"] = E(hidden)  # a rule that remembers the top card of a hidden pile
    leaks = view_leaks(state)
    assert len(leaks) == len(state.pl) + 1  # every player and a spectator
    assert f"#{hidden}" in leaks[0].detail


def test_a_field_bound_names_an_expression_that_fails_while_it_is_broken(game, state):
    state.pl[1]["health"] = 9
    [v] = violations(state)
    assert v.detail == "P1.health = 9"
    from engine.flow.machine import evaluate
    assert evaluate(state, game.compile_expr(v.expect), {}) is False
    state.pl[1]["health"] = 1
    assert evaluate(state, game.compile_expr(v.expect), {}) is True


def test_checking_does_not_spend_the_games_step_budget(state):
    steps = state.steps
    violations(state)
    assert state.steps == steps


def test_round_trips_catch_a_state_that_cannot_be_saved(game, state):
    w = Watch(game, ["round-trip"])
    state.vars["odd"] = {1, 2}  # no rule can make a set: as if a building block leaked one
    problems = w.apply(state, state.decision().actions[0])
    assert any("cannot be saved" in v.detail for v in problems)


def test_round_trips_catch_a_clone_that_differs(game, state, monkeypatch):
    from engine.state import State
    real = State.clone

    def forgetful(self):
        c = real(self)
        c.rng ^= 1
        return c

    monkeypatch.setattr(State, "clone", forgetful)
    problems = Watch(game, ["round-trip"]).apply(state, state.decision().actions[0])
    assert any("a clone differs from the state in rng" in v.detail for v in problems)


def test_a_situation_that_comes_back_breaks_the_ending_law(game, state):
    w = Watch(game, ["ends"])
    assert w.check(state) == []
    state.log.append({"t": "msg", "text": "nothing that matters"})
    state.steps += 7
    [v] = w.check(state)
    assert "can go on forever" in v.detail


def test_the_fingerprint_ignores_the_log_but_not_the_game(state):
    fp = fingerprint(state)
    state.log.append({"t": "msg", "text": "x"})
    assert fingerprint(state) == fp
    state.pl[0]["distance"] += 1
    assert fingerprint(state) != fp


def test_determinism_compares_replays(game, state):
    again = state.clone()
    assert determinism(state, again) == []
    again.log.append({"t": "msg", "text": "a different game"})
    assert determinism(state, again)[0].key == "determinism"


def test_costly_laws_thin_out_in_long_games():
    assert all(costly_at(k, 100) for k in range(100))
    assert [k for k in range(100, 120) if costly_at(k, 100)] == list(range(100, 120, 2))
    assert sum(costly_at(k, 100) for k in range(2000)) < 400
    assert all(costly_at(k, None) for k in range(1000))


def test_a_scenario_can_require_the_engine_laws():
    [r] = run_file(FIXTURES / "lawful.yaml")
    assert r.ok, r.message


def test_a_scenario_names_only_known_laws(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text((FIXTURES / "lawful.yaml").read_text().replace("determinism]", "karma]"))
    with pytest.raises(PackError, match="expect_law"):
        run_file(f)


def test_copy_makes_a_new_entity_of_the_same_card(game, state):
    from engine.flow.machine import run_effect
    fx = game.compile_expr("copy(top(item_stack), players[0].item)", effect=True)
    top = state.ents[state.zones["item_stack"][-1]]["id"]
    for uid in list(state.zones["item#0"]):  # make room in the slot
        state.move_ent(uid, state.zone_ref("item_discard"))
    run_effect(state, fx, {})
    [uid] = state.zones["item#0"]
    assert state.ents[uid]["id"] == top and uid not in state.zones["item_stack"]
