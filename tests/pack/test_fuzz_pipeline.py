"""Damaged real packs through the whole pipeline: load, validate, compile, and a short game.

Whatever the damage, the outcome is a working game, a PackError (at load) or a HordeError
(while playing) — never another exception, which would reach a user as a traceback.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.errors import HordeError, PackError
from engine.resources import data_dir
from tests.pack.test_fuzz import damaged

RTB = (data_dir("rulesets") / "roll-them-bones" / "pack.yaml").read_text()
CODE_NOISE = list("()[]:.,'=+-*/%<> \n") + ["and", "or", "not", "if", "for", "in", "me", "turn.",
                                             "none", "1", "0", "p.", "roll(black)", "    "]


def _try(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "fuzzed"
        folder.mkdir()
        (folder / "pack.yaml").write_text(text)
        try:
            game = engine.load(folder)
        except PackError:
            return
        rnd = random.Random(0)
        try:
            S = game.new_state(players=max(game.players_min, 2) if game.players_max >= 2 else 1,
                               seed=1)
            for _ in range(200):
                if S.is_terminal():
                    break
                S.apply(rnd.choice(S.decision().actions))
        except HordeError:
            pass


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(damaged(RTB))
def test_damaged_yaml_never_escapes(text):
    _try(text)


@st.composite
def damaged_code(draw):
    """The real pack with edits inside its effect-language text only (after `do: |`)."""
    lines = RTB.splitlines(keepends=True)
    code_lines = [i for i, ln in enumerate(lines) if ln.startswith("          ") and ln.strip()]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(code_lines))
        ln = lines[i]
        j = draw(st.integers(10, max(len(ln) - 1, 10)))
        noise = draw(st.sampled_from(CODE_NOISE))
        op = draw(st.sampled_from(["put", "insert", "delete"]))
        if op == "put":
            ln = ln[:j] + noise + ln[j + 1:]
        elif op == "insert":
            ln = ln[:j] + noise + ln[j:]
        else:
            ln = ln[:j] + ln[j + len(noise):]
        lines[i] = ln if ln.endswith("\n") else ln + "\n"
    return "".join(lines)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(damaged_code())
def test_damaged_rules_never_escape(text):
    _try(text)
