"""One step charge: `State.charge` in Python, `pysource.charge_lines` written into generated
code. Both must count the same steps and stop at the same budget with the same error."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import engine
from engine.dsl import pysource
from engine.errors import RuleRuntimeError

ROOT = Path(engine.__file__).parent
MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"
# what still writes the budget test out: the legality plans ask whether work would fit the
# budgets, and on no redo it the careful way (see the module); the list may only shrink
LEFT = {"flow/labels.py", "flow/plans.py"}  # (plans.py was part of labels.py)


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


def _outcome(S, run) -> tuple:
    try:
        run()
        error = None
    except RuleRuntimeError as exc:
        error = str(exc)
    return S.fx_steps, S.steps, error


@pytest.mark.parametrize("fresh", [False, True])
@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize(("fx_steps", "steps", "fx_cap", "step_cap"), [
    (0, 0, 10, 100), (8, 50, 10, 100), (0, 98, 10, 100), (5, 5, 2, 100), (0, 0, 0, 100)])
def test_the_written_out_charge_is_state_charge(game, fresh, n, fx_steps, steps, fx_cap, step_cap):
    outcomes = []
    for written in (False, True):
        S = game.new_state(players=2, seed=1)
        S.game = dataclasses.replace(game, limits={**game.limits, "effect_steps": fx_cap, "steps": step_cap})
        S.fx_cap, S.step_cap, S.fx_steps, S.steps = fx_cap, step_cap, fx_steps, steps
        if written:
            lines = pysource.charge_lines(n, "    ", fresh, fx_cap if fresh else None)
            ns = pysource.run("\n".join(["def charge(S):", *lines]) + "\n", "<test>", {})
            outcomes.append(_outcome(S, lambda S=S, ns=ns: ns["charge"](S)))
        else:
            if fresh:
                S.fx_steps = 0
            outcomes.append(_outcome(S, lambda S=S: S.charge(n)))
    assert outcomes[0] == outcomes[1]


def test_the_fresh_charge_tests_the_effect_budget_unless_it_is_known():
    assert "S.fx_cap < 2" in "".join(pysource.charge_lines(2, fresh=True))
    assert "fx_cap" not in "".join(pysource.charge_lines(2, fresh=True, effect_steps=2))
    assert "S.fx_cap < 2" in "".join(pysource.charge_lines(2, fresh=True, effect_steps=1))


def test_the_budget_test_is_written_out_nowhere_else():
    found = {path.relative_to(ROOT).as_posix() for path in ROOT.rglob("*.py")
             if "step_cap" in path.read_text(encoding="utf-8")}
    assert found - {"state.py", "dsl/pysource.py"} == LEFT, \
        "charge steps with S.charge(n), or in generated code with pysource.charge_lines"
