"""`log(...)` written out by the compiler gives the log line the builtin gives.

A literal format with one plain `{}` per argument is formatted in place (most log lines
of every pack); anything else goes to the builtin. Both ways must write the same entry
for every kind of value, and the written-out line must not make the end check or the
flow think the effect could change the game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.dsl import footprint
from engine.dsl.builtins import _log
from engine.dsl.values import E

FIXTURE = Path(__file__).parent.parent / "bench" / "fixtures" / "fastpaths" / "pack.yaml"
TYPES = {"p": "player", "x": "any", "n": "int"}


@pytest.fixture(scope="module")
def game():
    return engine.load(FIXTURE)


def _values(S):
    gem = E(S.zones["deck"][0])
    return [S.players[1], gem, 7, "text", [1, S.players[0], gem], True, None, [], S.players[0]]


def _logged(game, text: str, args: dict) -> tuple[str, list]:
    S = game.new_state(seed=1)
    c = game.compile_expr(text, TYPES, effect=True)
    before = len(S.log)
    c.fn(S, {k: v(S) if callable(v) else v for k, v in args.items()})
    return c.source, list(S.log)[before:]


def _by_builtin(game, fmt: str, args: list) -> list:
    S = game.new_state(seed=1)
    before = len(S.log)
    _log(S, fmt, *[a(S) if callable(a) else a for a in args])
    return list(S.log)[before:]


@pytest.mark.parametrize("k", range(9))
@pytest.mark.parametrize("fmt", ["{} and {}", "{{braces}} {} {}!", "{}{}"])
def test_written_out_lines_say_what_the_builtin_says(game, fmt, k):
    """Every kind of value, in a variable of unknown type and in one typed player (which
    may still hold none), beside the current player."""
    def value(S):
        return _values(S)[k]

    for text, names in ((f"log({fmt!r}, x, current)", ["x"]), (f"log({fmt!r}, p, current)", ["p"])):
        if names == ["p"] and k not in (0, 6, 8):
            continue  # a typed player holds a player or none
        source, got = _logged(game, text, {names[0]: value})
        assert "_say(S, " in source
        assert got == _by_builtin(game, fmt, [value, lambda S: S.players[S.cur]])


@pytest.mark.parametrize("fmt, args", [
    ("{0} and {1}", ["n", "x"]),        # numbered fields
    ("{} and {}", ["n"]),               # too few arguments: the builtin says what it can
    ("{}", ["n", "x"]),                 # too many
    ("{:>4}|{}", ["n", "x"]),           # a format spec
    ("{!r} {}", ["n", "x"]),            # a conversion
    ("{", ["n"]),                       # not a format at all
])
def test_other_formats_go_to_the_builtin(game, fmt, args):
    values = {"n": 3, "x": "y"}
    source, got = _logged(game, f"log({fmt!r}, {', '.join(args)})", values)
    assert "_say(S, " not in source and "_b_log(" in source
    assert got == _by_builtin(game, fmt, [values[a] for a in args])


def test_a_format_made_at_run_time_goes_to_the_builtin(game):
    source, got = _logged(game, "log(x, n)", {"x": "{} rolls", "n": 4})
    assert "_b_log(" in source
    assert got == [{"t": "msg", "text": "4 rolls"}]


def test_a_written_out_line_changes_nothing_a_rule_reads(game):
    c = game.compile_expr("log('{} has {} and {}', p, n, x)", TYPES, effect=True)
    assert "_say(S, " in c.source
    assert footprint.writes(game, c) == frozenset()
    plain = game.compile_expr("log('{} has', p)\np.score = 1", TYPES, effect=True)
    assert footprint.writes(game, plain) == {"score"}
