"""The step budget counts the work inside a step, not only the steps (docs/limits.md, "The
work inside a step"). Each case is an effect that did little in steps and much in work: a
loop of `sum(sorted(l))` over a big list ran for hours inside 200,000 steps, and the text
of a list of one shared list a thousand times over grew memory by megabytes a second with
no budget firing. Each now ends at its line with a rule error, within the budget, in
bounded memory.

Every case runs in a process of its own, so that a case that would hang or eat the
machine is stopped (the timeout is the failure, with the address space capped as a
guard), and so that its peak resident memory is its own (`VmHWM` of /proc/self/status:
`ru_maxrss` would carry the peak of the process it was forked from). Nothing here
times the work: the budget in steps is what bounds it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import engine
from engine.dsl import builtins
from engine.dsl.runtime import MAX_LEN

TIMEOUT = 120  # seconds: a case ends in a few; uncounted, these ran for an hour or more
RSS_CEILING_MB = 400
EFFECT_STEPS = "an effect took more than 200000 steps"
TEXT_CAP = f"is longer than the {MAX_LEN:,} characters a text may hold"

PACK = """\
pack: work
title: Work
players: {{min: 1, max: 1, default: 1}}
vars:
  l: []
flow:
  - do: |
      game.l = [0] * 150000
  - do: |
{body}
"""

# The child: start the game whose second effect is the case; say what it raised, where,
# and its own peak memory. Its address space is capped so that a case the budgets miss
# fails here as an error of memory instead of swapping the machine.
DRIVER = """\
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import engine
from engine.errors import HordeError
out = {"error": None}
try:
    engine.load(sys.argv[1]).new_state(players=1, seed=1)
except HordeError as exc:
    span = exc.problem.span
    out = {"error": exc.problem.message, "line": span.line if span else None}
out["rss_mb"] = int(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:'))) / 1024
print(json.dumps(out))
"""

# The first effect makes `game.l`, a list of 150,000 items (150,000 steps, within its
# budget); the case is the second effect. `repeat n` charges its n turns up front, so a
# loop of the case turns at most 199,999 times.
CASES = {
    # the case: a loop of a sorted sum over a big list
    "sum-sorted": ("repeat 199000:\n  x = sum(sorted(game.l))", "x = sum(sorted(game.l))", EFFECT_STEPS),
    # ... over a list of 10**6 items: making it is charged its items
    "sum-sorted-1e6": ("l = [0] * 1000000\nrepeat 199990:\n  x = sum(sorted(l))", "l = [0] * 1000000",
                       EFFECT_STEPS),
    "min": ("repeat 199000:\n  x = min(game.l)", "x = min(game.l)", EFFECT_STEPS),
    "max": ("repeat 199000:\n  x = max(game.l)", "x = max(game.l)", EFFECT_STEPS),
    "in": ("repeat 199000:\n  x = 1 in game.l", "x = 1 in game.l", EFFECT_STEPS),
    # text of a list of one shared list: 10**9 items written out
    "str-shared": ("l = [[[0] * 1000] * 1000] * 1000\ns = str(l)", "s = str(l)", TEXT_CAP),
    "log-shared": ("l = [[[0] * 1000] * 1000] * 1000\nlog('{}', l)", "log('{}', l)", TEXT_CAP),
    "log-formatted-shared": ("l = [[[0] * 1000] * 1000] * 1000\nlog('{:>3}', l)", "log('{:>3}', l)",
                             TEXT_CAP),
    # lists made over and over: repeated, joined, counted out
    "repeat": ("repeat 199000:\n  y = [0] * 999999", "y = [0] * 999999", EFFECT_STEPS),
    "join": ("repeat 199000:\n  m = game.l + game.l", "m = game.l + game.l", EFFECT_STEPS),
    "range": ("repeat 199000:\n  r = range(10000)", "r = range(10000)", EFFECT_STEPS),
    # a long log line is kept for the game: a megabyte a step was 200 GB an effect
    "log-long": ("s = 'a' * 999999\nrepeat 180000:\n  log('x{}', s)", "log('x{}', s)", EFFECT_STEPS),
    "text-repeat": ("repeat 199000:\n  t = 'a' * 999999", "t = 'a' * 999999", EFFECT_STEPS),
}


def _run(tmp_path, body: str) -> tuple[dict, list[str]]:
    pack = tmp_path / "work.yaml"
    pack.write_text(PACK.format(body=textwrap.indent(body, "      ")))
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    try:
        done = subprocess.run([sys.executable, str(driver), str(pack)], capture_output=True,
                              text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {TIMEOUT} s: the budget did not count this work")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1]), pack.read_text().splitlines()


@pytest.mark.parametrize("case", sorted(CASES))
def test_work_past_the_budget_is_a_rule_error_at_its_line(tmp_path, case):
    body, line, message = CASES[case]
    got, lines = _run(tmp_path, body)
    assert got["error"] is not None and message in got["error"], got
    assert got["line"] is not None and line in lines[got["line"] - 1], (got, lines)
    assert got["rss_mb"] < RSS_CEILING_MB, got


def test_work_within_the_budget_is_done(tmp_path):
    """The same words on lists and texts the budget holds still give their answers."""
    body = textwrap.dedent("""\
        l = [3, 1, 2] * 1000
        if sum(sorted(l)) != 6000 or min(l) != 1 or max(l) != 3 or not (2 in l):
          log('wrong')
        s = str([[1, 2]] * 3)
        if s != '[[1, 2], [1, 2], [1, 2]]':
          log('wrong text {}', s)
        log('{}', [[0] * 3] * 2)
        m = l + l
        r = range(10000)
        if count(m) != 6000 or count(r) != 10000:
          log('wrong count')
        log('done')""")
    pack = tmp_path / "work.yaml"
    pack.write_text(PACK.format(body=textwrap.indent(body, "      ")))

    S = engine.load(pack).new_state(players=1, seed=1)
    assert [e["text"] for e in S.log if e["t"] == "msg"] == ["[[0, 0, 0], [0, 0, 0]]", "done"]


def test_every_builtin_given_a_list_or_a_zone_says_what_it_charges():
    """A builtin that looks through a list or a zone it is given declares its charge (else
    its work would go uncounted). Those that only look at a zone's end, or move one entity
    in or out of it, are listed here with why."""
    import engine.board.grid_builtins  # noqa: F401 - registers the board words
    import engine.board.tilebuiltins  # noqa: F401

    one_entity = {
        "top": "the top entity alone",
        "draw": "the top entity, and a refill once the zone is empty",
        "move": "one entity into a zone",
        "copy": "one entity, made into a zone",
        "lift": "one piece, off the board into a zone",
    }
    given = {name for name, b in builtins.BUILTINS.items()
             if any(a.rstrip("?") in ("list", "zone") for a in b.args)}
    assert {name for name in given if builtins.BUILTINS[name].charges is None} == one_entity.keys()
    assert all(b.charges in (None, *builtins.CHARGES) for b in builtins.BUILTINS.values())
    for name in ("min", "max", "str", "log", "range", "roll", "logged"):  # "any" arguments, or none
        assert builtins.BUILTINS[name].charges is not None, name


def test_limits_md_names_every_charged_builtin():
    """docs/limits.md's table of charges names every builtin that charges for its work."""
    import engine.board.grid_builtins  # noqa: F401 - registers the board words
    import engine.board.tilebuiltins  # noqa: F401

    text = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text()
    section = text.split("## The work inside a step", 1)[1].split("\n## ", 1)[0]
    charged = {name for name, b in builtins.BUILTINS.items() if b.charges}
    assert {name for name in charged if f"`{name}" not in section} == set()
