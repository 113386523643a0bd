"""`u` at a prompt: a person takes back their last decision, unless a die was rolled or
something hidden came out since; the record saved after it does not hold it."""

from __future__ import annotations

import json

import engine
from engine.cli.undo import Undo, revealed
from engine.dsl.values import Z

DZ = ("play", "defcon-z", "--players", "human,greedy,greedy", "--seed", 3)
# seed 3: P0 passes at turn_start (1), places its tile (1), equips the chainsaw (1), then
# walks: the first step is move(to=0,1), a fight (a kit prompt, no die yet), the second
# move(to=1,0)
TO_THE_STEP = "1\n1\n1\n"


def test_undo_takes_back_a_step_and_the_record_leaves_it_out(horde, tmp_path):
    save = tmp_path / "game.json"
    r = horde(*DZ, "--save", save, input=TO_THE_STEP + "1\nu\n2\nq\n")
    assert r.exit_code == 0, r.output
    assert "P0 takes back move(to=0,1)" in r.output
    decisions = json.loads(save.read_text())["decisions"]
    assert decisions[-1] == "move(to=1,0)" and "move(to=0,1)" not in decisions
    again = horde("resume", save, input="q\n")  # the record is a game that replays
    assert again.exit_code == 0, again.output
    assert f"resumed after {len(decisions)} decisions" in again.output


def test_a_card_played_from_a_hidden_hand_stays_played(horde, tmp_path):
    save = tmp_path / "game.json"
    # the step is taken back; the chainsaw before it came out of P0's hidden hand
    r = horde(*DZ, "--save", save, input=TO_THE_STEP + "1\nu\nu\nq\n")
    assert "P0 takes back move(to=0,1)" in r.output
    assert "can't undo: P1, P2 saw a card or tile hidden from them before" in r.output
    assert json.loads(save.read_text())["decisions"][-1] == "equip(card=chainsaw)"


def test_undo_is_refused_once_a_die_was_rolled(horde, tmp_path):
    save = tmp_path / "game.json"
    # after placing the tile comes the move roll: the placement stands
    r = horde(*DZ, "--save", save, input="1\n1\nu\nq\n")
    assert "can't undo: a die was rolled since" in r.output
    assert json.loads(save.read_text())["decisions"] == ["pass", "place(at=-1,0, rot=0)"]


def test_nothing_to_undo_before_the_first_decision_and_u_is_in_the_help(horde):
    r = horde(*DZ, input="u\n?\nq\n")
    assert "can't undo: there is no decision of yours to take back yet" in r.output
    assert "u undo your last decision" in r.output


def _dz():
    game = engine.load("defcon-z")
    return game.new_state(players=3, seed=3)


def test_a_card_drawn_or_looked_at_cannot_be_undone_even_once_put_back():
    S = _dz()
    undo = Undo()
    before = S.clone()
    undo.applied(before, S, 0, "x")  # P0's decision: nothing came out
    assert undo.refusal(0) is None
    peeked = S.clone()
    top = S.zones["map_stack"][-1]
    S.move_ent(top, Z("spotted", 1))  # P1 looks at the top tile
    seen = "P1 saw a card or tile hidden from it before (drawn, played or looked at)"
    assert revealed(peeked, S) == seen
    undo.applied(peeked, S, None, "a bot's decision")
    back = S.clone()
    S.move_ent(top, Z("map_stack"))  # and puts it back: what it saw stays seen
    assert revealed(back, S) is None
    undo.applied(back, S, None, "a bot's decision")
    assert undo.refusal(0) == seen


def test_a_shuffle_cannot_be_undone():
    S = _dz()
    before = S.clone()
    S.shuffle_list(S.zones["deck"])
    assert revealed(before, S) == "something was shuffled or picked at random since"


def test_hot_seat_only_the_last_person_to_decide_takes_back():
    S = _dz()
    undo = Undo()
    undo.applied(S.clone(), S, 0, "a")
    undo.applied(S.clone(), S, None, "a bot's")  # a bot between: taken back with it
    assert undo.refusal(0) is None
    undo.applied(S.clone(), S, 1, "b")
    assert undo.refusal(0).startswith("P1 has decided since your last decision")
    assert undo.refusal(1) is None
    assert undo.take_back().label == "b"
    assert undo.refusal(0) is None


def test_roll_them_bones_a_pass_taken_back_shows_the_turn_again(horde, tmp_path):
    save = tmp_path / "game.json"
    # seed 3: P0's first decision ends its turn 7; P1's turn 8 asks P0 before any roll
    r = horde("play", "roll-them-bones", "--players", "human,random", "--seed", 3,
              "--save", save, input="pass\nu\nq\n")
    after = r.output[r.output.index("P0 takes back pass"):]
    assert "turn 7 · seen by P0" in after
    assert "P0 rolls [zombie, run2, zombie, run2, zombie, event]" in after  # the log again
    stopped = tmp_path / "stopped.json"  # the same game stopped at that prompt instead
    horde("play", "roll-them-bones", "--players", "human,random", "--seed", 3,
          "--save", stopped, input="q\n")
    assert json.loads(save.read_text()) == json.loads(stopped.read_text())
