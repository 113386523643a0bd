"""`run` pops the frame of a sequence whose counter is past its last child without calling
its stepper, which would only pop it: play random games of every pack and mode with and
without that shortcut and compare the decisions, the stack and the state."""

from __future__ import annotations

import random

import pytest

import engine
from tests.properties.variants import pack_modes


def _play(g, seed: int) -> list:
    rnd = random.Random(seed)
    S = g.new_state(seed=seed)
    S.transactional = False
    seen = []
    n = 0
    while not S.over and n < 150:
        d = S.decision()
        seen.append((d.player, d.point, d.actions, repr(S.stack), S.steps))
        S.apply(rnd.choice(d.actions))
        n += 1
    seen.append(S.to_dict())
    return seen


@pytest.mark.parametrize(("pack", "mode"), pack_modes(), ids=lambda v: str(v) if v is not None else "base")
def test_a_done_frame_popped_by_run_is_what_its_stepper_would_do(pack, mode):
    shortcut = engine.load(pack, mode=mode)
    got = [_play(shortcut, seed) for seed in range(2)]
    assert any(shortcut.plans["done at"])
    stepped = engine.load(pack, mode=mode)
    stepped.plans["done at"] = [-1] * len(stepped.nodes)  # no frame is known to be done
    assert got == [_play(stepped, seed) for seed in range(2)]
