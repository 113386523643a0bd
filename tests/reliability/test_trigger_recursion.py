"""Triggers that set each other off, and Python running out of stack anywhere in a game:
a rule error in the pack's words (which trigger, where), never a RecursionError."""

from __future__ import annotations

import dataclasses

import pytest

import engine
from engine.check.play import RULES_RUN, error_violation
from engine.errors import RuleRuntimeError
from engine.flow import machine

PACK = """\
pack: echo
title: Echo
players: {{min: 1, max: 2, default: 1}}
vars:
  n: 0
  l: []
flow:
  - do: emit('ping')
  - repeat: {{until: "false"}}
    do:
      - ask: idle
        who: "players[0]"
actions:
  - id: nest
    at: idle
    do: |
      x = []
      repeat 3000:
        x = [x]
      game.l = x
triggers:
  - on: ping
    do: |
      game.n += 1
      if game.n < {pings}:
        emit('pong')
  - on: pong
    do: emit('ping')
{limits}"""


def _load(tmp_path, pings: int, limits: str = ""):
    path = tmp_path / f"echo-{pings}.yaml"
    path.write_text(PACK.format(pings=pings, limits=limits))
    return engine.load(path), path


def _line(path, text: str) -> int:
    return next(k for k, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_triggers_may_set_each_other_off_within_the_depth_limit(tmp_path):
    game, _ = _load(tmp_path, 15)  # ping, pong, ping, ...: 29 triggers deep, limit 40
    assert game.new_state(players=1, seed=1).vars["n"] == 15


def test_a_trigger_that_sets_itself_off_names_itself_and_its_line(tmp_path):
    game, path = _load(tmp_path, 10**6)
    with pytest.raises(RuleRuntimeError, match=r"more than 40 deep \(limits.depth\)") as exc:
        game.new_state(players=1, seed=1)
    span = exc.value.problem.span
    assert span.file == str(path) and span.line in (_line(path, "on: ping"), _line(path, "on: pong"))
    assert "trigger on 'p" in str(exc.value)


def test_a_depth_limit_past_pythons_stack_is_still_a_rule_error(tmp_path):
    """The schema bounds `limits.depth` at 200; a Game made in code is not bound by it."""
    game, path = _load(tmp_path, 10**6)
    game = dataclasses.replace(game, limits={**game.limits, "depth": 100_000})
    with pytest.raises(RuleRuntimeError, match="deeper than Python can follow") as exc:
        game.new_state(players=1, seed=1)
    assert exc.value.problem.span.file == str(path)


def test_a_value_nested_past_pythons_stack_is_a_rule_error(tmp_path):
    game, _ = _load(tmp_path, 1)
    S = game.new_state(players=1, seed=1)
    # stopped where the value is kept (engine.dsl.nesting), or else where the snapshot taken
    # before an action copies the state
    with pytest.raises(RuleRuntimeError, match="lists nested more than 100 deep|lists within lists nested deeper"):
        S.apply("nest")
        S.apply("nest")


def test_a_recursion_error_while_the_flow_runs_is_a_rule_error(tmp_path, monkeypatch):
    game, _ = _load(tmp_path, 1)

    def run(S):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(machine, "run", run)
    with pytest.raises(RuleRuntimeError, match="deeper than Python can follow"):
        game.new_state(players=1, seed=1)


def test_sim_and_check_report_a_runaway_trigger_as_the_rules_fault(horde, tmp_path):
    _, path = _load(tmp_path, 10**6)
    r = horde("sim", path, "-n", 2)
    assert r.exit_code == 1 and "more than 40 deep" in r.output and "internal error" not in r.output
    v = error_violation(RecursionError("maximum recursion depth exceeded"))
    assert v.law == RULES_RUN and "deeper than Python can follow" in v.detail
