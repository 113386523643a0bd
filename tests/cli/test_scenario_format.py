"""The scenario format (docs/scenarios.md): moments, label checks, dice forced by die, where
the game stops, and the mistakes a scenario can make, each reported where it was written."""

from __future__ import annotations

import pytest

from engine.api import load
from engine.errors import PackError
from engine.scenario import run_file

RTB = "roll-them-bones"
SHOTGUN = f"""
  pack: {RTB}
  setup: move(find(item_stack, 'shotgun'), players[0].item)
  decisions: [shotgun]
"""


def run(tmp_path, text: str, name: str = "s.yaml"):
    f = tmp_path / name
    f.write_text(text)
    return run_file(f)


def one(tmp_path, text: str):
    (r,) = run(tmp_path, text)
    return r


def problems(tmp_path, text: str) -> str:
    r = one(tmp_path, text)
    assert not r.ok
    return r.message


# ---------- dice forced by die ----------
def test_dice_forced_by_die_land_on_that_die_whatever_the_order(tmp_path):
    # written in the opposite order to the one the pack rolls them in
    r = one(tmp_path, f"""
- scenario: s
{SHOTGUN}
  rolls:
    zombie_event: [run, run, run]
    zombie_item: [zombie, zombie, zombie2]
    black: [5]
  expect: ["players[0].health == 3 and players[0].distance == 4"]
""")
    assert r.ok, r.message


def test_a_roll_forced_by_die_and_never_used_fails(tmp_path):
    msg = problems(tmp_path, f"""
- scenario: s
{SHOTGUN}
  rolls: {{black: [5], zombie_item: [zombie, zombie, zombie2, run]}}
  expect: ["true"]
""")
    assert "1 forced roll(s) were never used" in msg and "run" in msg


def test_a_cloned_state_has_its_own_forced_rolls():
    S = load(RTB).new_state(players=2, prepare=lambda S: setattr(S, "forced", {"black": [5, 6, 4]}))
    assert S.forced == {"black": [6, 4]}  # the first turn's black die took the 5
    c = S.clone()
    c.forced["black"].pop()
    assert S.forced == {"black": [6, 4]}


# ---------- where the game stops ----------
ONE_TURN = f"""
- scenario: s
  pack: {RTB}
  rolls: [1, zombie, run, zombie, zombie, zombie, zombie]
"""


def test_the_game_stops_when_the_turn_the_script_ran_out_in_is_over(tmp_path):
    r = one(tmp_path, ONE_TURN + '  expect: ["game_over() and turn_count() == 1"]\n')
    assert r.ok, r.message
    assert r.state.players and r.state.pl[1]["distance"] == 1


def test_play_on_plays_past_the_script(tmp_path):
    r = one(tmp_path, ONE_TURN + '  play_on: true\n  expect: ["turn_count() >= 2"]\n')
    assert r.ok, r.message


def test_turns_in_the_packs_own_words(tmp_path):
    base = """
- scenario: s
  pack: theyre-coming
  params: {start_weapon: machete, waves: 2, search: false}
  seed: 1
  setup: |
    put('shambler', cell(1, 1))
    for z in cards(pool):
        move(z, removed)
"""
    rounds = one(tmp_path, base + '  turns: {rounds: 2}\n  expect: ["turn_count() == 4 and players[0].health == 4"]\n')
    assert rounds.ok, rounds.message
    waves = one(tmp_path, base + '  turns: {waves: 3}\n  expect: ["turn_count() == 3"]\n')
    assert waves.ok, waves.message


# ---------- moments ----------
def test_a_moment_that_fails_says_which_moment(tmp_path):
    msg = problems(tmp_path, f"""
- scenario: s
  pack: {RTB}
  setup: move(find(event_stack, 'fear'), players[0].event)
  decisions: [pass]
  at:
    - decision: 1
      expect: ["deciding() == players[1]"]
""")
    assert msg.startswith("after decision 1: expectation failed: deciding() == players[1]")


def test_point_moments_count_the_times_the_point_is_asked(tmp_path):
    text = f"""
- scenario: s
  pack: {RTB}
  players: 2
  setup: |
    move(find(event_stack, 'lots-o-ammo'), players[1].event)
    players[0].distance = 5
  rolls: [1, zombie, zombie, zombie, zombie, zombie, zombie]
  decisions: [pass, pass, pass, pass]
  at:
    - point: after_black
      expect: ["deciding() == players[1] and not can('lots-o-ammo(target=1)')"]
    - point: turn_start
      nth: NTH
      expect: ["turn_count() == 1"]
"""
    assert one(tmp_path, text.replace("NTH", "1")).ok
    msg = problems(tmp_path, text.replace("NTH", "2"))
    assert "s.yaml:13:7: moment never reached: at point turn_start (time 2); a decision was " \
           "asked there 1 time(s)" in msg


def test_a_turn_moment_sees_the_state_turns_would_leave(tmp_path):
    rolls = "[1, zombie, run, zombie, zombie, zombie, zombie, 1, zombie, run2, zombie, zombie, zombie, zombie]"
    r = one(tmp_path, f"""
- scenario: s
  pack: {RTB}
  rolls: {rolls}
  at:
    - turn: 1
      expect: ["players[0].distance == 2 and players[1].distance == 1 and turn_count() == 1"]
    - turn: 2
      expect: ["players[1].distance == 3"]
  expect: ["turn_count() == 2"]
""")
    assert r.ok, r.message
    msg = problems(tmp_path, f"""
- scenario: s
  pack: {RTB}
  rolls: {rolls}
  at:
    - turn: 3
      expect: ["true"]
""")
    assert "moment never reached: after turn 3 (3 turn(s)); the scenario stopped in turn 2" in msg


# ---------- offered / not_offered ----------
FEAR = f"""
- scenario: s
  pack: {RTB}
  players: 3
  setup: move(find(event_stack, 'fear'), players[0].event)
"""


def test_offered_takes_exact_labels_and_prefixes(tmp_path):
    r = one(tmp_path, FEAR + '  offered: ["fear(target=1)", "fear(*", pass]\n'
                             '  not_offered: ["fear(target=0)", "lots-o-ammo*"]\n')
    assert r.ok, r.message


def test_a_label_not_offered_fails_with_what_is_offered(tmp_path):
    msg = problems(tmp_path, FEAR + '  offered: ["fear(target=0)"]\n  not_offered: ["fear*"]\n')
    assert "not offered: fear(target=0) (P0 at turn_start is offered: fear(target=1), " \
           "fear(target=2), pass)" in msg
    assert "offered, but must not be: fear(target=1), fear(target=2) (not_offered: fear*)" in msg


def test_nothing_is_offered_once_the_game_is_stopped(tmp_path):
    msg = problems(tmp_path, ONE_TURN + '  offered: [pass]\n')
    assert "nobody is deciding" in msg


# ---------- mistakes, each where it was written ----------
@pytest.mark.parametrize("lines, expected", [
    ("  rolls: {black: [7]}\n", ["s.yaml:4:19: rolls: 7 is not a face of die 'black'",
                                  "hint: black: 1, 2, 3, 4, 5, 6"]),
    ("  rolls: {zombie_itme: [run]}\n", ["s.yaml:4:11: rolls: this pack has no die 'zombie_itme'",
                                         "did you mean 'zombie_item'?"]),
    ("  rolls: [1, zombie3]\n", ["s.yaml:4:14: rolls: 'zombie3' is not a face of any die"]),
    ("  decisions: [shotgnu]\n", ["s.yaml:4:15: decision 1: no action 'shotgnu' in this pack",
                                  "did you mean 'shotgun'?"]),
    ("  offered: ['fera(*']\n", ["s.yaml:4:13: offered: no action 'fera' in this pack",
                                 "did you mean 'fear'?"]),
    ("  at:\n    - point: after_blak\n      expect: ['true']\n",
     ["s.yaml:5:14: at: this pack asks no decision at point 'after_blak'",
      "did you mean 'after_black'?"]),
    ("  at:\n    - decision: 2\n      expect: ['true']\n",
     ["s.yaml:5:17: at: decision 2 is never reached: the scenario takes 0 decision(s)"]),
    ("  at:\n    - decision: 0\n      turn: 1\n      expect: ['true']\n",
     ["s.yaml:5:7: at: each moment names one of decision, point or turn, not decision and turn"]),
    ("  at:\n    - turn: 1\n      nth: 2\n      expect: ['true']\n",
     ["s.yaml:6:7: at: nth counts the times a point is reached; it goes with point:"]),
    ("  at:\n    - turn: 1\n", ["s.yaml:5:7: at: this moment checks nothing"]),
    ("  turns: {rounds: 1}\n", ["s.yaml:4:11: turns: this pack has no word 'rounds' for turns "
                                "(it names none in turn_names)"]),
    ("  description: nothing to check\n", ["s.yaml:1:3: this scenario checks nothing"]),
])
def test_a_mistake_is_reported_at_its_line_and_column(tmp_path, lines, expected):
    msg = problems(tmp_path, f"- scenario: s\n  pack: {RTB}\n  players: 2\n{lines}")
    for text in expected:
        assert text in msg


def test_an_unknown_key_in_a_moment_is_reported_by_the_schema(tmp_path):
    with pytest.raises(PackError) as exc:
        run(tmp_path, f"- scenario: s\n  pack: {RTB}\n  at:\n    - point: turn_start\n"
                      f"      exepct: ['true']\n")
    assert "s.yaml:5:7: unknown key 'exepct' in at[0] (did you mean 'expect'?)" in str(exc.value)


def test_a_turn_word_of_another_pack_is_named_with_the_ones_it_has(tmp_path):
    msg = problems(tmp_path, "- scenario: s\n  pack: theyre-coming\n  turns: {round: 1}\n"
                             "  expect: ['true']\n")
    assert "this pack has no word 'round' for turns (it names waves, rounds)" in msg
    assert "did you mean 'rounds'?" in msg


def test_the_command_reports_a_mistake_with_its_place_and_exit_code_1(horde, tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(f"- scenario: s\n  pack: {RTB}\n  rolls: {{black: [0]}}\n  expect: ['true']\n")
    r = horde("scenario", f)
    assert r.exit_code == 1
    assert "bad.yaml:3:19: rolls: 0 is not a face of die 'black'" in r.output
    v = horde("validate", f)
    assert v.exit_code == 1 and "bad.yaml:3:19" in v.output
