"""A played game is never lost to the score table: its record is saved first whatever state
the table is in, a damaged table is one clear error, and temporary files that a killed write
left are cleaned up."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

import engine
from engine import atomic, scores

MODE = "death-comes-knocking"  # a mode that keeps high scores


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _null_mode(d: Path):
    d.mkdir()
    (d / "scores.json").write_text(json.dumps(
        {"format": 1, "scores": [{"pack": "a", "score": 1, "mode": None},
                                 {"pack": "b", "score": 2, "mode": ""}]}))


def _not_json(d: Path):
    d.mkdir()
    (d / "scores.json").write_text("{not json")


def _lock_is_a_folder(d: Path):
    (d / "scores.json.lock").mkdir(parents=True)


def _data_dir_is_a_file(d: Path):
    d.write_text("")


@pytest.mark.parametrize("damage", [_null_mode, _not_json, _lock_is_a_folder,
                                    _data_dir_is_a_file])
def test_a_finished_game_is_saved_whatever_the_score_table(horde, tmp_path, data_dir, damage):
    damage(data_dir)
    saved = tmp_path / "game.json"
    r = horde("play", "theyre-coming", "--mode", MODE, "--players", "random", "--seed", 3,
              "--save", saved, "--scores-for-bots")
    assert r.exit_code == 0, r.output
    assert "Game over:" in r.output and f"saved to {saved}" in r.output
    warning = [line for line in r.stderr.splitlines() if line]
    # a data folder that is a file cannot hold the autosave either: said once, the game played
    autosave = [line for line in warning if line.startswith("warning: the game is not autosaved")]
    assert len(autosave) == (damage is _data_dir_is_a_file)
    assert len(warning) == 1 + len(autosave)
    assert warning[-1].startswith("warning: the score was not recorded")
    assert horde("replay", saved).exit_code == 0


@pytest.mark.parametrize("entry, why", [
    ({"pack": "a", "score": 1, "mode": None}, "entry 1: 'mode' is not text"),
    ({"pack": "a", "score": "12"}, "entry 1: 'score' is not a whole number"),
    ({"pack": "a", "score": True}, "entry 1: 'score' is not a whole number"),
    ({"pack": "a", "score": 1, "params": []}, "entry 1: 'params' is not an object"),
    ({"score": 1}, "entry 1: no 'pack'"),
    (7, "entry 1: not an object"),
])
def test_a_damaged_table_is_one_clear_error(horde, data_dir, entry, why):
    data_dir.mkdir()
    (data_dir / "scores.json").write_text(json.dumps({"format": 1, "scores": [entry]}))
    r = horde("scores")
    assert r.exit_code == 1 and "is damaged: " + why in r.output


def test_a_table_nested_too_deeply_is_damaged_not_a_crash(horde, data_dir):
    data_dir.mkdir()
    (data_dir / "scores.json").write_text("[" * 100_000 + "]" * 100_000)
    r = horde("scores")
    assert r.exit_code == 1 and "damaged: JSON nested too deeply" in r.output


def test_an_oversized_table_is_refused(horde, data_dir, monkeypatch):
    monkeypatch.setattr(scores, "MAX_BYTES", 100)
    data_dir.mkdir()
    (data_dir / "scores.json").write_text(json.dumps({"format": 1, "scores": []}) + " " * 100)
    r = horde("scores")
    assert r.exit_code == 1 and "damaged: larger than" in r.output


def test_a_save_that_fails_still_records_the_score(tmp_path, data_dir, monkeypatch):
    from engine.cli import play
    from engine.errors import HordeError

    g = engine.load("theyre-coming", mode=MODE)
    S = g.new_state(players=1, seed=1)
    while not S.over:
        S.apply(S.decision().actions[0])

    def fails():
        raise HordeError("disk full")

    from types import SimpleNamespace
    person = SimpleNamespace(stopped=False, interrupted=False, specs=["human"],
                             bots=[SimpleNamespace(human=True)])
    with pytest.raises(HordeError, match="disk full"):
        play._after(person, S, tmp_path / "game.json", fails)
    assert len(scores.load()) == 1


# ---------- temporary files of a killed write ----------

def test_stale_temporary_files_of_the_target_are_removed(tmp_path):
    target = tmp_path / "game.json"
    stale = tmp_path / ".game.json.k3x_9a0b.json"
    fresh = tmp_path / ".game.json.zzzzzzzz.json"  # a write in progress, maybe
    other = tmp_path / ".game.json.k3x_9a0b.json.keep"  # not our pattern
    foreign = tmp_path / ".other.json.k3x_9a0b.json"  # another target's
    for p in (stale, fresh, other, foreign):
        p.write_text("half")
    hour_ago = time.time() - atomic.STALE_SECONDS - 60
    for p in (stale, other, foreign):
        os.utime(p, (hour_ago, hour_ago))
    atomic.write_text(target, "new")
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [target.name, fresh.name, other.name, foreign.name])
