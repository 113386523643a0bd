"""`horde play` and `horde replay`: demos, people at the table, records and their replay."""

from __future__ import annotations

import json
import re

from tests.cli.conftest import PACK, edit

BOTS = "random,random,random"


def final_line(output: str) -> str:
    return [line for line in output.splitlines() if line.startswith("Game over:")][-1]


def test_demo_with_bots_only_plays_to_the_end(horde):
    r = horde("play", PACK, "--players", BOTS, "--seed", 3)
    assert r.exit_code == 0, r.output
    assert "spectator" in r.output
    assert re.match(r"Game over: (P\d wins|no winner|turn limit reached)", final_line(r.output))


def test_demo_is_reproducible_from_its_seed(horde):
    a = horde("play", PACK, "--players", BOTS, "--seed", 11).output
    b = horde("play", PACK, "--players", BOTS, "--seed", 11).output
    assert a == b


def test_human_chooses_by_number_or_label_and_end_of_input_stops(horde):
    r = horde("play", PACK, "--players", "human,random", "--seed", 1,
              input="1\nnot-a-label\npas\npass\n")
    assert r.exit_code == 0, r.output
    assert "P0, your choice" in r.output
    assert "seen by P0" in r.output
    assert "'not-a-label' is not a choice here" in r.output
    assert "did you mean 'pass'" in r.output
    assert "Stopped: the game ends after" in r.output


def test_q_stops_the_game_and_what_was_played_is_saved(horde, tmp_path):
    save = tmp_path / "game.json"
    r = horde("play", PACK, "--players", "human,random", "--seed", 1, "--save", save,
              input="1\nq\nnever read\n")
    assert r.exit_code == 0, r.output
    assert "Stopped: the game ends after" in r.output
    assert "never read" not in r.output
    record = json.loads(save.read_text())
    assert record["decisions"], record  # the decisions made before `q` are kept


def test_default_seats_are_one_human_and_random_bots(horde):
    r = horde("play", PACK, "--seed", 1, input="")
    assert r.exit_code == 0
    assert "human, random, random" in r.output  # the pack's default is three players


def test_hot_seat_asks_to_pass_the_device(horde):
    r = horde("play", PACK, "--players", "human,human", "--seed", 3,
              input="\n" + "pass\n" * 6 + "\n" * 2)
    assert r.exit_code == 0
    assert "Pass the device to P0" in r.output


def test_too_many_players_and_empty_seats_are_errors(horde):
    r = horde("play", PACK, "--players", ",".join(["random"] * 7))
    assert r.exit_code == 1
    assert "not 7" in r.output
    r = horde("play", PACK, "--players", "random,,random")
    assert r.exit_code == 1
    assert "empty seat" in r.output


def test_bad_set_value_points_into_the_pack(horde):
    r = horde("play", PACK, "--set", "blocks=lots", "--players", BOTS)
    assert r.exit_code == 1
    assert re.search(r"pack\.yaml:\d+:\d+: param 'blocks' must be an integer", r.output)
    r = horde("play", PACK, "--set", "blocks", "--players", BOTS)
    assert r.exit_code == 1
    assert "--set expects NAME=VALUE" in r.output


def test_unknown_pack_to_play_suggests_the_closest(horde):
    r = horde("play", "roll-them-bone")
    assert r.exit_code == 1
    assert "did you mean 'roll-them-bones'" in r.output


def test_save_and_replay_round_trip(horde, tmp_path):
    saved = tmp_path / "game.json"
    played = horde("play", PACK, "--players", BOTS, "--seed", 5, "--set", "blocks=8",
                   "--house", "quick", "--save", saved)
    assert played.exit_code == 0, played.output
    record = json.loads(saved.read_text())
    assert record["params"] == {"blocks": "8"}
    assert record["bots"] == BOTS.split(",")
    assert record["house"][0]["path"].endswith("quick.yaml")
    replayed = horde("replay", saved)
    assert replayed.exit_code == 0, replayed.output
    assert final_line(replayed.output) == final_line(played.output)
    assert f"decision {len(record['decisions'])}/{len(record['decisions'])}" in replayed.output


def test_replay_step_waits_for_enter(horde, tmp_path):
    saved = tmp_path / "game.json"
    horde("play", PACK, "--players", "random,random", "--seed", 2, "--save", saved)
    r = horde("replay", saved, "--step", input="\n\n")
    assert r.exit_code == 0
    assert "Enter for the next decision" in r.output


def test_partial_game_is_saved_and_replayed(horde, tmp_path):
    saved = tmp_path / "game.json"
    horde("play", PACK, "--players", "human,random", "--seed", 3, "--save", saved,
          input="pass\n")
    record = json.loads(saved.read_text())
    assert 1 <= len(record["decisions"])
    r = horde("replay", saved)
    assert r.exit_code == 0
    assert "stops before the end" in r.output


def test_replay_refuses_a_changed_pack(horde, pack_copy, tmp_path):
    saved = tmp_path / "game.json"
    assert horde("play", pack_copy, "--players", BOTS, "--seed", 4,
                 "--save", saved).exit_code == 0
    assert horde("replay", saved).exit_code == 0
    edit(pack_copy / "pack.yaml", "blocks: {default: 16", "blocks: {default: 17")
    r = horde("replay", saved)
    assert r.exit_code == 1
    assert "changed since the game was recorded" in r.output


def test_replay_refuses_a_changed_house_file(horde, pack_copy, tmp_path):
    saved = tmp_path / "game.json"
    house = pack_copy / "house" / "quick.yaml"
    horde("play", pack_copy, "--players", BOTS, "--seed", 4, "--house", house, "--save", saved)
    house.write_text(house.read_text() + "\n# a comment changes the file, not the rules\n")
    r = horde("replay", saved)
    assert r.exit_code == 1
    assert "quick.yaml changed since the game was recorded" in r.output


def test_replay_refuses_an_illegal_label(horde, tmp_path):
    saved = tmp_path / "game.json"
    horde("play", PACK, "--players", "human,random", "--seed", 3, "--save", saved,
          input="pass\n")
    record = json.loads(saved.read_text())
    record["decisions"][0] = "teleport"
    saved.write_text(json.dumps(record))
    r = horde("replay", saved)
    assert r.exit_code == 1
    assert "decision 1 ('teleport') is not legal" in r.output


def test_replay_of_a_corrupt_file_is_a_clear_error(horde, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = horde("replay", bad)
    assert r.exit_code == 1
    assert "not a game record" in r.output
    bad.write_text(json.dumps({"format": 1, "pack": PACK}))
    r = horde("replay", bad)
    assert r.exit_code == 1
    assert "corrupt game record" in r.output
    r = horde("replay", tmp_path / "missing.json")
    assert r.exit_code == 1
    assert "cannot read" in r.output


def _stopped_game(horde, tmp_path, answers: str = "1\nq\n"):
    saved = tmp_path / "game.json"
    r = horde("play", "defcon-z", "--players", "human,random", "--seed", 2, "--save", saved,
              input=answers)
    assert r.exit_code == 0 and "Stopped" in r.output
    return saved, json.loads(saved.read_text())


def test_resume_goes_on_where_the_game_was_left_and_saves_it_back(horde, tmp_path):
    saved, before = _stopped_game(horde, tmp_path, "1\n1\nq\n")
    r = horde("resume", saved, input="1\n1\nq\n")
    assert r.exit_code == 0
    assert f"resumed after {len(before['decisions'])} decisions" in r.output
    after = json.loads(saved.read_text())
    assert after["decisions"][:len(before["decisions"])] == before["decisions"]
    assert len(after["decisions"]) == len(before["decisions"]) + 2
    assert {k: v for k, v in after.items() if k != "decisions"} == \
        {k: v for k, v in before.items() if k != "decisions"}
    assert horde("replay", saved).exit_code == 0  # the saved game replays as it was played


def test_resume_with_other_seats_plays_to_the_end_and_a_finished_game_is_refused(horde, tmp_path):
    saved = tmp_path / "game.json"
    horde("play", PACK, "--players", "human,random", "--seed", 3, "--save", saved, input="q\n")
    done = tmp_path / "done.json"
    r = horde("resume", saved, "--players", "random,random", "--save", done)
    assert r.exit_code == 0 and final_line(r.output).startswith("Game over:")
    assert json.loads(done.read_text())["bots"] == ["random", "random"]
    assert final_line(horde("replay", done).output) == final_line(r.output)
    again = horde("resume", done)
    assert again.exit_code == 1 and "the game is over" in again.output
    assert f"horde replay {done}" in again.output


def test_resume_refuses_a_wrong_seat_count_and_a_record_without_seats(horde, tmp_path):
    saved, record = _stopped_game(horde, tmp_path)
    r = horde("resume", saved, "--players", "random")
    assert r.exit_code == 1 and "this game has 2 seats, not 1" in r.output
    record["bots"] = []
    saved.write_text(json.dumps(record))
    r = horde("resume", saved)
    assert r.exit_code == 1 and "does not say who sat where" in r.output
    assert horde("resume", saved, "--players", "human,random", input="q\n").exit_code == 0


def test_resume_refuses_a_changed_pack(horde, pack_copy, tmp_path):
    saved = tmp_path / "game.json"
    horde("play", pack_copy, "--players", "human,random", "--seed", 3, "--save", saved,
          input="1\nq\n")
    edit(pack_copy / "pack.yaml", "blocks: {default: 16", "blocks: {default: 17")
    r = horde("resume", saved)
    assert r.exit_code == 1 and "changed since the game was recorded" in r.output
