"""A flow procedure that calls itself: its body runs in place only while the stack is
shallow, so deep recursion is the interpreter's, not Python's, and the depth limit is
still the one that stops a procedure that never ends."""

from __future__ import annotations

import pytest

import engine
from engine.errors import RuleRuntimeError

PACK = """\
pack: deep
title: Deep
players: {{min: 1, max: 2, default: 1}}
vars:
  n: 0
flow:
  - call: down
procedures:
  down:
    flow:
      - do: game.n += 1
      - if: "game.n < {levels}"
        then:
          - call: down
      - do: game.n += 1000
limits: {{depth: {depth}}}
"""


def _game(tmp_path, levels: int, depth: int):
    folder = tmp_path / f"deep-{levels}-{depth}"
    folder.mkdir()
    (folder / "pack.yaml").write_text(PACK.format(levels=levels, depth=depth))
    return engine.load(folder)


def test_deep_recursion_runs_to_the_end(tmp_path):
    # 600 levels of two frames each: far deeper than Python's own stack would allow
    S = _game(tmp_path, 600, 200).new_state(players=1, seed=1)
    assert S.over and S.winners == [] and S.stack == []
    assert S.vars["n"] == 600 + 600 * 1000  # every level finished its body after the call
    assert S.steps == 1200


def test_runaway_recursion_hits_the_depth_limit(tmp_path):
    with pytest.raises(RuleRuntimeError, match="nested deeper than 80 frames"):
        _game(tmp_path, 10_000, 10).new_state(players=1, seed=1)
