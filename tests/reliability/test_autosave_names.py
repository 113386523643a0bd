"""Autosave files: each game its own, even when games start in the same second (two tabs
of `horde serve` opened together), and a name taken before anything was saved in it is
no game to resume."""

from __future__ import annotations

import pytest

from engine import autosave
from engine.errors import HordeError


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path))


def test_games_started_in_the_same_second_get_their_own_files(monkeypatch):
    monkeypatch.setattr(autosave.time, "strftime", lambda _: "20260101-120000")
    first, second = autosave.new_path("roll-them-bones"), autosave.new_path("roll-them-bones")
    assert first != second
    assert first.is_file() and second.is_file()  # taken at once, not when first saved


def test_a_name_taken_but_never_saved_is_no_game_to_resume():
    autosave.new_path("roll-them-bones")
    with pytest.raises(HordeError, match="no unfinished game"):
        autosave.last()
