"""Statements that cannot work on values whose types are known at load time are load-time
errors at their position (expressions: tests/dsl/corpus/expressions.txt); what is of
unknown type is left to the run time."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.errors import HordeError

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
