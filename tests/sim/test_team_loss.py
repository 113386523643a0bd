"""A team loss (every seat lost, as a co-operative game lost to the infection) is no draw:
`State.returns()` is -1 for every seat, and the batch tools count it apart from draws by
the rules and turn-limit draws — in the report, its JSON, the CSV, comparisons, sweeps and
the words that end a game."""

from __future__ import annotations

import csv
import re
import textwrap

import pytest
from rich.console import Console

import engine
from engine.render import result_text
from engine.sim import simulate
from engine.sim.compare import measures_of
from engine.sim.measures import ludii, per_game, report
from engine.sim.output import write_csv
from engine.sim.report import outcomes
from engine.sim.sweep import sweep

# one d3 roll ends the game: 1 all win together, 2 all lose together, 3 a draw
PACK = textwrap.dedent("""
    pack: together
    title: Together
    players: {min: 1, max: 3, default: 2}
    dice:
      d3: {faces: [1, 2, 3]}
    flow:
      - do: |
          r = roll(d3)
          if r == 1:
              win(players)
          elif r == 2:
              lose(players)
              end_game()
          else:
              end_game()
""")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("together") / "pack.yaml"
    path.write_text(PACK)
    return engine.load(str(path))


@pytest.fixture(scope="module")
def batch(game):
    return simulate(game, 2, ["random"], 60, seed=1, records=True)


def ended(game, face: int, players: int = 2):
    def force(S):
        S.forced = [face]
    S = game.new_state(players=players, seed=1, prepare=force)
    S.decision()
    assert S.over
    return S


def test_returns_tell_a_team_loss_from_a_draw(game):
    assert ended(game, 1).returns() == [1.0, 1.0]
    assert ended(game, 2).returns() == [-1.0, -1.0]
    assert ended(game, 3).returns() == [0.0, 0.0]


def test_a_finished_game_says_everyone_lost(game):
    assert result_text(ended(game, 2)) == "everyone loses"
    assert result_text(ended(game, 2, players=1)) == "P0 loses"
    assert result_text(ended(game, 3)) == "no winner"


def test_a_batch_counts_team_losses_apart_from_draws(batch):
    lost = [r.all_lost for r in batch.records]
    assert sum(lost) == batch.team_losses > 0
    assert batch.draws > 0 and batch.team_wins > 0
    assert batch.team_losses + batch.draws + batch.limit_hits == batch.no_winner
    assert all(not r.winners for r in batch.records if r.all_lost)
    rep = report(batch)
    assert rep["team_losses"] == batch.team_losses
    assert rep["outcomes"]["team_loss"]["value"] == pytest.approx(batch.team_losses / 60, abs=1e-4)
    assert rep["outcomes"]["draws"]["value"] == pytest.approx(batch.draws / 60, abs=1e-4)
    assert per_game(batch, "team_loss") == [float(x) for x in lost]
    assert sum(per_game(batch, "draws")) == batch.draws
    m = ludii(batch)
    assert m["drawishness"] == pytest.approx(batch.draws / 60, abs=1e-4)
    assert m["completion"] == pytest.approx((batch.team_wins + batch.team_losses) / 60, abs=1e-4)


def test_the_report_and_the_csv_name_team_losses(batch, tmp_path):
    console = Console(width=120, record=True)
    console.print(outcomes(report(batch), batch))
    text = console.export_text()
    assert re.search(rf"All seats lost\s+{batch.team_losses}\s", text)
    assert re.search(rf"Draw by the rules\s+{batch.draws}\s", text)
    write_csv(tmp_path / "games.csv", [batch])
    rows = list(csv.DictReader((tmp_path / "games.csv").read_text().splitlines()))
    assert [int(r["team_loss"]) for r in rows] == [int(r.all_lost) for r in batch.records]


def test_comparisons_and_sweeps_carry_team_losses(batch):
    assert "team_loss" in measures_of([batch])
    sw = sweep([], [{}], [batch], "team_loss", None)
    assert sw["cells"][0]["team_loss"]["value"] == pytest.approx(batch.team_losses / 60, abs=1e-4)


def test_the_picture_draws_team_losses_apart_from_draws(batch, tmp_path):
    from engine.sim.plots import outcome_bars, sim_plot
    rep = report(batch)
    bars = {name: e for name, e, _ in outcome_bars(rep)}
    assert set(bars) == {"all\nlost", "draw"}
    assert bars["all\nlost"]["value"] == pytest.approx(batch.team_losses / 60, abs=1e-4)
    assert bars["draw"]["value"] == pytest.approx(batch.draws / 60, abs=1e-4)
    sim_plot(rep, batch.tally.turns, tmp_path / "sim.png", "together")
    assert (tmp_path / "sim.png").read_bytes().startswith(b"\x89PNG")
