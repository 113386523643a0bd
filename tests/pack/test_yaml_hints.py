"""YAML layout slips get a hint at their own file:line:col, not only PyYAML's text."""

from __future__ import annotations

import pytest

from engine.errors import PackError
from engine.pack.yamlspan import compose_text

TAB_HINT = "YAML indents with spaces only: replace the tab with spaces"


def _problem(text: str):
    with pytest.raises(PackError) as info:
        compose_text(text, "t.yaml")
    (p,) = info.value.problems
    return p.span.line, p.span.col, p.hint


def test_a_tab_in_the_indentation_is_pointed_at():
    assert _problem("pack: x\nflow:\n\t- do: x\n") == (3, 1, TAB_HINT)
    assert _problem("a:\n  b: |\n    x = 1\n  \ty = 2\n") == (4, 3, TAB_HINT)


@pytest.mark.parametrize(("text", "line", "width", "above"), [
    ("pack: x\nparams:\n  a: 1\n   b: 2\n", 4, "3 spaces", 2),
    ("pack: x\nparams:\n  a: 1\n b: 2\n", 4, "1 space", 2),
    ("pack: x\nactions:\n  - id: a\n    at: b\n   do: c\n", 5, "3 spaces", 4),
])
def test_a_line_indented_unlike_its_block_says_so(text, line, width, above):
    got_line, _, hint = _problem(text)
    assert got_line == line
    assert hint == (f"line {line} is indented {width}, which lines up with no line above it "
                    f"(the one above: {above}): the keys of one mapping, and the items of one "
                    "list, line up")


def test_other_syntax_errors_get_no_layout_hint():
    assert _problem("a: [1, 2\n")[2] is None
    assert _problem("a: 1\na: {b: }}\n")[2] is None
