"""A game record is untrusted input: whatever it holds is one clear error naming the file,
within caps on its size, its nesting, its seed and its number of decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import record

STOPPED = Path(__file__).parent.parent / "reliability" / "fixtures" / \
    "old-record-theyre-coming-stopped.json"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _with(**fields) -> str:
    return json.dumps({**json.loads(STOPPED.read_text()), **fields})


BAD_RECORDS = {
    "5000-digit seed": (_with().replace('"seed": 5', '"seed": ' + "9" * 5000),
                        "a number too large to read"),
    "seed over 64 bits": (_with(seed=1 << 64), "'seed' is not a 64-bit number"),
    "100k nested lists": (_with().replace('"params": {}', '"params": {"a": ' + "[" * 100_000
                                          + "]" * 100_000 + "}"), "JSON nested too deeply"),
    "bots not names": (_with(bots=[1, 2]), "'bots' must name one bot per player"),
    "bots per player": (_with(bots=["random"]), "'bots' must name one bot per player"),
    "nested param": (_with(params={"shamblers": [40]}), "'params' values must be"),
    "null decision": (_with(decisions=["pass", None]), "decisions must be labels"),
    "unknown hash version": (_with(hash_version=99), "'hash_version' is not 1 or 2"),
    "text players": (_with(players="2"), "'players' is missing or malformed"),
    "house not entries": (_with(house=["x"]), "malformed house entry"),
    "not UTF-8": ('{"format": 1, "pack": "\xff"}'.encode("latin-1"), "not text (UTF-8)"),
    "too many players": (_with(players=9, bots=["random"] * 9), "for 1 to 4 players, not 9"),
}


@pytest.mark.parametrize("command", ["replay", "resume"])
@pytest.mark.parametrize("name", BAD_RECORDS)
def test_a_bad_record_is_one_clear_error_naming_the_file(horde, tmp_path, command, name):
    content, why = BAD_RECORDS[name]
    path = tmp_path / "bad.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    r = horde(command, path, input="q\n")
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(str(path)) and why in r.stderr, r.output


def test_a_record_over_the_size_cap_is_not_parsed(tmp_path, monkeypatch):
    monkeypatch.setattr(record, "MAX_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text(_with(decisions=["pass"] * 500))
    with pytest.raises(record.StateError, match="larger than"):
        record.load(path)


def test_a_record_over_the_decision_cap_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(record, "MAX_DECISIONS", 10)
    path = tmp_path / "long.json"
    path.write_text(_with(decisions=["pass"] * 11))
    with pytest.raises(record.StateError, match="more than 10 decisions"):
        record.load(path)


def test_an_illegal_decision_names_the_file(horde, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(_with(decisions=["x" * 10_000]))
    r = horde("replay", path)
    assert r.exit_code == 1 and r.stderr.startswith(f"{path}: decision 1 ('xxx")
    assert len(r.stderr) < 2000  # the label is not printed whole


def test_a_seed_a_record_could_not_keep_is_refused_before_playing(horde):
    r = horde("play", "roll-them-bones", "--players", "random,random", "--seed", 1 << 64)
    assert r.exit_code == 1 and "not a 64-bit number" in r.output
