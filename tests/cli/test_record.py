"""Game records as a library: what they hold, atomic writes, replay and its refusals."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import record
from engine.errors import StateError
from tests.cli.conftest import PACK, edit


def played(game, seed: int, moves: int | None = None):
    S = game.new_state(players=2, seed=seed)
    rng = random.Random(seed)
    while not S.over and (moves is None or len(S.history) < moves):
        S.apply(rng.choice(S.decision().actions))
    return S


def test_replay_rebuilds_every_state():
    game = engine.load(PACK)
    S = played(game, 3)
    rec = record.make_record(S, PACK, bots=["random", "random"])
    assert rec["pack"] == PACK and rec["pack_hash"] == game.hash
    states = list(record.replay(rec))
    assert len(states) == len(S.history) + 1
    assert states[-1] == S
    assert [len(s.history) for s in states] == list(range(len(S.history) + 1))


def test_save_is_atomic_and_loads_back(tmp_path):
    S = played(engine.load(PACK), 4)
    path = tmp_path / "g.json"
    rec = record.make_record(S, PACK)
    record.save(rec, path)
    assert record.load(path) == rec
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temp file left


def test_a_path_pack_is_recorded_absolute(pack_copy, monkeypatch, tmp_path):
    monkeypatch.chdir(pack_copy.parent)
    ref = f"./{pack_copy.name}"  # a bare id would name the bundled pack
    S = played(engine.load(ref, house=["quick"]), 1, moves=2)
    rec = record.make_record(S, ref, house=["quick"])
    assert rec["pack"] == str(pack_copy.resolve())
    assert rec["house"][0]["path"] == str((pack_copy / "house" / "quick.yaml").resolve())
    monkeypatch.chdir(tmp_path)
    assert list(record.replay(rec))


def test_replay_refuses_changed_rules(pack_copy):
    game = engine.load(pack_copy)
    rec = record.make_record(played(game, 2, moves=3), pack_copy)
    edit(pack_copy / "pack.yaml", "health: {default: 3", "health: {default: 4")
    with pytest.raises(StateError, match="changed since the game was recorded"):
        list(record.replay(rec))


def test_replay_refuses_a_missing_house_file(pack_copy):
    house = pack_copy / "house" / "quick.yaml"
    game = engine.load(pack_copy, house=[house])
    rec = record.make_record(played(game, 2, moves=3), pack_copy, house=[house])
    house.unlink()
    with pytest.raises(StateError, match="missing"):
        list(record.replay(rec))


@pytest.mark.parametrize("data", [[], {"format": 2}, {"format": 1, "pack": 3},
                                  {"format": 1, "pack": PACK, "mode": None, "house": [],
                                   "params": {}, "players": 2, "seed": True, "bots": [],
                                   "pack_hash": "x", "decisions": []}])
def test_malformed_records_are_refused(data, tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    with pytest.raises(StateError):
        record.load(path)
