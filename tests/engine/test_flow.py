"""The flow machine and the State API, on a tiny pack (tests/engine/fixtures/mini)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.errors import RuleRuntimeError, StateError

MINI = Path(__file__).parent / "fixtures" / "mini"


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


def test_window_asks_only_who_can_act(game):
    S = game.new_state(players=2, seed=1)
    d = S.decision()
    assert (d.player, d.point, d.kind) == (1, "start", "window")
    assert d.actions == ["pass", "poke"]


def test_acting_in_a_window_offers_again_until_everyone_passes(game):
    S = game.new_state(players=2, seed=1)
    S.apply("poke")
    assert S.pl[1]["tag"] == "poked"
    d = S.decision()  # poke no longer legal for P1; nobody else can act: on to the ask
    assert (d.player, d.point, d.kind) == (0, "main", "ask")


def test_ask_lists_sorted_labels_with_params(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    assert S.decision().actions == ["draw", "score(n=1)", "score(n=2)"]


def test_effects_triggers_and_turn_order(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    S.apply("score(n=2)")  # trigger on 'bumped' with by == 2 tags the player
    assert S.pl[0]["score"] == 2 and S.pl[0]["tag"] == "big"
    assert S.vars["trace"] == [0]
    assert S.decision().player == 1 and S.cur == 1


def test_end_condition_names_the_winner(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    S.apply("score(n=2)")
    S.apply("score(n=1)")  # P1
    S.apply("score(n=1)")  # round 2, P0 reaches the goal of 3
    assert S.is_terminal() and S.winners == [0]
    assert S.returns() == [1.0, -1.0]
    assert S.decision() is None


def test_flow_end_without_winner_is_a_draw(game):
    S = game.new_state(players=2, seed=1)
    for label in ("pass", "draw", "pass", "draw", "draw", "draw"):  # P0, P1 may poke in round 1
        S.apply(label)
    assert S.is_terminal() and S.winners == [] and S.returns() == [0.0, 0.0]
    assert S.vars["trace"] == [0, 1, 0, 1]


def test_zone_draw_moves_entities_and_hides_them(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    S.apply("draw")
    assert len(S.zones["hand#0"]) == 1 and len(S.zones["deck"]) == 4
    mine, theirs = S.view(0), S.view(1)
    assert isinstance(mine["zones"]["hand#0"], list)
    assert theirs["zones"]["hand#0"] == {"hidden": 1}
    assert theirs["zones"]["deck"] == {"hidden": 4}
    hidden_uid = str(S.zones["hand#0"][0])
    assert hidden_uid in mine["ents"] and hidden_uid not in theirs["ents"]
    assert "rng" not in theirs


def test_illegal_label_is_a_clear_error_and_changes_nothing(game):
    S = game.new_state(players=2, seed=1)
    before = S.to_dict()
    with pytest.raises(StateError) as exc:
        S.apply("pokee")
    assert "did you mean 'poke'" in str(exc.value)
    assert S.to_dict() == before


def test_runtime_error_points_into_the_pack_and_rolls_back(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    S.pl[0]["tag"] = "crash"
    S._decision = None
    before = S.to_dict()
    with pytest.raises(RuleRuntimeError) as exc:
        S.apply("crash")
    text = str(exc.value)
    assert "division by zero" in text and "pack.yaml:" in text and "x = 1 / 0" in text
    assert S.to_dict() == before  # me.score = 1 ran before the error, and was undone


def test_procedure_depth_and_step_budgets(game):
    for tag, words in (("recurse", "nested deeper"), ("spin", "steps")):
        S = game.new_state(players=2, seed=1)
        S.apply("pass")
        S.pl[0]["tag"] = tag
        S._decision = None
        with pytest.raises(RuleRuntimeError) as exc:
            S.apply(tag)
        assert words in str(exc.value)


def test_clone_is_independent(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    C = S.clone()
    C.apply("score(n=1)")
    assert S.pl[0]["score"] == 0 and C.pl[0]["score"] == 1
    assert S.decision().point == "main"


def test_save_load_round_trip_and_same_future(game):
    S = game.new_state(players=2, seed=5)
    S.apply("pass")
    S.apply("draw")
    data = json.loads(json.dumps(S.to_dict()))
    R = game.state_from_dict(data)
    assert R == S
    for s in (S, R):
        s.apply("pass")
        s.apply("draw")
    assert R == S


@pytest.mark.parametrize("corrupt", [
    lambda d: d.pop("stack"),
    lambda d: d.__setitem__("hash", "0000"),
    lambda d: d.__setitem__("stack", [[999, 0, None, None, True]]),
    lambda d: d["zones"].__setitem__("nowhere", []),
    lambda d: d["zones"]["deck"].append(424242),
    lambda d: d.__setitem__("pl", "garbage"),
    lambda d: d.__setitem__("format", 99),
])
def test_corrupt_saves_are_clear_errors(game, corrupt):
    S = game.new_state(players=2, seed=5)
    data = json.loads(json.dumps(S.to_dict()))
    corrupt(data)
    with pytest.raises(StateError):
        game.state_from_dict(data)


def test_player_count_is_checked(game):
    with pytest.raises(StateError):
        game.new_state(players=9)


def test_params_override_and_bad_values(game):
    g = engine.load(MINI, params={"goal": "5"})
    assert g.params["goal"] == 5
    with pytest.raises(engine.PackError) as exc:
        engine.load(MINI, params={"goal": "five"})
    assert "must be an integer" in str(exc.value)
    with pytest.raises(engine.PackError) as exc:
        engine.load(MINI, params={"gaol": 2})
    assert "did you mean 'goal'" in str(exc.value)
    with pytest.raises(engine.PackError) as exc:
        engine.load(MINI, params={"goal": 50})
    assert "outside" in str(exc.value)


def test_inconsistent_dedent_is_a_syntax_error_with_its_line():
    from engine.dsl.parser import parse_program
    from engine.errors import DSLSyntaxError
    with pytest.raises(DSLSyntaxError) as exc:
        parse_program("if a:\n    b = 1\n   c = 2\n")
    assert exc.value.pos == (3, 1)
