"""The engine's fast paths answer exactly as the careful ones, errors included.

Procedures are called as plain Python functions, small `value:` procedures are inlined
into one generated function per decision point ("plans"), fields of untyped values are
read as player fields first: all of that is for speed only. These tests pin down that it
changes nothing a player or a pack author can see.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.dsl.values import Z
from engine.errors import RuleRuntimeError
from engine.flow.labels import _collect, legal_bindings
from engine.flow.plans import first_may_act
from tests.properties.variants import pack_modes

FIXTURE = Path(__file__).parent / "fixtures" / "fastpaths" / "pack.yaml"


@pytest.fixture(scope="module")
def game():
    return engine.load(FIXTURE)


def _line_of(text: str) -> int:
    for n, line in enumerate(FIXTURE.read_text().splitlines(), 1):
        if text in line:
            return n
    raise AssertionError(text)


def _with_mode(mode: str):
    def prepare(S):
        S.pl[0]["mode"] = mode
    return prepare


def test_an_error_inside_an_inlined_procedure_points_into_the_procedure(game):
    with pytest.raises(RuleRuntimeError) as exc:
        game.new_state(seed=1, prepare=_with_mode("divide"))
    text = str(exc.value)
    assert "division by zero" in text
    assert f"pack.yaml:{_line_of('10 / p.score')}:" in text


def test_the_same_error_through_the_general_procedure_call(game):
    S = game.new_state(seed=1)
    with pytest.raises(RuleRuntimeError) as exc:
        game.call_effect_proc(S, "ratio", {"p": S.players[0]})
    assert f"pack.yaml:{_line_of('10 / p.score')}:" in str(exc.value)


def test_recursion_in_a_condition_meets_the_depth_limit(game):
    with pytest.raises(RuleRuntimeError) as exc:
        game.new_state(seed=1, prepare=_with_mode("dive"))
    assert "nested deeper than 40 (calling 'deep')" in str(exc.value)
    assert f"pack.yaml:{_line_of('deep(n + 1)')}:" in str(exc.value)


def test_untyped_values_and_argument_orders(game):
    S = game.new_state(seed=1)
    while S.decision().point != "main":
        S.apply("pass")
    S.apply("grow")
    gem = S.zones["deck"][-1]
    assert S.pl[0]["score"] == 3  # bump(me, 1) and bump(n=2, x=me): a player's field
    assert S.ents[gem]["score"] == 8  # bump(top(deck), 3): an entity's field
    assert S.vars["total"] == 11  # score_of() read both kinds through one parameter


def test_a_plan_with_parameters_and_inlined_procedures(game):
    # P1 holds a gem and P0 does not: at P0's window P1 may show it to P0
    S = game.new_state(seed=1, prepare=lambda S: S.move_ent(S.zones["deck"][-1], Z("hand", 1)))
    d = S.decision()
    assert (d.player, d.actions) == (1, ["pass", "show(target=0)"])


def _careful(S, point, seat):
    out: dict = {}
    _collect(S, point, S.game.actions_at.get(point, ()), seat, {}, out, True)
    return out


def _outcome(ask, *args):
    try:
        return sorted(ask(*args))
    except RuleRuntimeError as exc:
        return str(exc)


@pytest.mark.parametrize(("pack", "mode"), pack_modes(),
                         ids=lambda v: str(v) if v is not None else "base")
def test_plans_agree_with_the_careful_way_in_random_games(pack, mode):
    """At every decision of a few random games, for every seat at the point being decided:
    the quick answer (plans, window checks) equals the careful one (evaluate), errors included."""
    g = engine.load(pack, mode=mode)
    rnd = random.Random(7)
    checked = 0
    for seed in range(3):
        S = g.new_state(seed=seed)
        S.transactional = False
        n = 0
        while not S.over and n < 60:
            d = S.decision()
            for seat in range(len(S.pl)):
                before = (S.steps, S.fx_steps)
                careful = _outcome(_careful, S, d.point, seat)
                S.steps, S.fx_steps = before
                quick = _outcome(legal_bindings, S, d.point, seat, {})
                assert (S.steps, S.fx_steps) == before, "asking changed the state"
                assert quick == careful, (d.point, seat)
                if careful and not isinstance(careful, str):
                    assert first_may_act(S, d.point, [seat]) == 0, (d.point, seat)
                checked += 1
            for point in g.actions_at:  # a window passes over no seat that may act, at any point
                for start in range(len(S.pl)):
                    seats = [(start + k) % len(S.pl) for k in range(len(S.pl))]
                    before = (S.steps, S.fx_steps)
                    first = first_may_act(S, point, seats)
                    assert (S.steps, S.fx_steps) == before, "asking changed the state"
                    for seat in seats[:first]:
                        assert not _outcome(_careful, S, point, seat), (point, seats, seat)
                        S.steps, S.fx_steps = before
            S.apply(rnd.choice(d.actions))
            n += 1
    assert checked
