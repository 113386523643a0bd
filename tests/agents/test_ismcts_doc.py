"""The IS-MCTS run of docs/agents.md works as written: OpenSpiel's ISMCTSBot on a pack,
with horde's determinization as its resampler (skipped without the `[agents]` extra)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

DOC = Path(__file__).parent.parent.parent / "docs" / "agents.md"


def test_the_ismcts_snippet_runs():
    pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    code = re.search(r"<!-- run: ismcts -->\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert code is not None, "docs/agents.md lost its IS-MCTS snippet"
    scope: dict = {}
    exec(compile(code.group(1), str(DOC), "exec"), scope)  # noqa: S102 - our own docs
    assert scope["state"].is_terminal()


def test_a_resampled_world_keeps_the_seats_information_state():
    pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    from engine.adapters.openspiel import load_game, resampler

    g = load_game("theyre-coming", players=2, turns=2)
    s = g.new_initial_state()
    rng = random.Random(2)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    p = s.current_player()
    w = resampler(seed=1)(s, p)
    assert w is not s and w.S is not s.S
    assert w.information_state_string(p) == s.information_state_string(p)
    assert w.legal_actions() == s.legal_actions()
    assert w.S.rng != s.S.rng  # new dice
