"""A sequence passes over a window without calling its check when the zones its actions
first need a card in are empty for every seat it asks (`plans.Window.skip`); and the check
passes over a seat whose cards no action there plays. Check, at every decision of random
games of every pack, for every point and every kind of window, that a window passed over
is one whose check answers that nobody may act, and that the check passes over no seat
that may act."""

from __future__ import annotations

import random

import pytest

import engine
from engine.flow.labels import legal_bindings
from engine.flow.plans import first_may_act
from engine.flow.steppers import ORDERS, _Hands
from tests.properties.variants import pack_modes
from tests.random_states import random_decisions


@pytest.mark.parametrize(("pack", "mode"), pack_modes(), ids=lambda v: str(v) if v is not None else "base")
def test_a_window_passed_over_is_one_nobody_may_act_in(pack, mode):
    g = engine.load(pack, mode=mode)
    rnd = random.Random(5)
    hands = {}
    skipped = asked = 0
    for seed in range(4):
        for S in random_decisions(g, seed, limit=80, rng=rnd):
            for point in g.actions_at:
                skip = g.program.window(point).skip
                for who, orders in ORDERS.items():
                    order = orders[len(S.pl)][S.cur]
                    before = (S.steps, S.fx_steps)
                    first = first_may_act(S, point, order)
                    for seat in order[:first]:
                        assert not legal_bindings(S, point, seat, {}), (point, who, seat)
                    assert (S.steps, S.fx_steps) == before
                    asked += 1
                    if skip is None:
                        continue
                    room, zones = skip
                    held = hands.setdefault((point, who), _Hands(who, zones))[len(S.pl)][S.cur]
                    if (held is None or not any(held(S.zones))) and eval(room, {"S": S}):  # noqa: S307
                        assert first == len(order), (point, who)
                        skipped += 1
    assert asked
    if pack == "roll-them-bones":
        assert skipped
