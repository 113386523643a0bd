"""`horde list`, `horde diff`, `horde validate`: what packs exist and whether they hold up."""

from __future__ import annotations

import json
import re

from tests.cli.conftest import PACK, edit, line_of


def test_list_shows_packs_with_house_rules_and_players(horde):
    r = horde("list")
    assert r.exit_code == 0
    assert PACK in r.output
    assert "quick" in r.output
    assert "1–6" in r.output


def test_diff_prints_effective_changes(horde):
    r = horde("diff", PACK, "quick")
    assert r.exit_code == 0
    assert "params.blocks.default: 16 -> 10" in r.output


def test_diff_of_an_identical_overlay_says_so(horde, tmp_path):
    same = tmp_path / "same.yaml"
    same.write_text(f"extends: {PACK}\n")
    r = horde("diff", PACK, same)
    assert r.exit_code == 0
    assert "no effective changes" in r.output


def test_diff_unknown_house_rule_is_an_error(horde):
    r = horde("diff", PACK, "quik")
    assert r.exit_code == 1
    assert "house rule 'quik'" in r.output
    assert "did you mean 'quick'" in r.output


def test_unknown_pack_suggests_the_closest(horde):
    r = horde("validate", "roll-thm-bones")
    assert r.exit_code == 1
    assert "did you mean 'roll-them-bones'" in r.output


def test_validate_pack_checks_base_and_house_rules(horde):
    r = horde("validate", PACK)
    assert r.exit_code == 0, r.output
    assert re.search(r"✓ roll-them-bones \(base, \d+ house rules?\)", r.output)


def test_validate_overlay_and_scenario_files(horde, pack_copy):
    from engine.pack.loader import rulesets_dir
    scenarios = rulesets_dir().parent / "tests" / "scenarios" / PACK / "turn.yaml"
    r = horde("validate", pack_copy / "house" / "quick.yaml", scenarios)
    assert r.exit_code == 0, r.output
    assert "(overlay)" in r.output
    assert "scenarios)" in r.output


def test_validate_broken_pack_points_at_the_line(horde, pack_copy):
    pack = pack_copy / "pack.yaml"
    edit(pack, "turn.black = roll(black)", "turn.black = roll(blak)")
    line = line_of(pack, "roll(blak)")
    r = horde("validate", pack_copy)
    assert r.exit_code == 1
    assert re.search(rf"pack\.yaml:{line}:\d+: ", r.output), r.output
    assert "✗" in r.output


def test_validate_reports_a_broken_house_rule_once(horde, pack_copy):
    (pack_copy / "house" / "bad.yaml").write_text(
        f"extends: {PACK}\nparams:\n  blocks: {{default: 10, mni: 3}}\n")
    r = horde("validate", pack_copy)
    assert r.exit_code == 1
    assert "bad.yaml:3:" in r.output


def test_validate_checks_the_view_section(horde, pack_copy):
    pack = pack_copy / "pack.yaml"
    edit(pack, 'value: "p.distance"', 'value: "p.distanse"')
    line = line_of(pack, "p.distanse")
    r = horde("validate", pack)
    assert r.exit_code == 1
    assert f"pack.yaml:{line}:" in r.output
    assert "did you mean 'distance'" in r.output


def test_validate_json(horde, pack_copy):
    ok = json.loads(horde("validate", PACK, "--json").stdout)
    assert ok["valid"] is True and ok["problems"] == []
    edit(pack_copy / "pack.yaml", "turn.black = roll(black)", "turn.black = roll(blak)")
    r = horde("validate", pack_copy, "--json")
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert report["valid"] is False
    p = report["problems"][0]
    assert set(p) >= {"file", "line", "col", "message", "hint"}
    assert p["file"].endswith("pack.yaml") and p["line"] > 0


def test_validate_yaml_syntax_error(horde, tmp_path):
    bad = tmp_path / "pack.yaml"
    bad.write_text("pack: broken\ntitle: [unclosed\n")
    r = horde("validate", bad)
    assert r.exit_code == 1
    assert "pack.yaml:" in r.output
