"""Plain play (`--plain`, or no terminal) autosaves every game to the data folder as the
full-screen table does, so `horde resume --last` goes on with it."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import PACK


@pytest.fixture
def games(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path))
    return tmp_path / "games"


def decisions(path) -> list:
    return json.loads(path.read_text())["decisions"]


def test_a_plain_game_left_with_q_goes_on_with_resume_last(horde, games):
    r = horde("play", PACK, "--players", "human,random", "--seed", 3, "--plain",
              input="pass\nq\n")
    assert r.exit_code == 0, r.output
    assert "to go on with it: horde resume --last" in r.output
    [saved] = games.glob("*.json")
    played = decisions(saved)
    assert "pass" in played  # the person's decision, and the bots' before it
    assert len(played) > 1
    again = horde("resume", "--last", "--plain", input="q\n")
    assert f"resumed after {len(played)} decisions" in again.output, again.output
    assert list(games.glob("*.json")) == [saved]  # it goes on saving in the same file
    assert len(decisions(saved)) >= len(played)


def test_the_end_of_input_leaves_the_game_autosaved(horde, games):
    """A script whose input runs out: what was played is kept, up to the person's prompt."""
    r = horde("play", PACK, "--players", "human,random", "--seed", 3, input="")
    assert "Stopped" in r.output
    [saved] = games.glob("*.json")
    assert decisions(saved)  # the bots' turns before the person's first prompt


def test_a_finished_plain_game_is_kept_as_over_and_resume_last_skips_it(horde, games):
    r = horde("play", PACK, "--players", "random,random", "--seed", 1, "--plain")
    assert "Game over" in r.output
    [saved] = games.glob("*.json")
    assert saved.name.endswith(".over.json")
    assert horde("replay", saved, "--plain").exit_code == 0
    again = horde("resume", "--last", "--plain")
    assert again.exit_code == 1 and "no unfinished game" in again.output


def test_save_writes_its_file_and_the_game_is_autosaved_too(horde, games, tmp_path):
    mine = tmp_path / "mine.json"
    horde("play", PACK, "--players", "human,random", "--seed", 3, "--save", mine,
          input="pass\nq\n")
    [auto] = games.glob("*.json")
    assert decisions(auto) == decisions(mine)
