"""Lists inside lists are bounded where they are walked (docs/limits.md, "The work inside a
step"). A list of one list many times over is small in memory and huge written out:
`[[[0] * 1000] * 1000] * 1000` is three thousand items made in three thousand steps, and a
billion items to compare, to copy for a search bot, or to save. Comparing such values
walked the billion with no charge; one kept in a game variable blew up every clone and every
save. Each case now ends at its line with a rule error, within the budget, in bounded memory.

As in test_work_budgets, every case runs in a process of its own, its address space capped,
with a timeout as the failure and its own peak resident memory measured; nothing is timed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import engine
from engine.copying import copy_value
from engine.dsl.nesting import MAX_DEPTH, MAX_ITEMS

TIMEOUT = 120  # seconds: a case ends in a few; unbounded, each ran for many minutes or ate memory
RSS_CEILING_MB = 400
WRITTEN_OUT = f"a list of more than {MAX_ITEMS:,} items written out"

PACK = """\
pack: nested
title: Nested
players: {{min: 2, max: 2, default: 2}}
vars:
  l: []
  n: 0
flow:
  - do: |
{body}
  - repeat: {{until: "game.n >= 3"}}
    do:
      - for_each: {{var: p, in: players, turn: true}}
        do:
          - ask: main
actions:
  - id: go
    at: main
    params: {{k: "[1, 2]"}}
    do: game.n += k
"""

BOMB = "a = [[[0] * 1000] * 1000] * 1000"  # a billion items written out
TWIN = "b = [[[0] * 1000] * 1000] * 1000"  # the same, made apart: nothing shared with `a`

# The child of an effect case: start the game, whose first effect is the case; say what it
# raised, where, and its own peak memory.
DRIVER = """\
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import engine
from engine.errors import HordeError
out = {"error": None}
try:
    engine.load(sys.argv[1]).new_state(players=2, seed=1)
except HordeError as exc:
    span = exc.problem.span
    out = {"error": exc.problem.message, "line": span.line if span else None}
out["rss_mb"] = int(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:'))) / 1024
print(json.dumps(out))
"""

# effect cases: (the effect, its line that must fail, what the error says)
CASES = {
    # comparisons walk both values item by item: a billion each time
    "equal": (f"{BOMB}\n{TWIN}\nrepeat 1000:\n  x = a == b", "x = a == b", WRITTEN_OUT),
    "not-equal": (f"{BOMB}\n{TWIN}\nrepeat 1000:\n  x = a != b", "x = a != b", WRITTEN_OUT),
    "less": (f"{BOMB}\n{TWIN}\nrepeat 1000:\n  x = a < b", "x = a < b", WRITTEN_OUT),
    "in": (f"{BOMB}\n{TWIN}\nrepeat 1000:\n  x = a in [b]", "x = a in [b]", WRITTEN_OUT),
    "sorted": (f"{BOMB}\n{TWIN}\nrepeat 1000:\n  x = sorted([b, a])", "x = sorted([b, a])", WRITTEN_OUT),
    "max-of-two": (f"{BOMB}\n{TWIN}\nrepeat 1000:\n  x = max(a, b)", "x = max(a, b)", WRITTEN_OUT),
    # a comprehension's items all one list: the same billion, compared
    "comprehension": ("m = [0] * 1000\nr = [m for i in range(1000)]\nc = [r for i in range(1000)]\n"
                      "d = [r for i in range(1000)]\nrepeat 1000:\n  x = c == d", "x = c == d", WRITTEN_OUT),
    # kept in the game, such values are copied by every clone and written out by every save:
    # refused where they are stored
    "store": (f"{BOMB}\ngame.l = a", "game.l = a", WRITTEN_OUT),
    "store-comprehension": ("m = [0] * 1000\nr = [m for i in range(1000)]\n"
                            "game.l = [r for i in range(1000)]", "game.l = [r for i in range(1000)]",
                            WRITTEN_OUT),
    "store-item": ("big = [[0] * 1000] * 900\ngame.l = [0] * 1000\nfor i in range(1000):\n  game.l[i] = big",
                   "game.l[i] = big", WRITTEN_OUT),
    "store-itself": ("game.l = [0]\ngame.l[0] = game.l", "game.l[0] = game.l", "a list holds itself"),
    "store-deep": ("l = []\nrepeat 100000:\n  l = [l]\ngame.l = l", "game.l = l",
                   f"lists nested more than {MAX_DEPTH} deep"),
}


def _write(tmp_path, body: str):
    pack = tmp_path / "nested.yaml"
    pack.write_text(PACK.format(body=textwrap.indent(body, "      ")))
    return pack


def _child(args: list[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {TIMEOUT} s: the walk of a nested list went unbounded")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_nested_list_walked_past_its_bound_is_a_rule_error_at_its_line(tmp_path, case):
    body, line, message = CASES[case]
    pack = _write(tmp_path, body)
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    done = _child([str(driver), str(pack)])
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.splitlines()[-1])
    lines = pack.read_text().splitlines()
    assert got["error"] is not None and message in got["error"], got
    assert got["line"] is not None and line in lines[got["line"] - 1], (got, lines)
    assert got["rss_mb"] < RSS_CEILING_MB, got


# The child of a command case: the horde command, run in this process so that its peak
# memory is measured, which it writes to the file it is given first.
CLI_DRIVER = """\
import json, resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
out, sys.argv = sys.argv[1], ["horde", *sys.argv[2:]]
code = 0
try:
    runpy.run_module("engine", run_name="__main__")
except SystemExit as exc:
    code = exc.code
peak = int(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")))
with open(out, "w") as f:
    json.dump({"code": code, "rss_mb": peak / 1024}, f)
"""

# commands that copy the state (search bots clone it at every decision) or save it
COMMANDS = {
    "sim-mcts": ["sim", "{pack}", "--bots", "mcts:20", "-n", "1"],
    "sim-search": ["sim", "{pack}", "--bots", "search:iters=20", "-n", "1"],
    "play-save": ["play", "{pack}", "--players", "random,random", "--save", "{dir}/f.json"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_nested_list_kept_in_the_game_stops_at_its_line_before_a_clone_or_a_save(tmp_path, command):
    pack = _write(tmp_path, "m = [0] * 1000\nr = [m for i in range(1000)]\ngame.l = [r for i in range(1000)]")
    driver = tmp_path / "cli_driver.py"
    driver.write_text(CLI_DRIVER)
    report = tmp_path / "report.json"
    args = [a.format(pack=pack, dir=tmp_path) for a in COMMANDS[command]]
    done = _child([str(driver), str(report), *args])
    said = done.stdout + done.stderr
    got = json.loads(report.read_text())
    assert got["code"] == 1, (got, said[-2000:])
    assert f"nested.yaml:11:7: a value kept in the game: {WRITTEN_OUT}" in said, said[-2000:]
    assert "Traceback" not in said and "internal error" not in said, said[-2000:]
    assert got["rss_mb"] < RSS_CEILING_MB, got


def test_nested_lists_within_the_bounds_are_kept_compared_and_copied(tmp_path):
    """Lists of lists the bounds hold still work as before; a copy keeps a list that occurs
    twice one list, as the state it copies does."""
    body = textwrap.dedent("""\
        a = [[1, 2]] * 3
        b = [[1, 2], [1, 2], [1, 2]]
        if not (a == b) or a != b or a < b or not ([1, 2] in a) or sorted([[2], [1]]) != [[1], [2]]:
          log('wrong')
        if max([1, 3], [2]) != [2] or min(a) != [1, 2]:
          log('wrong max')
        game.l = [[0] * 999] * 999
        game.l[0] = [5]
        log('done')""")
    S = engine.load(_write(tmp_path, body)).new_state(players=2, seed=1)
    assert [e["text"] for e in S.log if e["t"] == "msg"] == ["done"]
    assert len(S.vars["l"]) == 999 and S.vars["l"][0] == [5] and S.vars["l"][1] == [0] * 999
    c = S.clone()
    assert c.vars["l"] == S.vars["l"] and c.vars["l"] is not S.vars["l"]
    assert c.vars["l"][1] is c.vars["l"][2] and c.vars["l"][1] is not S.vars["l"][1]
    shared = [0] * 3
    copied = copy_value({"x": [shared, shared], "y": shared})
    assert copied["x"][0] is copied["x"][1] is copied["y"] and copied["y"] is not shared
