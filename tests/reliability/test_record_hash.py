"""The pack hash covers what decides play (key order too), records and saved states made
before it did still load, and play, stop, resume and replay work for every bundled pack."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import engine
from engine import record
from engine.errors import StateError
from engine.pack.loader import rulesets_dir
from tests.cli.conftest import edit

FIXTURES = Path(__file__).parent / "fixtures"
PACKS = ["roll-them-bones", "theyre-coming", "defcon-z"]


@pytest.fixture
def pack_copy(tmp_path) -> Path:
    dst = tmp_path / "roll-them-bones"
    shutil.copytree(rulesets_dir() / "roll-them-bones", dst)
    return dst


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


# ---------- records and saves from before the hash covered key order ----------

@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("old-record-*.json")))
def test_old_records_still_replay(horde, name):
    old = json.loads((FIXTURES / name).read_text())
    assert "hash_version" not in old  # made by the code before it
    assert horde("replay", FIXTURES / name).exit_code == 0
    assert list(record.replay(old))[-1].history == old["decisions"]


def test_an_old_stopped_record_resumes_and_is_saved_with_the_new_hash(horde, tmp_path):
    saved = tmp_path / "game.json"
    shutil.copy(FIXTURES / "old-record-theyre-coming-stopped.json", saved)
    r = horde("resume", saved, "--players", "random,random")
    assert r.exit_code == 0 and "Game over:" in r.output
    after = json.loads(saved.read_text())
    assert after["hash_version"] == 2
    assert after["pack_hash"] == engine.load("theyre-coming").hash
    assert horde("replay", saved).exit_code == 0


def test_an_old_record_of_changed_rules_is_still_refused(tmp_path):
    old = json.loads((FIXTURES / "old-record-roll-them-bones.json").read_text())
    old["pack_hash"] = "0" * 16
    with pytest.raises(StateError, match="changed since the game was recorded"):
        list(record.replay(old))


@pytest.mark.parametrize("pack", ["roll-them-bones", "defcon-z"])
def test_old_saved_states_still_load(pack):
    data = json.loads((FIXTURES / f"old-state-{pack}.json").read_text())
    assert "hash_version" not in data
    game = engine.load(pack)
    S = game.state_from_dict(data)
    assert list(S.history) == data["history"]
    data["hash"] = "0" * 16
    with pytest.raises(StateError, match="different version"):
        game.state_from_dict(data)


def test_reordered_zones_are_changed_rules(horde, pack_copy, tmp_path):
    saved = tmp_path / "game.json"
    horde("play", pack_copy, "--players", "random,random", "--seed", 3, "--save", saved)
    edit(pack_copy / "pack.yaml",
         "  item_stack: {shuffle: true, visible: none, refill: item_discard}\n"
         "  item_discard: {}\n",
         "  item_discard: {}\n"
         "  item_stack: {shuffle: true, visible: none, refill: item_discard}\n")
    r = horde("replay", saved)
    assert r.exit_code == 1 and "changed since the game was recorded" in r.output


def test_the_hash_is_what_the_game_was_built_with():
    from engine.pack.build import pack_hash
    for pack in PACKS:
        game = engine.load(pack)
        S = game.new_state(players=2, seed=1)
        for _ in range(20):  # or until the game is over, whichever comes first
            d = S.decision()
            if d is None:
                break
            S.apply(d.actions[-1])
        assert S.history and pack_hash(game.raw, game.params, game.mode) == game.hash  # play changes no input


# ---------- every bundled pack: play, stop, resume, replay ----------

@pytest.mark.parametrize("pack", PACKS)
@pytest.mark.parametrize("stop", ["1\nq\n", "1\n"])  # q at a prompt, or the end of input
def test_a_stopped_game_is_saved_resumed_and_replayed(horde, tmp_path, pack, stop):
    saved = tmp_path / "game.json"
    r = horde("play", pack, "--players", "human,random", "--seed", 1, "--save", saved,
              input=stop)
    assert r.exit_code == 0 and "Stopped" in r.output
    before = json.loads(saved.read_text())
    assert before["hash_version"] == 2 and before["decisions"]
    r = horde("resume", saved, input="1\n1\nq\n")
    assert r.exit_code == 0 and ("Stopped" in r.output or "Game over:" in r.output)
    after = json.loads(saved.read_text())["decisions"]
    assert after[:len(before["decisions"])] == before["decisions"]
    assert len(after) > len(before["decisions"])
    assert horde("replay", saved).exit_code == 0


@pytest.mark.parametrize("pack", ["roll-them-bones", "theyre-coming"])  # quick to play out
def test_a_finished_game_replays_to_its_result(horde, tmp_path, pack):
    done = tmp_path / "done.json"
    r = horde("play", pack, "--players", "random,random", "--seed", 3, "--save", done)
    assert r.exit_code == 0 and json.loads(done.read_text())["hash_version"] == 2
    result = [line for line in r.output.splitlines() if line.startswith("Game over:")]
    shown = horde("replay", done)
    assert shown.exit_code == 0 and result[-1] in shown.output
    assert "the game is over" in horde("resume", done).output
