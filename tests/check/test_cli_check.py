"""`horde check` from the command line: the summary, the failure report, the scenario it
writes, the example database that retries a known failure first, and bad input."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from tests.check.conftest import fixture

PACK = "roll-them-bones"



def test_the_reference_pack_keeps_every_law(horde):
    r = horde("check", PACK, "-n", 8, "--seed", 0)
    assert r.exit_code == 0, r.output
    assert f"✓ {PACK}: no law broken in" in r.output
    for words in ("3 invariants", "conservation", "round-trip", "view", "ends", "determinism"):
        assert words in r.output


def test_a_broken_house_rule_is_reported_with_a_reproduction(horde, tmp_path):
    out = tmp_path / "repro.yaml"
    r = horde("check", PACK, "--house", fixture("heal-past-max"), "-n", 200, "--seed", 2,
              "--out", out)
    assert r.exit_code == 1, r.output
    text = r.output
    assert "a law is broken" in text
    assert "law:    player field 'health' stays within 0..3" in text
    assert "where:  " in text and "rulesets/roll-them-bones/pack.yaml" in text
    assert "last action: first-aid, written at" in text and "heal-past-max.yaml" in text
    assert "smallest game found:" in text
    spec = yaml.safe_load(out.read_text())
    assert spec["pack"] == PACK and spec["house"][0].endswith("heal-past-max.yaml")
    assert spec["expect"] == ["all([p.health >= 0 and p.health <= params.health for p in players])"]
    replay = horde("scenario", out)
    assert replay.exit_code == 1 and "expectation failed" in replay.output


def test_the_scenario_goes_to_the_working_folder_by_default(horde, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = horde("check", PACK, "--house", fixture("endless"), "--set", "health=5", "-n", 5)
    assert r.exit_code == 1
    written = tmp_path / f"horde-check-{PACK}.yaml"
    spec = yaml.safe_load(written.read_text())
    assert spec["params"] == {"health": 5} and spec["expect_law"] == ["ends"]
    assert "it can go on forever" in r.output
    assert horde("scenario", written).exit_code == 1


def test_a_known_failure_is_retried_first(horde, tmp_path, private_cache):
    """The example database keeps the shrunk failure: one game is then enough to see it
    again. (A seeded run is repeatable, so it neither reads nor writes the database.)"""
    house = fixture("copying-keys")
    first = horde("check", PACK, "--house", house, "-n", 300, "-o", tmp_path / "a.yaml")
    assert first.exit_code == 1, first.output
    assert any((private_cache / "hypothesis").rglob("*")), "no example database written"
    again = horde("check", PACK, "--house", house, "-n", 1, "-o", tmp_path / "b.yaml")
    assert again.exit_code == 1, again.output
    games = int(re.search(r"\((\d+) games?,", again.output).group(1))
    assert games <= 3  # the stored failure, and its final replay
    assert yaml.safe_load((tmp_path / "b.yaml").read_text())["expect_law"] == ["conservation"]


def test_bad_input_is_one_clear_error(horde):
    r = horde("check", PACK, "--players", 9)
    assert r.exit_code == 1 and "for 1 to 6 players, not 9" in r.output
    r = horde("check", PACK, "--set", "blocks=many")
    assert r.exit_code == 1 and "blocks" in r.output


def test_a_pack_by_path_and_a_house_rule_by_name_are_written_relative(horde, tmp_path):
    import shutil

    from engine.pack.loader import rulesets_dir
    pack = tmp_path / "mine"
    shutil.copytree(rulesets_dir() / PACK, pack)
    endless = Path(fixture("endless")).read_text().replace("extends: roll-them-bones",
                                                           "extends: ../pack.yaml")
    (pack / "house" / "endless.yaml").write_text(endless)
    out = tmp_path / "found" / "repro.yaml"
    r = horde("check", pack, "--house", "endless", "-n", 5, "-o", out)
    assert r.exit_code == 1, r.output
    spec = yaml.safe_load(out.read_text())
    assert spec["pack"] == "../mine/pack.yaml"
    assert spec["house"] == ["../mine/house/endless.yaml"]
    replay = horde("scenario", out)
    assert replay.exit_code == 1 and "it can go on forever" in replay.output
