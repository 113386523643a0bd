"""A house rule full of mistakes gets a bounded report, whatever its size.

A 34 KB house rule removing 5,000 ids that do not exist, all on one line, once printed every
problem with the whole line under it: 252 MB of errors. Now an excerpt is cut to its width
around the caret, a message to its length, and the first MAX_SHOWN problems are listed,
then how many more (`--all-errors` lists them all). Work is checked by counting, not timing:
the output of twice the mistakes is about twice as long, and a hint looks at a bounded
number of names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import errors
from engine.errors import EXCERPT_WIDTH, MAX_SHOWN, Span, did_you_mean, remember_source

LIMIT = 100_000  # bytes of error output, for any input
PROBLEM = re.compile(r"^\S+:\d+:\d+: remove: actions has no item with id", re.M)


def flood(tmp_path: Path, n: int, name: str = "flood.yaml") -> Path:
    """A house rule removing `n` unknown ids, all on one line."""
    path = tmp_path / name
    ids = ", ".join(f"x{i}" for i in range(n))
    path.write_text(f"extends: roll-them-bones\nremove: {{actions: [{ids}]}}\n")
    return path


def test_validate_lists_the_first_problems_and_counts_the_rest(horde, tmp_path):
    r = horde("validate", flood(tmp_path, 5000))
    assert r.exit_code == 1
    assert len(r.output.encode()) < LIMIT
    assert len(PROBLEM.findall(r.output)) == MAX_SHOWN
    assert f"… and {5000 - MAX_SHOWN} more problems (use --all-errors to see them all)" \
        in r.output


@pytest.mark.parametrize("command", [["play"], ["doc"], ["sim", "--games", "1"]])
def test_a_command_that_loads_the_pack_is_bounded_too(horde, tmp_path, command):
    r = horde(*command, "roll-them-bones", "--house", flood(tmp_path, 5000))
    assert r.exit_code == 1
    assert len(r.output.encode()) < LIMIT
    assert len(PROBLEM.findall(r.output)) == MAX_SHOWN
    assert "more problems (use --all-errors" in r.output and "5000 problems found" in r.output


def test_all_errors_lists_every_problem(horde, tmp_path):
    path = flood(tmp_path, 2000)
    r = horde("validate", "--all-errors", path)
    assert len(PROBLEM.findall(r.output)) == 2000 and "more problems" not in r.output
    r = horde("play", "roll-them-bones", "--house", path, "--all-errors")
    assert len(PROBLEM.findall(r.output)) == 2000 and "more problems" not in r.output
    report = horde("validate", "--json", path).stdout  # --json: the first ones, and a count
    assert report.count('"message"') == MAX_SHOWN and f'"more_problems": {2000 - MAX_SHOWN}' \
        in report


def test_twice_the_mistakes_print_about_twice_as_much(horde, tmp_path):
    """Each problem's share of the output is bounded: it does not grow with the line."""
    small = horde("validate", "--all-errors", flood(tmp_path, 1000, "a.yaml")).output
    large = horde("validate", "--all-errors", flood(tmp_path, 2000, "b.yaml")).output
    assert len(large) < 2.2 * len(small)  # was 4.3 times: every excerpt quoted the whole line
    assert max(len(line) for line in large.splitlines()) < EXCERPT_WIDTH + 200


def test_an_excerpt_is_cut_around_its_caret(horde, tmp_path):
    path = flood(tmp_path, 5000)
    r = horde("validate", "--all-errors", path)
    block = r.output[r.output.index("id 'x2500'"):].splitlines()
    line, caret = block[1], block[2]
    assert line.startswith("    …") and line.endswith("…")
    assert len(line) <= 4 + EXCERPT_WIDTH + 2
    at = caret.index("^")
    assert line[at:at + 6] == "x2500,"  # the caret stands under the id it is about


@pytest.mark.parametrize("col", [1, 40, 5000, 9999, 10000])
def test_the_caret_stays_under_its_column(col):
    text = "".join(chr(ord("a") + i % 26) for i in range(10_000))
    remember_source("<long>", text)
    line, caret = errors.source_excerpt(Span("<long>", 1, col)).splitlines()
    assert len(line) <= 4 + EXCERPT_WIDTH + 2
    assert line[caret.index("^")] == text[col - 1]


def test_a_huge_id_is_quoted_in_part(horde, tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("extends: roll-them-bones\nremove: {actions: [" + "z" * 500_000 + "]}\n")
    r = horde("validate", path)
    assert r.exit_code == 1 and len(r.output.encode()) < 5_000


def test_a_hint_compares_a_bounded_number_of_names():
    taken = []

    def names():
        for i in range(1_000_000):
            taken.append(i)
            yield f"name{i}"

    assert did_you_mean("name7", names()) == "did you mean 'name7'?"
    assert len(taken) <= errors.HINT_CANDIDATES + 1
    assert did_you_mean("q" * 100_000, ["q" * 100_000]) is None  # too long to compare
