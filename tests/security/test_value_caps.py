"""Caps on the values rules make: texts and lists of at most MAX_LEN characters or items,
products within 64 bits, log lines within MAX_LEN characters. Past them a rule is surely
wrong, and Python would take gigabytes or minutes (`'a' * 3000000000`, `x = x * x` in a
loop, `log('{:2000000000}', x)`) before failing, if it failed at all: each is a rule error
at its place in the pack instead. The inputs here are just past the caps, so a missing
check shows as a missing error, not as a machine out of memory."""

from __future__ import annotations

import textwrap

import pytest

import engine
from engine.dsl.runtime import INT_BITS, MAX_LEN, add, mod, mul
from engine.errors import RuleRuntimeError

TOP = 2 ** (INT_BITS - 1) - 1  # the largest product allowed

PACK = """\
pack: grow
title: Grow
players: {{min: 1, max: 1, default: 1}}
vars:
  n: 3
  s: ''
flow:
  - do: |
{body}
"""


def _run(tmp_path, body: str):
    """Start a game whose first effect is `body`; the pack file and the line `body` starts on."""
    path = tmp_path / "grow.yaml"
    path.write_text(PACK.format(body=textwrap.indent(textwrap.dedent(body).strip(), "      ")))
    return lambda: engine.load(path).new_state(players=1, seed=1), path


def _fails_at(tmp_path, body: str, match: str, line_of: str) -> None:
    start, path = _run(tmp_path, body)
    with pytest.raises(RuleRuntimeError, match=match) as exc:
        start()
    span = exc.value.problem.span
    lines = path.read_text().splitlines()
    assert span.file == str(path) and line_of in lines[span.line - 1], (span, lines)


# ---------- the helpers generated code calls ----------

def test_products_stay_within_64_bits():
    assert mul(2**31, 2**31) == 2**62 and mul(-(2**62), 2) == -(2**63) and mul(TOP, 1) == TOP
    assert mul(True, 3) == 3 and mul(10**40, 0) == 0
    for a, b in ((2**62, 2), (TOP, -2), (2**63, 1), (10**40, 3)):
        with pytest.raises(RuleRuntimeError, match=f"integer overflow: the result exceeds {INT_BITS} bits"):
            mul(a, b)


def test_repeated_texts_and_lists_stay_within_max_len():
    assert mul("ab", MAX_LEN // 2) == "ab" * (MAX_LEN // 2) and mul(2, [0]) == [0, 0]
    assert mul("ab", -3) == "" and mul(True, "ab") == "ab"
    for a, b, what in (("a", MAX_LEN + 1, "text"), ([0], 3 * 10**9, "list"), (3 * 10**9, "ab", "text")):
        with pytest.raises(RuleRuntimeError, match=f"a {what} of .* is longer than the {MAX_LEN:,}"):
            mul(a, b)


def test_joined_texts_and_lists_stay_within_max_len():
    assert add(1, 2) == 3 and add("a", "b") == "ab" and add([1], [2]) == [1, 2]
    with pytest.raises(RuleRuntimeError, match="a text of 1,000,001 characters"):
        add("a" * MAX_LEN, "b")
    with pytest.raises(RuleRuntimeError, match="a list of 1,200,000 items"):
        add([0] * 600_000, [1] * 600_000)
    with pytest.raises(TypeError):  # reported as a value of the wrong kind, as before
        add("a", 1)


def test_a_remainder_does_not_format_a_text():
    assert mod(7, 3) == 1
    with pytest.raises(TypeError, match="for %"):
        mod("%1000000000d", 5)


# ---------- log lines ----------

@pytest.mark.parametrize("call", [
    f"log('{{:{MAX_LEN + 1}}}', game.n)",         # a field padded past the cap
    f"log('{{:{{}}}}', game.n, {MAX_LEN + 1})",   # its width given as an argument
    f"log('{'{0}' * 20}', range(10000))",          # many fields of a long argument
])
def test_a_log_line_longer_than_max_len_is_refused_at_its_line(tmp_path, call):
    _fails_at(tmp_path, call, f"log: a line of up to .* longer than the {MAX_LEN:,}", "log(")


def test_log_formats_within_the_caps_still_format(tmp_path):
    start, _ = _run(tmp_path, "log('{:>4}|{!r}', game.n, game.s)\nlog('{0.__class__}', game.n)")
    texts = [e["text"] for e in start().log if e.get("t") == "msg"]
    # a field naming an attribute of a text is not a log field: the line is written as it is
    assert texts == ["   3|''", "{0.__class__} 3"]


# ---------- in the effect language: the compiler routes `*`, `+`, `%` through the caps ----------


@pytest.mark.parametrize("body, match", [
    (f"game.s = 'a' * {MAX_LEN + 1}", "a text of 1,000,001 characters"),
    (f"x = [0] * {MAX_LEN + 1}", "a list of 1,000,001 items"),
])
def test_a_repeated_value_past_the_cap_is_a_rule_error(tmp_path, body, match):
    _fails_at(tmp_path, body, match, body)


@pytest.mark.parametrize("body, line, match", [
    ("x = 'ab'\nrepeat 20:\n  x = x + x", "x = x + x", "is longer than the 1,000,000"),  # 2**21 characters
    ("game.s = 'ab'\nrepeat 20:\n  game.s += game.s", "game.s += game.s", "is longer than the 1,000,000"),
    # a list joined is charged its items (docs/limits.md): the step budget stops it first
    ("x = [1]\nrepeat 20:\n  x += x", "x += x", "an effect took more than 200000 steps"),
])
def test_doubling_past_the_cap_is_a_rule_error(tmp_path, body, line, match):
    _fails_at(tmp_path, body, match, line)


@pytest.mark.parametrize("body, line", [
    ("x = 3\nrepeat 7:\n  x = x * x", "x = x * x"),          # 3**128: past 64 bits
    ("repeat 7:\n  game.n *= game.n", "game.n *= game.n"),
])
def test_squaring_past_64_bits_is_a_rule_error(tmp_path, body, line):
    _fails_at(tmp_path, body, "integer overflow", line)
