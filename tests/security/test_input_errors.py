"""Inputs that once reached an internal error (exit 2, a bug report) end in a clear error and
exit 1 instead: a record holding a lone surrogate, sweep bounds too large for a range, a Ray
that cannot start, OpenSpiel params too large for its C++ side, and a bad command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import HordeError

STOPPED = Path(__file__).parent.parent / "reliability" / "fixtures" / \
    "old-record-theyre-coming-stopped.json"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))


def _record_with(tmp_path, **fields) -> Path:
    """The stopped game's record with `fields` replaced, as JSON escapes write them (a lone
    surrogate is `\\udc80` in the file: valid JSON, but no character)."""
    data = {**json.loads(STOPPED.read_text()), **fields}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("command", ["replay", "resume"])
@pytest.mark.parametrize("field, value, where", [
    ("bots", ["random", "\udc80evil"], "bots[1]"),
    ("pack", "roll-them-bones\ud800", "pack"),
    ("params", {"blocks\udfff": "3"}, "params"),
    ("decisions", ["pass", "\ud83d"], "decisions[1]"),
])
def test_a_lone_surrogate_in_a_record_is_one_located_error(horde, tmp_path, command, field,
                                                           value, where):
    path = _record_with(tmp_path, **{field: value})
    r = horde(command, path, input="q\n")
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"{path}: ") and "lone surrogate" in r.stderr, r.output
    assert f"at {where}" in r.stderr, r.output
    assert "internal error" not in r.output


def test_a_lone_surrogate_in_the_score_table_is_reported_not_a_crash(horde, tmp_path):
    from engine.scores import FORMAT, scores_path
    path = scores_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": FORMAT, "scores": [
        {"pack": "roll-them-bones", "score": 3, "name": "\udc80"}]}))
    r = horde("scores")
    assert r.exit_code == 1 and "internal error" not in r.output, r.output
    assert "lone surrogate" in r.stderr and "at scores[0].name" in r.stderr, r.output


@pytest.mark.parametrize("spec", ["blocks=0:" + "1" + "0" * 30, "blocks=-" + "9" * 25 + ":2",
                                  "blocks=0:" + "9" * 40 + ":" + "7" * 20])
def test_sweep_bounds_too_large_for_a_range_are_a_clear_error(horde, spec):
    r = horde("sweep", "roll-them-bones", "--param", spec, "-n", "1")
    assert r.exit_code == 1, r.output
    assert "internal error" not in r.output
    assert "--param" in r.stderr and "combinations a sweep may play" in r.stderr, r.output


@pytest.mark.parametrize("failure", [Exception("The current node timed out during startup"),
                                     FileNotFoundError(2, "No such file", "raylet"),
                                     TimeoutError("gcs")])
def test_a_local_ray_that_cannot_start_is_a_clear_error(horde, monkeypatch, failure):
    ray = pytest.importorskip("ray")

    def init(*args, **kwargs):
        raise failure
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    r = horde("sim", "roll-them-bones", "-n", "1", "--cluster", "local")
    assert r.exit_code == 1, r.output
    assert "internal error" not in r.output
    assert r.stderr.startswith("--cluster local: cannot start Ray on this machine"), r.output


@pytest.mark.parametrize("params", [
    {"blocks": 10**30}, {"blocks": -(10**30)}, {"players": 10**30}, {"turns": 2**31},
    {"max_game_length": 10**19}, {"blocks": "many"}, {"blocks": float("nan")},
    {"blocks": 1.5}, {"nonesuch": 3}, {"blocks": True}, {"blocks": 1000}, {"turns": -5},
    {"max_game_length": -1}, {"players": 0},
])
def test_openspiel_params_out_of_range_raise_a_horde_error(params):
    pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import load_game
    with pytest.raises(HordeError) as caught:
        load_game("roll-them-bones", **params)
    name = next(iter(params))
    assert name in str(caught.value)


@pytest.mark.parametrize("args", [
    ["sim", "roll-them-bones", "--jobs", "-1"],
    ["sim", "roll-them-bones", "--no-such-option"],
    ["sim"],
    ["no-such-command"],
    ["--no-such-option"],
    [],
])
def test_a_bad_command_line_exits_1_as_documented(horde, args):
    r = horde(*args)
    assert r.exit_code == 1, r.output
    assert "Usage:" in r.output


@pytest.mark.parametrize("command", ["scenario", "validate", "replay", "doc"])
def test_a_path_the_system_refuses_is_a_clear_error(horde, command):
    r = horde(command, "x" * 400)  # longer than a file name may be
    assert r.exit_code == 1, r.output
    assert "internal error" not in r.output
    assert "x" * 100 in r.output  # named, though a long message is cut in its middle


def test_a_file_name_that_is_not_utf8_is_shown_escaped(horde, tmp_path, monkeypatch):
    """A name with bytes that are not UTF-8 reaches Python holding lone surrogates; what
    is printed of it on stdout is escaped, not an encoding error."""
    monkeypatch.chdir(tmp_path)
    r = horde("play", "roll-them-bones", "--players", "random,random", "--seed", "1",
              "--save", "game-\udcff.json")
    assert r.exit_code == 0, r.output
    assert "saved to game-\\udcff.json" in r.stdout, r.output


@pytest.mark.parametrize("name, why", [("plot", "the file name has no suffix"),
                                      ("plot.tmp", "'.tmp' is not a picture format")])
def test_a_plot_file_must_name_a_picture_format(horde, tmp_path, name, why):
    pytest.importorskip("matplotlib")
    r = horde("sim", "roll-them-bones", "-n", "1", "--plot", tmp_path / name)
    assert r.exit_code == 1, r.output
    assert why in r.stderr and "hint: end it with one of: " in r.stderr, r.output
    assert not (tmp_path / name).exists()
