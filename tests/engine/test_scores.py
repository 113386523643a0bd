"""The local high-score table: where it lives, what it records, and that writes are safe."""

from __future__ import annotations

import json
import os

import pytest

import engine
from engine import scores
from engine.flow.machine import run_effect

MODE = "death-comes-knocking"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def game():
    return engine.load("theyre-coming", mode=MODE)


def finished(game, points: int, seed: int = 1):
    S = game.new_state(players=1, seed=seed)
    run_effect(S, game.compile_expr(f"game.score = {points}; end_game()", effect=True), {})
    assert S.is_terminal()
    return S


def test_the_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("HORDE_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert scores.scores_path() == tmp_path / "xdg" / "horde" / "scores.json"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert scores.scores_path() == tmp_path / "home" / ".local" / "share" / "horde" / "scores.json"


def test_finished_games_are_ranked_best_first(game, data_dir):
    first = scores.record_score(game, finished(game, 12))
    second = scores.record_score(game, finished(game, 30, seed=2))
    third = scores.record_score(game, finished(game, 5, seed=3))
    assert (first["rank"], second["rank"], third["rank"]) == (1, 1, 3)
    best = scores.top("theyre-coming", MODE)
    assert [e["score"] for e in best] == [30, 12, 5]
    assert best[0]["seed"] == 2 and best[0]["players"] == 1
    assert json.loads((data_dir / "scores.json").read_text())["format"] == 1


def test_packs_without_high_scores_record_nothing(data_dir):
    g = engine.load("theyre-coming")
    assert scores.record_score(g, finished(g, 9)) is None
    assert not (data_dir / "scores.json").exists()


def test_unfinished_games_record_nothing(game):
    assert scores.record_score(game, game.new_state(players=1, seed=1)) is None


def test_changed_params_are_kept_with_the_score():
    g = engine.load("theyre-coming", mode=MODE, params={"sploders": 0})
    entry = scores.record_score(g, finished(g, 7))
    assert entry["params"] == {"sploders": 0}


def test_a_damaged_table_is_reported_and_left_alone(game, data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "scores.json").write_text("{not json")
    with pytest.raises(scores.ScoresError, match="damaged"):
        scores.record_score(game, finished(game, 3))
    assert (data_dir / "scores.json").read_text() == "{not json"


def test_a_crash_while_writing_keeps_the_old_table(game, data_dir, monkeypatch):
    scores.record_score(game, finished(game, 21))
    before = (data_dir / "scores.json").read_text()

    def crash(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(scores.ScoresError, match="cannot write"):
        scores.record_score(game, finished(game, 99))
    assert (data_dir / "scores.json").read_text() == before
    assert [p.name for p in data_dir.iterdir() if p.name.endswith(".tmp")] == []


def test_each_pack_and_mode_keeps_its_best(game, monkeypatch):
    monkeypatch.setattr(scores, "KEEP", 3)
    for k in range(6):
        scores.record_score(game, finished(game, k))
    assert [e["score"] for e in scores.top()] == [5, 4, 3]


def test_the_command_shows_the_table(game, data_dir):
    from typer.testing import CliRunner

    from engine.cli.app import app
    runner = CliRunner()
    empty = runner.invoke(app, ["scores"])
    assert empty.exit_code == 0 and "no scores yet" in empty.output
    scores.record_score(game, finished(game, 42))
    shown = runner.invoke(app, ["scores", "theyre-coming"])
    assert shown.exit_code == 0 and "42" in shown.output and MODE in shown.output
    misspelt = runner.invoke(app, ["scores", "theyre-comin"])  # no such pack: the closest
    assert misspelt.exit_code == 1 and "did you mean 'theyre-coming'?" in misspelt.output
    wrong_mode = runner.invoke(app, ["scores", "theyre-coming", "--mode", "kamikaz"])
    assert wrong_mode.exit_code == 0 and "no scores yet for theyre-coming" in wrong_mode.output
    assert f"hint: scores are kept for theyre-coming --mode {MODE}" in wrong_mode.output
    raw = runner.invoke(app, ["scores", "--json"])
    assert json.loads(raw.output)[0]["score"] == 42
    (data_dir / "scores.json").write_text("[]")
    broken = runner.invoke(app, ["scores"])
    assert broken.exit_code == 1 and "damaged" in broken.output
