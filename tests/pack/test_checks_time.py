"""Facts about time (engine.pack.timefacts): in the mini pack a turn opens the window
`start`, then asks `main`. A turn variable read at `start` but set only at `main` is
always its start value there; set at `main`, nothing reads it before the turn ends."""

from __future__ import annotations

from tests.pack.checks import said

TWO = ("turn:\n  armed: false\nactions:\n"
       "  - id: arm\n    at: {}\n    do: turn.armed = true\n"
       "  - id: fire\n    at: {}\n    if: turn.armed\n    do: me.score += 1\n")


def test_a_read_before_any_write_this_turn_and_a_write_nothing_reads(horde, tmp_path):
    assert said(horde, tmp_path, TWO.format("main", "start")) == [
        ("house.yaml", 10, "turn.armed is read here before anything sets it this turn: it is "
                           "always its start value (False) here"),
        ("house.yaml", 7, "turn.armed is set here but nothing reads it before the turn ends "
                          "and it is reset")]
    assert said(horde, tmp_path, TWO.format("start", "main")) == []


def test_a_variable_nothing_reads(horde, tmp_path):
    slip = "vars:\n  streak: 0\nactions:\n  - {id: s, at: main, do: game.streak += 1}\n"
    assert said(horde, tmp_path, slip) == [
        ("house.yaml", 3, "game variable 'streak' is read by no rule")]
    assert said(horde, tmp_path, slip + "  - {id: t, at: main, if: game.streak > 2, do: me.score += 1}\n") == []
