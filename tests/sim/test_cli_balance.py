"""`horde sim`, `horde compare` and `horde sweep` as a designer types them."""

from __future__ import annotations

import csv
import json

import pytest

from engine.cli.app import app
from tests.sim.conftest import PACK


def test_sim_report_shows_intervals_lengths_actions_metrics_and_measures(horde):
    r = horde("sim", PACK, "-n", 20, "--players", 2, "--bots", "greedy,random", "--seed", 3)
    assert r.exit_code == 0, r.output
    for text in ("95% interval", "P0", "greedy", "No winner", "by the rules", "Turn limit",
                 "p10", "p90", "Turns per game", "won if used", "winner_distance",
                 "Balance", "completion", "drawishness", "games/s"):
        assert text in r.output, text


def test_sim_json_has_the_full_report(horde):
    r = horde("sim", PACK, "-n", 10, "--json", "--seed", 2)
    d = json.loads(r.stdout)
    assert set(d["turns"]) == {"mean", "median", "p90"}  # the stable summary stays as it was
    assert {"win_rates", "outcomes", "length", "actions", "metrics", "measures"} <= set(d)
    assert d["win_rates"][0]["lo"] <= d["win_rates"][0]["value"] <= d["win_rates"][0]["hi"]
    assert d["length"]["turns"]["p10"] <= d["length"]["turns"]["p90"]


def test_sim_jobs_do_not_change_the_numbers(horde):
    a = json.loads(horde("sim", PACK, "-n", 16, "--json", "--jobs", 1, "--seed", 4).stdout)
    b = json.loads(horde("sim", PACK, "-n", 16, "--json", "--jobs", 2, "--seed", 4).stdout)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_sim_writes_csv_and_plot(horde, tmp_path):
    r = horde("sim", PACK, "-n", 6, "--csv", tmp_path / "g.csv", "--plot", tmp_path / "g.png")
    assert r.exit_code == 0, r.output
    with (tmp_path / "g.csv").open() as f:
        assert len(list(csv.DictReader(f))) == 6
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    assert "wrote" in r.output


def test_ctrl_c_still_reports_and_writes_what_finished(horde, tmp_path, monkeypatch):
    import engine.sim.parallel as parallel
    real = parallel.play_one

    def play(game, players, specs, seed, index, metrics=None):
        if index == 3:
            raise KeyboardInterrupt
        return real(game, players, specs, seed, index, metrics)

    monkeypatch.setattr(parallel, "play_one", play)
    r = horde("sim", PACK, "-n", 50, "--csv", tmp_path / "g.csv")
    assert r.exit_code == 130
    assert "3 of 50" in r.output and "Win rate" in r.output
    with (tmp_path / "g.csv").open() as f:
        assert len(list(csv.DictReader(f))) == 3


def test_compare_with_set_is_base_against_those_params(horde):
    r = horde("compare", PACK, "--set", "health=5", "-n", 60, "--seed", 1, "--players", 2)
    assert r.exit_code == 0, r.output
    for text in ("base", "health=5", "difference", "95% interval", "sig.", "P0 win rate",
                 "no winner", "turns", "winner_distance"):
        assert text in r.output, text
    assert "health=5: " in r.output


def test_compare_variants_json_plot_and_csv(horde, tmp_path):
    r = horde("compare", PACK, "base", "quick", "quick+health=4", "-n", 10, "--json",
              "--plot", tmp_path / "c.png", "--csv", tmp_path / "c.csv")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [v["label"] for v in d["variants"]] == ["base", "quick", "quick+health=4"]
    assert len(d["sentences"]) == 2
    assert all(len(row["diffs"]) == 2 for row in d["rows"])
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")
    with (tmp_path / "c.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 30 and rows[-1]["variant"] == "quick+health=4"


@pytest.mark.parametrize("args, message", [
    (["base"], "at least two variants"),
    (["base", "base"], "named twice"),
    (["base", "helth=4"], "did you mean 'health'"),
    (["base", "mode:nope"], "unknown mode 'nope'"),
    (["base", "no-such-rule"], "no such file or house rule"),
])
def test_compare_errors(horde, args, message):
    r = horde("compare", PACK, *args, "-n", 2)
    assert r.exit_code == 1
    assert message in r.output


def test_sweep_table_target_and_heatmap(horde, tmp_path):
    r = horde("sweep", PACK, "--param", "blocks=6:10:4", "--param", "health=2:3", "-n", 20,
              "--players", 2, "--target", "win_rate=0.4", "--plot", tmp_path / "s.png")
    assert r.exit_code == 0, r.output
    assert "4 combinations, 20 games each" in r.output
    assert "Closest to P0 win rate = 40%" in r.output and "★" in r.output
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG")


def test_sweep_json_and_measures(horde):
    r = horde("sweep", PACK, "--param", "health=2,4", "-n", 10, "--target", "turns=15",
              "--json")
    d = json.loads(r.stdout)
    assert d["measure"] == "turns" and d["target"] == 15
    assert sorted(c["rank"] for c in d["cells"]) == [0, 1]
    r = horde("sweep", PACK, "--param", "health=2,4", "-n", 2,
              "--measure", "metric:winner_distance")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("args, message", [
    (["--param", "blocks=5"], "did not"),
    (["--param", "blocks=9:3"], "LO <= HI"),
    (["--param", "blocks=4:6", "--target", "win_rat=0.5"], "did you mean 'win_rate'"),
    (["--param", "blockz=4:6"], "unknown param 'blockz'"),
    (["--param", "x=1:2", "--param", "y=1:2", "--param", "z=1:2", "--plot", "a.png"],
     "one or two params"),
])
def test_sweep_errors(horde, args, message):
    r = horde("sweep", PACK, *args, "-n", 1)
    if message == "did not":  # a single value is a valid (if dull) sweep
        assert r.exit_code == 0, r.output
        return
    assert r.exit_code == 1
    assert message in r.output


def test_the_balance_commands_are_registered():
    import typer.main
    group = typer.main.get_command(app)
    assert {"sim", "compare", "sweep"} <= set(group.commands)
