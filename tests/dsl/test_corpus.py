"""The expression corpus: each chunk of tests/dsl/corpus/*.txt is one test (Starlark style)."""

from __future__ import annotations

import ast as pyast
import functools
from pathlib import Path

import pytest

import engine
from engine.errors import HordeError
from engine.flow.machine import evaluate

HERE = Path(__file__).parent
MINI = HERE.parent / "engine" / "fixtures" / "mini"


def _chunks():
    for path in sorted((HERE / "corpus").glob("*.txt")):
        for k, chunk in enumerate(path.read_text().split("\n---\n")):
            lines = [ln for ln in chunk.strip().splitlines() if not ln.startswith("# ")]
            src = "\n".join(ln for ln in lines if not ln.startswith("###"))
            want = [ln[3:].strip() for ln in lines if ln.startswith("###")]
            if src.strip():
                yield pytest.param(src.strip(), want[0], id=f"{path.stem}-{k}")


@functools.cache
def _state():
    g = engine.load(MINI)
    return g, g.new_state(players=2, seed=1)


@pytest.mark.parametrize("src,want", list(_chunks()))
def test_expression(src, want):
    g, S = _state()
    if want.startswith("error:"):
        with pytest.raises(HordeError) as exc:
            g.compile_expr(src)
        assert want[len("error:"):].strip() in str(exc.value)
    else:
        c = g.compile_expr(src)
        assert evaluate(S.clone(), c, {}) == pyast.literal_eval(want)
