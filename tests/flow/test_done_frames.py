"""`run` pops the frame of a sequence whose counter is past its last child without calling
its stepper, which would only pop it: play random games of every pack and mode with and
without that shortcut and compare the decisions, the stack and the state."""

from __future__ import annotations

import pytest

import engine
from tests.properties.variants import pack_modes
from tests.random_states import trace


@pytest.mark.parametrize(("pack", "mode"), pack_modes(), ids=lambda v: str(v) if v is not None else "base")
def test_a_done_frame_popped_by_run_is_what_its_stepper_would_do(pack, mode):
    shortcut = engine.load(pack, mode=mode)
    got = [trace(shortcut, seed) for seed in range(2)]
    assert any(n >= 0 for n in shortcut.program.done_at)
    stepped = engine.load(pack, mode=mode)
    stepped.program.done_at = (-1,) * len(stepped.nodes)  # no frame is known to be done
    assert got == [trace(stepped, seed) for seed in range(2)]
