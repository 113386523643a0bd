"""Statements that cannot work on values whose types are known at load time are load-time
errors at their position (expressions: tests/dsl/corpus/expressions.txt); what is of
unknown type is left to the run time, whose error says it in the pack's words."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.errors import HordeError, RuleRuntimeError
from engine.flow.machine import evaluate

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


@pytest.mark.parametrize(("src", "error"), [
    ("players[0].score += 'a'", "'+' cannot take a number and a text"),
    ("x = 'a'\nx += 1", "'+' cannot take a text and a number"),
    ("x = current\nx *= 2", "'*' cannot take a player and a number"),
    ("x = [1]\nx -= [1]", "'-' cannot take a list and a list"),
])
def test_augmented_assignment_of_known_types(game, src, error):
    with pytest.raises(HordeError) as exc:
        game.compile_expr(src, effect=True)
    assert error in str(exc.value)


@pytest.mark.parametrize("src", [
    "players[0].score += 2",
    "x = [1]\nx += [2]",
    "x = 'a'\nx += 'b'",
    "x = 'ab'\nx *= 2",
    "y.score += 'a'",  # y's type is not known here: the run time will say
])
def test_what_can_work_compiles(game, src):
    game.compile_expr(src, {"y": "any"}, effect=True)


@pytest.mark.parametrize(("value", "src", "said"), [
    ("a", "y + 1", "cannot use +: 'text' and 'number'"),
    (None, "y - 1", "cannot use -: 'none' and 'number'"),
    ("a", "y < 1", "'<' not supported between 'text' and 'number'"),
])
def test_a_wrong_kind_found_at_run_time_is_said_in_the_pack_s_words(game, value, src, said):
    S = game.new_state(players=2, seed=1)
    c = game.compile_expr(src, {"y": "any"})
    with pytest.raises(RuleRuntimeError) as exc:
        evaluate(S, c, {"y": value})
    assert f"a value of the wrong kind: {said}" in str(exc.value)
    assert "TypeError" not in str(exc.value)
