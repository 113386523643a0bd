"""Measures of a batch, on hand-made records whose answers are known."""

from __future__ import annotations

import pytest

from engine.errors import HordeError
from engine.sim.measures import (
    action_rows,
    ludii,
    measure_label,
    parse_measure,
    per_game,
    report,
    scalar,
)
from engine.sim.result import GameRecord, SimResult


def batch(records, players=2, metrics=("score",)) -> SimResult:
    r = SimResult("p", None, {}, players, ["random"] * players, 0, requested=len(records),
                  metric_names=list(metrics), keep_records=True)
    for record in records:
        r.add(record)
    return r


def rec(i, winners=(), turns=10, limit=False, uses=({}, {}), score=1):
    return GameRecord(i, i, tuple(winners), turns, limit, turns, tuple(uses), {"score": score})


@pytest.fixture
def sample():
    # P0 wins 3 of 6, P1 wins 1, one draw by the rules, one turn-limit draw
    return batch([
        rec(0, [0], 8, uses=({"attack": 2}, {})),
        rec(1, [0], 12, uses=({"attack": 1}, {"attack": 1})),
        rec(2, [1], 10, uses=({}, {"attack": 3})),
        rec(3, [0], 6),
        rec(4, [], 14, uses=({"attack": 1}, {})),
        rec(5, [], 30, limit=True),
    ])


def test_report_outcomes(sample):
    rep = report(sample)
    rates = [w["value"] for w in rep["win_rates"]]
    assert rates == [pytest.approx(0.5), pytest.approx(1 / 6, abs=1e-4)]
    assert rep["win_rates"][0]["lo"] < 0.5 < rep["win_rates"][0]["hi"]
    o = rep["outcomes"]
    assert o["no_winner"]["value"] == pytest.approx(2 / 6, abs=1e-4)
    assert o["draws"]["value"] == pytest.approx(1 / 6, abs=1e-4)
    assert o["timeouts"]["value"] == pytest.approx(1 / 6, abs=1e-4)
    assert o["team_win"]["value"] == 0
    turns = rep["length"]["turns"]
    assert turns["mean"] == pytest.approx(80 / 6, abs=1e-3)
    assert (turns["min"], turns["max"], turns["median"]) == (6, 30, 11.0)
    assert turns["p10"] == 6 and turns["p90"] == 30
    assert sum(c for _, _, c in turns["histogram"]) == 6
    assert rep["metrics"] == [{"metric": "score", "value": 1.0, "lo": 1.0, "hi": 1.0, "n": 6}]
    assert rep["requested"] == 6 and not rep["interrupted"]


def test_ludii_measures(sample):
    m = ludii(sample)
    assert m["balance"] == pytest.approx(1 - (0.5 - 1 / 6), abs=1e-4)
    assert m["completion"] == pytest.approx(4 / 6, abs=1e-4)
    assert m["drawishness"] == pytest.approx(1 / 6, abs=1e-4)
    assert m["timeouts"] == pytest.approx(1 / 6, abs=1e-4)
    assert m["advantage"] == pytest.approx(0.5)
    assert m["duration"] == pytest.approx(80 / 6, abs=1e-3)


def test_action_rows_condition_win_rates_on_use(sample):
    [row] = action_rows(sample)
    assert row["action"] == "attack"
    assert row["per_game"] == pytest.approx(8 / 6, abs=1e-4)
    assert row["games"] == 4
    # (game, seat) pairs that used it: (0,P0) won, (1,P0) won, (1,P1) lost, (2,P1) won,
    # (4,P0) lost -> 3 of 5
    assert row["win_rate_used"]["value"] == pytest.approx(3 / 5)
    assert row["win_rate_used"]["n"] == 5
    # the other 7 pairs: (2,P0) lost, (3,P0) won, (5,P0) lost, (0,P1), (3,P1), (4,P1), (5,P1)
    assert row["win_rate_not_used"]["value"] == pytest.approx(1 / 7, abs=1e-4)
    assert [s["games"] for s in row["seats"]] == [3, 2]


def test_a_game_all_seats_win_is_a_team_win():
    r = batch([rec(0, [0, 1]), rec(1, []), rec(2, [0, 1]), rec(3, [1])])
    assert r.team_wins == 2
    assert report(r)["outcomes"]["team_win"]["value"] == 0.5
    assert per_game(r, "team_win") == [1.0, 0.0, 1.0, 0.0]
    solo = batch([rec(0, [0])], players=1)
    assert solo.team_wins == 0  # one player alone is not a team


def test_named_measures(sample):
    assert per_game(sample, "win_rate") == [1, 1, 0, 1, 0, 0]
    assert per_game(sample, "win_rate:1") == [0, 0, 1, 0, 0, 0]
    assert per_game(sample, "no_winner") == [0, 0, 0, 0, 1, 1]
    assert per_game(sample, "draws") == [0, 0, 0, 0, 1, 0]
    assert per_game(sample, "timeouts") == [0, 0, 0, 0, 0, 1]
    assert per_game(sample, "completion") == [1, 1, 1, 1, 0, 0]
    assert per_game(sample, "turns") == [8, 12, 10, 6, 14, 30]
    assert per_game(sample, "metric:score") == [1] * 6
    assert per_game(sample, "balance") is None
    assert scalar(sample, "win_rate").value == 0.5
    assert scalar(sample, "turns").lo < scalar(sample, "turns").value
    assert scalar(sample, "balance").half == 0
    assert measure_label("win_rate:1") == "P1 win rate" and measure_label("metric:x") == "x"


@pytest.mark.parametrize("name, message", [
    ("win_rat", "did you mean 'win_rate'"),
    ("win_rate:5", "no seat 5"),
    ("metric:scor", "did you mean 'score'"),
    ("turns:2", "takes no"),
])
def test_unknown_measures_are_clear_errors(sample, name, message):
    with pytest.raises(HordeError) as exc:
        parse_measure(name, sample)
    assert message in str(exc.value)
