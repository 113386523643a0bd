"""Batch simulation: reproducible, independent of order, honest about draws."""

from __future__ import annotations

import pytest

import engine
from engine.errors import HordeError
from engine.sim import simulate
from engine.sim.batch import play_one, seat_specs
from engine.sim.seeds import bot_seed, derive_seed, game_seed
from engine.sim.stats import summary

PACK = "roll-them-bones"


@pytest.fixture(scope="module")
def game():
    return engine.load(PACK)


def without_seconds(result) -> dict:
    d = result.to_dict()
    d.pop("seconds")
    return d


def test_same_seed_same_result(game):
    a = simulate(game, 3, ["random"], 30, seed=5)
    b = simulate(game, 3, ["random"], 30, seed=5)
    assert without_seconds(a) == without_seconds(b)
    assert a.records == b.records
    c = simulate(game, 3, ["random"], 30, seed=6)
    assert a.records != c.records


def test_a_game_does_not_depend_on_the_games_before_it(game):
    batch = simulate(game, 2, ["random"], 12, seed=9)
    assert play_one(game, 2, ["random", "random"], 9, 7) == batch.records[7]


def test_counts_add_up(game):
    r = simulate(game, 3, ["random"], 40, seed=1)
    assert r.games == 40
    winners = sum(1 for rec in r.records if rec.winners)
    assert winners + r.no_winner == 40
    assert sum(r.wins.values()) >= winners
    assert r.turns["mean"] > 0 and r.turns["median"] <= r.turns["p90"]
    assert set(r.to_dict()["wins"]) == {"0", "1", "2"}


def test_turn_limit_games_are_no_winner_draws():
    g = engine.load(PACK)
    g.limits = {**g.limits, "turns": 2}
    r = simulate(g, 3, ["random"], 5, seed=1)
    assert r.limit_hits == 5 and r.no_winner == 5
    assert r.turns["p90"] <= 2


def test_progress_is_reported(game):
    seen = []
    simulate(game, 2, ["random"], 3, seed=1, progress=lambda done, n: seen.append((done, n)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_bots_cycle_over_seats_and_humans_are_refused(game):
    assert seat_specs(["a", "b"], 5) == ["a", "b", "a", "b", "a"]
    assert seat_specs([], 2) == ["random", "random"]
    with pytest.raises(HordeError, match="needs bots"):
        simulate(game, 2, ["random", "human"], 1)


def test_errors_name_the_game_to_replay(game, monkeypatch):
    from engine.errors import RuleRuntimeError

    class Broken:
        def choose(self, state, decision):
            raise RuleRuntimeError("boom")

    from engine.bots import BOTS
    monkeypatch.setitem(BOTS, "broken", lambda arg, seed, g: Broken())
    with pytest.raises(RuleRuntimeError, match=r"game 0 \(seed \d+\): boom"):
        simulate(game, 2, ["broken"], 1)


def test_seeds_are_stable_and_distinct():
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    assert 0 <= derive_seed(1) < 2**63
    seeds = {game_seed(0, i) for i in range(100)} | {bot_seed(0, i, s) for i in range(10)
                                                     for s in range(4)}
    assert len(seeds) == 140


def test_summary():
    assert summary([]) == {"mean": 0.0, "median": 0.0, "p90": 0.0}
    assert summary([3, 1, 2]) == {"mean": 2.0, "median": 2.0, "p90": 3.0}
    assert summary(list(range(1, 11))) == {"mean": 5.5, "median": 5.5, "p90": 9.0}
