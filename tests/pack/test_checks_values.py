"""Facts about values (engine.pack.valuefacts): a test that what the pack declares makes
constant is an error at its place; the same test against a value it can have is not."""

from __future__ import annotations

import pytest

from tests.pack.checks import said

ACTION = ("actions:\n  - id: slip\n    at: main\n    if: \"{}\"\n"
          "    do: \"me.score += 1 if params.speed == 'fast' else 2\"\n")


@pytest.mark.parametrize(("slip", "control", "message"), [
    ("me.score > 12", "me.score > 2",
     "this test is never true: player field 'score' is within 0..10 (its declared min and max)"),
    ("params.goal == 0", "params.goal == 1",
     "this test is never true: param 'goal' is within 1..10 (its min and max)"),
    ("params.speed == 'fsat'", "params.speed == 'fast'",
     "this test is never true: param 'speed' is one of 'fast', 'slow' (its choices)"),
    ("has(me.hand, 'ace') and top(deck).id == 'aec'", "top(deck).id == 'ace'",
     "this test is never true: no card or kind has the id 'aec'"),
    ("count([c for c in cards(deck) if c.power >= 5]) > 0",
     "count([c for c in cards(deck) if c.power >= 3]) > 0",
     "this test is never true: 'power' of every card and kind is within 1..3"),
    ("any([c.suit == 'harts' for c in cards(deck)])", "any([c.suit == 'hearts' for c in cards(deck)])",
     "this test is never true: 'suit' of every card and kind is one of 'hearts', 'spades'"),
    ("count(me.hand) < 3 and me.tag != 'x' and top(deck).id != 'aec'", "top(deck).id != 'two'",
     "this test is always true: no card or kind has the id 'aec'"),
])
def test_a_test_the_declarations_make_constant(horde, tmp_path, slip, control, message):
    pack = ("params:\n  speed: {default: fast, choices: [fast, slow]}\n"
            "cards:\n  - {id: ace, count: 2, zone: deck, discard: pile, tags: [high], "
            "fields: {power: 3, suit: hearts}}\n"
            "  - {id: two, count: 3, zone: deck, discard: pile, fields: {power: 1, suit: spades}}\n")
    found = said(horde, tmp_path, pack + ACTION.format(slip))
    assert [(f, line) for f, line, _ in found] == [("house.yaml", 10)]
    assert found[0][2] == message
    assert said(horde, tmp_path, pack + ACTION.format(control)) == []


def test_a_die_face_no_die_has(horde, tmp_path):
    body = "actions:\n  - id: gamble\n    at: main\n    do: |\n      r = roll(d6)\n" \
           "      if r == {}:\n          me.score += 1\n"
    assert said(horde, tmp_path, body.format(7)) == [
        ("house.yaml", 7, "this test is never true: die 'd6' rolls within 1..6")]
    assert said(horde, tmp_path, body.format(6)) == []


def test_unknown_stays_unknown(horde, tmp_path):
    # a field a rule writes, a local assigned twice, a turn variable: nothing is known
    assert said(horde, tmp_path, "cards:\n  - {id: ace, count: 2, zone: deck, discard: pile, "
                "fields: {power: 3}}\n  - {id: two, count: 3, zone: deck, discard: pile, fields: {power: 1}}\n"
                "actions:\n  - id: t\n    at: main\n    do: |\n      c = top(deck)\n"
                "      c.power += 9\n      x = 1\n      x = 99\n"
                "      if c.power > 5 and x > 50 and turn.acted > 999:\n          me.score += 1\n") == []
