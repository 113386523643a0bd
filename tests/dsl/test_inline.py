"""Plan tests (engine.dsl.inline): a condition compiled again, from its own tree, with leaf
procedures written in, `me`'s lookups hoisted, and what a window needs to know of it."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.dsl import builtins as core
from engine.dsl import pysource
from engine.dsl.inline import plan_test
from engine.dsl.values import Z

FIXTURE = Path(__file__).parents[1] / "bench" / "fixtures" / "fastpaths" / "pack.yaml"


@pytest.fixture(scope="module")
def game():
    return engine.load(FIXTURE)


def _test(game, text: str, scope: dict | None = None):
    return plan_test(game, game.compile_expr(text, scope or {"me": "player"}))


def _run(made, S, me):
    """The test as a plan runs it: its hoisted lookups first, then the expression."""
    lines = ["def _t(S, v_me):", *(f"    {k} = {v}" for k, v in made.hoisted.items()), f"    return {made.test}"]
    ns = {**made.names, "_zone_ids": core.zone_ids, "_NO_IDS": frozenset()}
    return pysource.run("\n".join(lines) + "\n", "<test>", ns)["_t"](S, me)


def _state(game, gems_of_p1: int):
    def prepare(S):
        for _ in range(gems_of_p1):
            S.move_ent(S.zones["deck"][-1], Z("hand", 1))
    return game.new_state(seed=1, prepare=prepare)


def test_a_leaf_procedure_is_written_in_and_its_type_tests_settled(game):
    made = _test(game, "holds(me, 'gem') and me.score == 0")
    assert made.calls == 1
    assert "_pc_" not in made.test and "_type(" not in made.test  # me is a player: no test of it
    assert made.test == "((('gem' in _my_ids_hand) and (_my_rec['mode'] != 'out')) and (_my_rec['score'] == 0))"
    # the zone is looked up before the ids in it
    assert list(made.hoisted) == ["_my_zone_hand", "_my_ids_hand", "_my_rec"]
    assert made.held == (("hand", "gem"),)  # an empty hand: false at its first look
    c = game.compile_expr("holds(me, 'gem') and me.score == 0", {"me": "player"})
    for gems in (0, 1):
        S = _state(game, gems)
        for p in S.players:
            assert _run(made, S, p) == c.fn(S, {"me": p})


def test_what_cannot_fail(game):
    assert _test(game, "me.mode == 'x' or not me.mode").plain
    assert not _test(game, "me.score > 0").plain  # an order of values of any type may fail
    assert not _test(game, "ratio(me)").plain  # a division, written in
    assert _test(game, "ratio(me)").calls == 1


def test_the_zones_whose_cards_a_test_lists(game):
    assert _test(game, "cards(me.hand)").held == (("hand", None),)
    assert _test(game, "cards(me.hand) + cards(me.hand)").held == (("hand", None), ("hand", None))
    assert _test(game, "count(deck) > 0").held is None
    assert _test(game, "me.score == 0 and holds(me, 'gem')").held is None  # not first


def test_calls_that_stay_calls(game):
    # an argument that is not a name or a constant would be worked out twice
    assert _test(game, "holds(top(deck), 'gem')").calls == 0
    # a procedure that calls one
    assert _test(game, "deep(0)").calls == 0
    # a procedure whose expression does not compile with these arguments: called instead
    made = _test(game, "score_of(1) == 0")
    assert made.calls == 0 and "_pc_score_of(S, 1)" in made.test
    # a variable bound in the condition is an argument like any other
    made = _test(game, "[q for q in players if holds(q, 'gem')]")
    assert made.calls == 1 and "_pc_" not in made.test


def test_only_expressions_of_me_alone(game):
    assert _test(game, "holds(target, 'gem')", {"me": "player", "target": "any"}) is None
    assert plan_test(game, game.compile_expr("me.score += 1", {"me": "player"}, effect=True)) is None
