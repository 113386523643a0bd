"""`horde sim` and `horde scenario`, and the error boundary every command shares."""

from __future__ import annotations

import json

import pytest

from engine.cli import app as app_module
from tests.cli.conftest import PACK


def sim_json(horde, *args) -> dict:
    r = horde("sim", PACK, "-n", 20, "--json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_sim_json_is_one_object_and_reproducible(horde):
    a = sim_json(horde, "--seed", 7)
    b = sim_json(horde, "--seed", 7)
    assert set(a) >= {"games", "seconds", "wins", "no_winner", "turns"}
    assert set(a["turns"]) == {"mean", "median", "p90"}
    assert a["games"] == 20
    assert set(a["wins"]) == {"0", "1", "2"}
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_sim_seed_players_bots_and_params_are_used(horde):
    base = sim_json(horde, "--seed", 1)
    other = sim_json(horde, "--seed", 2)
    assert base["wins"] != other["wins"] or base["turns"] != other["turns"]
    two = sim_json(horde, "--players", 2, "--bots", "random", "--set", "blocks=6")
    assert two["players"] == 2 and two["bots"] == ["random", "random"]
    assert two["params"]["blocks"] == 6


def test_sim_table(horde):
    r = horde("sim", PACK, "-n", 10)
    assert r.exit_code == 0
    for text in ("Win rate", "P0", "No winner", "Turn limit", "median", "p90"):
        assert text in r.output


def test_sim_says_which_house_rules_it_played(horde):
    r = horde("sim", PACK, "-n", 1, "--house", "crowbar")
    assert r.exit_code == 0, r.output
    assert "1 game, 3 players, seed 0 — roll-them-bones + crowbar (" in r.output
    assert sim_json(horde, "--house", "crowbar")["house"] == ["crowbar"]
    assert sim_json(horde)["house"] == []


def test_sim_needs_bots(horde):
    r = horde("sim", PACK, "-n", 2, "--bots", "human,random")
    assert r.exit_code == 1
    assert "needs bots at every seat" in r.output
    r = horde("sim", PACK, "-n", 2, "--bots", "randon")
    assert r.exit_code == 1
    assert "did you mean 'random'" in r.output


def test_scenario_command_reports_each_scenario_with_rule_ids(horde):
    from engine.pack.loader import rulesets_dir
    folder = rulesets_dir().parent / "tests" / "scenarios" / PACK
    r = horde("scenario", folder / "turn.yaml")
    assert r.exit_code == 0, r.output
    assert "✓ " in r.output and "[RTB-" in r.output
    assert "0 failed" in r.output


def test_scenario_command_fails_on_a_broken_rule(horde, tmp_path):
    f = tmp_path / "wrong.yaml"
    f.write_text(f"""
- scenario: a failed roll costs two health (it does not)
  rules: [X-1]
  pack: {PACK}
  players: 2
  rolls: [6, zombie, run, run, run, run, run]
  decisions: []
  expect: ["players[0].health == 1"]
- scenario: a game stopped before its first turn has played no turn
  pack: {PACK}
  players: 2
  turns: 0
  expect: ["turn_count() == 0"]
""")
    r = horde("scenario", f)
    assert r.exit_code == 1
    assert "✗ a failed roll costs two health" in r.output
    assert "[X-1]" in r.output
    assert "1 passed, 1 failed" in r.output


def test_scenario_file_that_cannot_load(horde, tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("scenario: x\npack: no-such-pack\nexpect: [true]\nbogus: 1\n")
    r = horde("scenario", f)
    assert r.exit_code == 1
    assert "bad.yaml" in r.output


def test_ctrl_c_exits_130_quietly(horde, monkeypatch):
    def interrupted(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr("engine.sim.simulate", interrupted)
    r = horde("sim", PACK, "-n", 1)
    assert r.exit_code == 130
    assert r.output == ""


def test_a_bug_is_one_line_not_a_traceback(horde, monkeypatch):
    def broken(*a, **kw):
        raise ValueError("oops")
    monkeypatch.setattr("engine.sim.simulate", broken)
    monkeypatch.delenv("HORDE_DEBUG", raising=False)
    r = horde("sim", PACK, "-n", 1)
    assert r.exit_code == 2
    assert "internal error: ValueError: oops" in r.output
    assert "This is a bug in horde " in r.output and "(Python " in r.output  # which version
    assert "Traceback" not in r.output


@pytest.mark.parametrize("command", ["list", "validate", "play", "replay", "sim", "scenario",
                                     "diff"])
def test_every_command_module_registers(command):
    import typer.main
    group = typer.main.get_command(app_module.app)
    assert command in group.commands
