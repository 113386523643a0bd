"""Saving never replaces what is not a regular file: `--save /dev/null` as root would
otherwise swap the device for a file, and a link would be written through."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from engine import atomic, scores
from engine.errors import HordeError

STOPPED = Path(__file__).parent.parent / "reliability" / "fixtures" / \
    "old-record-theyre-coming-stopped.json"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def _symlink(tmp_path: Path) -> Path:
    (tmp_path / "real.json").write_text("keep")
    path = tmp_path / "link.json"
    path.symlink_to(tmp_path / "real.json")
    return path


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "dir").mkdir()
    return tmp_path / "dir"


@pytest.mark.parametrize("make", [_fifo, _symlink, _folder])
def test_save_refuses_what_is_not_a_regular_file_before_the_game(horde, tmp_path, make):
    target = make(tmp_path)
    kind = os.lstat(target).st_mode
    r = horde("play", "roll-them-bones", "--players", "random,random", "--seed", 3,
              "--save", target)
    assert r.exit_code == 1 and "not a regular file" in r.output
    assert "Game over" not in r.output  # refused up front, not after a game played for nothing
    assert os.lstat(target).st_mode == kind
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.fixture
def device(tmp_path) -> Path:
    """A character device like /dev/null, made in the test's own folder: never the system's,
    which a failing test would replace for everyone."""
    path = tmp_path / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError:
        pytest.skip("cannot make a device node here (only root can)")
    return path


def test_a_device_is_never_replaced(horde, device):
    with pytest.raises(HordeError, match="a device, pipe or socket, not a regular file"):
        atomic.write_text(device, "{}")
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    r = horde("play", "roll-them-bones", "--players", "random,random", "--seed", 3,
              "--save", device)
    assert r.exit_code == 1 and "not a regular file" in r.output
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_resume_refuses_to_save_onto_a_device(horde, tmp_path, device):
    path = tmp_path / "game.json"
    path.write_text(STOPPED.read_text())
    r = horde("resume", path, "--save", device)
    assert r.exit_code == 1 and "not a regular file" in r.output
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_the_score_table_is_never_written_through_a_link(data_dir, tmp_path):
    import engine
    from engine.flow.machine import run_effect

    game = engine.load("theyre-coming", mode="death-comes-knocking")
    S = game.new_state(players=1, seed=1)
    run_effect(S, game.compile_expr("game.score = 5; end_game()", effect=True), {})
    data_dir.mkdir()
    elsewhere = tmp_path / "elsewhere"
    (data_dir / "scores.json.lock").symlink_to(elsewhere)
    with pytest.raises(scores.ScoresError, match="cannot lock"):
        scores.record_score(game, S)
    assert not elsewhere.exists()
    (data_dir / "scores.json.lock").unlink()
    (data_dir / "scores.json").symlink_to(elsewhere)
    with pytest.raises(scores.ScoresError, match="symbolic link, not a regular file"):
        scores.record_score(game, S)
    assert not elsewhere.exists()
