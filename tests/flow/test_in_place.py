"""A sequence nested in another (a branch, a procedure's body) runs in place, written into
the code of the sequence that pushes its frame: the frames must be those its own stepper
would have left. Play random games of every pack and mode both ways and compare the stack
and the state at every decision."""

from __future__ import annotations

import pytest

import engine
from engine.flow import steppers
from tests.properties.variants import pack_modes
from tests.random_states import trace


@pytest.mark.parametrize(("pack", "mode"), pack_modes(), ids=lambda v: str(v) if v is not None else "base")
def test_sequences_run_in_place_leave_the_frames_their_steppers_would(monkeypatch, pack, mode):
    in_place = engine.load(pack, mode=mode)
    got = [trace(in_place, seed) for seed in range(2)]
    monkeypatch.setattr(steppers, "INLINE_NESTING", 0)
    called = engine.load(pack, mode=mode)
    assert got == [trace(called, seed) for seed in range(2)]
