"""The conditional expression `a if c else b`, and the hint for `=` where `==` was meant."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.dsl import ast
from engine.dsl.parser import parse_expr, parse_program
from engine.errors import DSLSyntaxError, PackError
from engine.flow.machine import evaluate
from tests.packfiles import write

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini" / "pack.yaml"


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


@pytest.mark.parametrize(("src", "value"), [
    ("1 if true else 2", 1),
    ("1 if false else 2", 2),
    ("1 + 1 if false else 5", 5),  # binds loosest: (1 + 1) if false else 5
    ("1 if false else 2 if false else 3", 3),
    ("[x * 10 if x > 1 else x for x in [1, 2, 3] if x != 2]", [1, 30]),
    ("[x for x in ([1] if false else [2, 3])]", [2, 3]),
    ("max(1 if true else 9, 0)", 1),
])
def test_a_conditional_is_worked_out(game, src, value):
    S = game.new_state(players=2, seed=0)
    assert evaluate(S, game.compile_expr(src), {}) == value


@pytest.mark.parametrize("src", ["1 if a else 2", "[a if c else b for a in xs if d]",
                                 "f(a if b else c, k=1 if d else e)\nx = y if z else w",
                                 "xs[0 if a else 1]", "not a if b else c", "a or b if c and d else e"])
def test_a_conditional_is_read_as_one(src):
    assert "IfExp(" in repr(parse_program(src))
    assert isinstance(parse_program(src), ast.Program)


def test_its_type_is_its_branches_type(game):
    assert game.compile_expr("1 if true else 2").type == "int"
    assert game.compile_expr("1 if true else none").type == "any"
    assert game.compile_expr("1 if true else 'a'").type == "any"
    with pytest.raises(PackError, match="'score' holds a number: it cannot be set to a text"):
        game.compile_expr("players[0].score = 'a' if true else 'b'", effect=True)


def test_equals_where_a_comparison_was_meant_has_a_hint(tmp_path):
    with pytest.raises(DSLSyntaxError) as info:
        parse_expr("x = 3")
    assert info.value.problem.hint == "did you mean '=='? '=' sets a value, '==' compares two"
    write(tmp_path, {"house.yaml": f"extends: {MINI}\nactions:\n  - id: score\n    at: main\n"
                                   "    if: \"[p for p in players if p.score = 1]\"\n"})
    with pytest.raises(PackError) as info:
        engine.load(MINI, house=[tmp_path / "house.yaml"])
    (p,) = info.value.problems
    assert (p.span.line, p.span.col, p.hint) == (5, 41, "did you mean '=='? '=' sets a value, '==' compares two")
    assert p.message.startswith("unexpected '='")
