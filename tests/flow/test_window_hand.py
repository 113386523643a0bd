"""A window check that stops at a seat hands the plan's answer for it to `legal_bindings`
(the second half of its answer, see `plans.Window`), which then does not run the plan
again, with the values of the first domain it found to bind something: check, at every
decision of random games of every pack, for every point and every order of seats, that the
answer handed over is the plan's (each call's own, however many calls came after it), the
values and their steps the domain's, and that the legal actions made from them are those
made without them."""

from __future__ import annotations

import random

import pytest

import engine
from engine.errors import RuleRuntimeError
from engine.flow.labels import legal_bindings
from tests.properties.variants import pack_modes
from tests.random_states import random_decisions


def _outcome(S, point, seat, found):
    try:
        return list(legal_bindings(S, point, seat, {}, found).items())
    except RuleRuntimeError as exc:
        return str(exc)


@pytest.mark.parametrize(("pack", "mode"), pack_modes(), ids=lambda v: str(v) if v is not None else "base")
def test_the_answer_a_window_hands_over_is_the_plans(pack, mode):
    g = engine.load(pack, mode=mode)
    rnd = random.Random(11)
    handed_over = 0
    for seed in range(4):
        for S in random_decisions(g, seed, limit=80, rng=rnd):
            # every answer first, then each is checked: an answer is its call's own, not
            # overwritten by the next call's
            answers = [(point, seats, *g.program.window(point).check(S, seats))
                       for point in g.actions_at
                       for seats in ([(start + k) % len(S.pl) for k in range(len(S.pl))]
                                     for start in range(len(S.pl)))]
            for point, seats, first, hand in answers:
                if first == len(seats) or hand is None:
                    continue
                seat = seats[first]
                me = S.players[seat]
                found, j, values, steps, fx_steps = hand
                before = (S.steps, S.fx_steps)
                acts, check, _ = g.program.plan(point, seat == S.cur)
                assert found == check(S, me), (point, seat)
                if j is not None:  # the domain's values, and the steps evaluating it charges
                    S.steps, S.fx_steps = before
                    assert values == acts[j].params[0][1].fn(S, {"me": me}), (point, seat)
                    assert (S.steps - before[0], S.fx_steps - before[1]) == (steps, fx_steps)
                S.steps, S.fx_steps = before
                assert _outcome(S, point, seat, hand) == _outcome(S, point, seat, None), (point, seat)
                handed_over += 1
    assert handed_over
