"""Batch simulation: reproducible, independent of order and of worker count, honest about
draws, and keeping per-game details (actions chosen, metrics) for later questions."""

from __future__ import annotations

import dataclasses

import pytest

import engine
from engine.errors import HordeError, PackError, RuleRuntimeError
from engine.pack.loader import list_packs
from engine.sim import simulate
from engine.sim.batch import play_one, seat_specs
from engine.sim.measures import report
from engine.sim.parallel import Batch, GameSpec, chunks, run_batches
from engine.sim.seeds import bot_seed, derive_seed, game_seed
from tests.sim.conftest import PACK, set_metrics


def without_seconds(result) -> dict:
    d = result.to_dict()
    d.pop("seconds")
    return d


def test_same_seed_same_result(rtb):
    a = simulate(rtb, 3, ["random"], 30, seed=5, records=True)
    b = simulate(rtb, 3, ["random"], 30, seed=5, records=True)
    assert without_seconds(a) == without_seconds(b)
    assert a.records == b.records
    c = simulate(rtb, 3, ["random"], 30, seed=6, records=True)
    assert a.records != c.records


def test_a_game_does_not_depend_on_the_games_before_it(rtb):
    batch = simulate(rtb, 2, ["random"], 12, seed=9, records=True)
    assert play_one(rtb, 2, ["random", "random"], 9, 7) == batch.records[7]


def test_worker_processes_give_the_same_records(rtb):
    one = simulate(rtb, 3, ["random", "greedy"], 24, seed=3, jobs=1, records=True)
    two = simulate(rtb, 3, ["random", "greedy"], 24, seed=3, jobs=2, records=True)
    assert two.records == one.records
    assert without_seconds(two) == without_seconds(one)
    assert [r.index for r in two.records] == list(range(24))


def test_work_is_dealt_round_robin_over_batches(rtb):
    a = Batch.of(rtb, 2, ["random"], 5, 0)
    b = Batch.of(rtb, 2, ["random"], 3, 0)
    serial = list(chunks([a, b], 1))
    assert serial[:4] == [(0, 0, 1), (1, 0, 1), (0, 1, 2), (1, 1, 2)]
    assert sorted(i for bb, lo, hi in serial for i in range(lo, hi) if bb == 0) == list(range(5))
    big = list(chunks([Batch.of(rtb, 2, ["random"], 4000, 0)], 2))
    assert [hi - lo for _, lo, hi in big[:8]] == [1, 1, 2, 2, 4, 4, 8, 8]  # one game first
    assert all(hi - lo == 20 for _, lo, hi in big[10:-1])
    assert [lo for _, lo, _ in big[1:]] == [hi for _, _, hi in big[:-1]] and big[-1][2] == 4000


def test_records_keep_actions_and_metrics(rtb):
    r = simulate(rtb, 2, ["greedy"], 10, seed=2, records=True)
    assert r.metric_names == ["winner_distance"]
    for rec in r.records:
        assert sum(sum(u.values()) for u in rec.uses) == rec.decisions
        assert 1 <= rec.metrics["winner_distance"] <= rtb.params["blocks"]
    assert any("pass" in u for rec in r.records for u in rec.uses)


def test_counts_add_up(rtb):
    r = simulate(rtb, 3, ["random"], 40, seed=1, records=True)
    assert r.games == 40 and not r.interrupted
    winners = sum(1 for rec in r.records if rec.winners)
    assert winners + r.no_winner == 40
    assert sum(r.wins.values()) >= winners
    assert r.turns["mean"] > 0 and r.turns["median"] <= r.turns["p90"]
    assert set(r.to_dict()["wins"]) == {"0", "1", "2"}


def test_turn_limit_games_are_no_winner_draws():
    g = engine.load(PACK)
    g = dataclasses.replace(g, limits={**g.limits, "turns": 2})
    r = simulate(g, 3, ["random"], 5, seed=1, records=True)
    assert r.limit_hits == 5 and r.no_winner == 5
    assert r.turns["p90"] <= 2


def test_progress_is_reported(rtb):
    seen = []
    simulate(rtb, 2, ["random"], 3, seed=1, progress=lambda done, n: seen.append((done, n)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_ctrl_c_keeps_the_games_that_finished(rtb, monkeypatch):
    import engine.sim.parallel as parallel
    real = parallel.play_one

    def play(game, players, specs, seed, index, metrics=None):
        if index == 4:
            raise KeyboardInterrupt
        return real(game, players, specs, seed, index, metrics)

    monkeypatch.setattr(parallel, "play_one", play)
    r = simulate(rtb, 2, ["random"], 10, seed=1, records=True)
    assert r.games == 4 and r.requested == 10 and r.interrupted
    assert r.to_dict()["interrupted"] is True


def test_bots_cycle_over_seats_and_humans_are_refused(rtb):
    assert seat_specs(["a", "b"], 5) == ["a", "b", "a", "b", "a"]
    assert seat_specs([], 2) == ["random", "random"]
    with pytest.raises(HordeError, match="needs bots"):
        simulate(rtb, 2, ["random", "human"], 1)
    with pytest.raises(HordeError, match="not 9"):
        simulate(rtb, 9, ["random"], 1)


def test_errors_name_the_game_to_replay(rtb, monkeypatch):
    class Broken:
        def choose(self, state, decision):
            raise RuleRuntimeError("boom")

    from engine.bots import BOTS
    monkeypatch.setitem(BOTS, "broken", lambda arg, seed, g: Broken())
    with pytest.raises(RuleRuntimeError, match=r"game 0 \(seed \d+\): boom"):
        simulate(rtb, 2, ["broken"], 1)


def test_a_metric_that_does_not_compile_points_into_the_pack(pack_copy):
    path = set_metrics(pack_copy, "  ok: \"count(item_stack)\"\n"
                                  "  bad: \"max([p.distanse for p in players])\"\n")
    with pytest.raises(PackError) as exc:
        simulate(engine.load(pack_copy), 2, ["random"], 1)
    text = str(exc.value)
    assert f"{path}:" in text and "distanse" in text and "did you mean 'distance'" in text


def test_a_metric_must_be_a_number(pack_copy):
    set_metrics(pack_copy, "  leader: \"players[0]\"\n")
    with pytest.raises(HordeError, match="metric 'leader' must be a number"):
        simulate(engine.load(pack_copy), 2, ["random"], 1)


def test_a_rule_error_in_a_worker_comes_back_whole(pack_copy):
    path = set_metrics(pack_copy, "  broken: \"1 / (params.blocks - params.blocks)\"\n")
    with pytest.raises(RuleRuntimeError) as exc:
        simulate(engine.load(pack_copy), 2, ["random"], 4, jobs=2)
    assert "game " in str(exc.value) and str(path) in str(exc.value)


def test_a_game_spec_rebuilds_the_same_rules(rtb):
    g = engine.load(PACK, params={"health": "4"}, house=["quick"])
    spec = GameSpec.of(g)
    assert spec.load().hash == g.hash
    with pytest.raises(HordeError, match="changed on the way"):
        dataclasses.replace(spec, params=()).load()


def test_every_bundled_pack_can_be_simulated():
    for info in list_packs():
        game = engine.load(info.id)
        game = dataclasses.replace(game, limits={**game.limits, "turns": 40})  # the machinery, not the whole game
        bots = ["greedy", "random"] if "greedy" in game.policies else ["random"]
        [r] = run_batches([Batch.of(game, None, bots, 2, 0)])
        assert r.games == 2
        assert report(r)["length"]["turns"]["max"] <= 40


def test_seeds_are_stable_and_distinct():
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    assert 0 <= derive_seed(1) < 2**63
    seeds = {game_seed(0, i) for i in range(100)} | {bot_seed(0, i, s) for i in range(10)
                                                     for s in range(4)}
    assert len(seeds) == 140
