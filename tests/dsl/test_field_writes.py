"""Writing a field of a value whose type the compiler does not know (`x.score = v`).

An entity's own field is written straight into its record; anything else goes through
`runtime.set_`. These tests pin down that both ways give the same game: the same records,
the same copies on clone for lists and dicts, the same errors.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.dsl import runtime
from engine.errors import RuleRuntimeError

FIXTURE = Path(__file__).parent.parent / "bench" / "fixtures" / "fastpaths" / "pack.yaml"


@pytest.fixture(scope="module")
def game():
    return engine.load(FIXTURE)


def _run(game, text: str, x, v=None):
    S = game.new_state(seed=1)
    c = game.compile_expr(text, {"x": "any", "v": "any"}, effect=True)
    target = x(S) if callable(x) else x
    c.fn(S, {"x": target, "v": v})
    return S, target


def test_the_fast_way_is_taken_and_writes_the_record(game):
    c = game.compile_expr("x.score = v", {"x": "any", "v": "any"}, effect=True)
    assert "S.ent_w(" in c.source
    S, _ = _run(game, "x.score = v", lambda S: S.players[0], 7)
    assert S.pl[0]["score"] == 7  # a player still goes the player's way
    S, gem = _run(game, "x.score = v", lambda S: runtime.E(S.zones["deck"][0]), 7)
    assert S.ents[gem.i]["score"] == 7
    assert gem.i not in S.deep


@pytest.mark.parametrize("value", [[1, 2], {"a": 1}])
def test_a_list_or_dict_is_copied_with_its_state(game, value):
    S, gem = _run(game, "x.score = v", lambda S: runtime.E(S.zones["deck"][0]), value)
    assert gem.i in S.deep
    c = S.clone()
    assert c.ents[gem.i]["score"] is not S.ents[gem.i]["score"]


def test_a_write_to_a_clone_leaves_the_original(game):
    S = game.new_state(seed=1)
    gem = runtime.E(S.zones["deck"][0])
    c = S.clone()
    game.compile_expr("x.score = 9", {"x": "any"}, effect=True).fn(c, {"x": gem})
    assert (S.ents[gem.i]["score"], c.ents[gem.i]["score"]) == (5, 9)


@pytest.mark.parametrize("text, x", [
    ("x.score = 1", None),
    ("x.score = v", 3),
    ("x.mode = 'out'", "gem"),
])
def test_the_same_errors_as_set(game, text, x):
    S = game.new_state(seed=1)
    with pytest.raises(RuleRuntimeError) as fast:
        game.compile_expr(text, {"x": "any", "v": "any"}, effect=True).fn(S, {"x": x, "v": 1})
    with pytest.raises(RuleRuntimeError) as slow:
        runtime.set_(S, x, text.split(".")[1].split(" ")[0], 1)
    assert str(fast.value) == str(slow.value)


def test_the_value_is_worked_out_before_the_field_is_looked_at(game):
    """`x.score = f()`: f runs first, as it did through set_, whatever x is."""
    S = game.new_state(seed=1)
    c = game.compile_expr("x.score = count(deck) / 0", {"x": "any"}, effect=True)
    with pytest.raises(ZeroDivisionError):
        c.fn(S, {"x": None})
