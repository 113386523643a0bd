"""Plain play tells the table what the pack says: `rules` with the goal as --set made it,
the hand with its cards' texts, the reason a game ended, labels without entity numbers;
and hot seat leaves nothing of a previous player's hand in the terminal's scrollback."""

from __future__ import annotations

import re

import pytest

from tests.cli.test_play_pty import PROMPT, spawn

UID = re.compile(r"[\w-]#\d+")


def test_rules_honours_set(horde):
    r = horde("play", "defcon-z", "--players", "human,greedy", "--seed", 2,
              "--set", "win_kills=6", input="rules\nq\n")
    rules = r.output[r.output.index("P0> "):]
    assert "Goal: Be the first on the Helipad with 6 kills" in rules
    assert "win_kills = 6" in rules
    assert "15 kills" not in r.output


def test_the_hand_is_shown_with_texts_and_no_entity_numbers_reach_the_player(horde):
    r = horde("play", "defcon-z", "--players", "human,greedy", "--seed", 2, input="?\nlog\nq\n")
    assert "Unwelcome Guest (choice 3): Any time: put a zombie on another player's" in r.output
    assert "3. play-on(card=unwelcome-guest, target=1)" in r.output
    assert not UID.search(r.output), UID.search(r.output)


def test_a_played_game_ends_with_its_reason(horde):
    r = horde("play", "roll-them-bones", "--players", "random,random", "--seed", 3)
    assert "Game over: everyone loses: everyone is out: the zombies got them all" in r.output
    assert not UID.search(r.output)


def test_a_typed_label_with_its_entity_number_is_still_accepted(horde):
    import engine
    game = engine.load("defcon-z")
    S = game.new_state(players=2, seed=2)
    label = next(a for a in S.decision().actions if "#" in a)
    r = horde("play", "defcon-z", "--players", "human,greedy", "--seed", 2,
              input=f"{label}\nq\n")
    assert "is not a choice here" not in r.output


def test_hot_seat_clears_the_scrollback_when_the_device_is_passed(tmp_path):
    pytest.importorskip("pexpect")
    child = spawn("play", "roll-them-bones", "--players", "human,human", "--seed", "3",
                  tmp_path=tmp_path)
    child.expect(r"Pass the device to P\d")
    assert "\x1b[3J" in child.before  # the clear before the pass screen takes the scrollback
    child.sendline("")
    child.expect(PROMPT)
    assert "\x1b[3J" in child.before  # and the one after it
    child.sendline("q")
    child.expect(r"Stopped")
    child.close()
