"""Games counted as they come in: the first pieces of work are single games (an early
Ctrl-C has games to report), a batch keeps totals rather than records unless asked, and
totals merged in any order give what one process gives."""

from __future__ import annotations

import random

import pytest

from engine.sim.measures import report
from engine.sim.parallel import simulate
from engine.sim.result import GameRecord, SimResult
from engine.sim.tally import Tally


def stop_at_first_answer(seen: list):
    """A progress callback that is Ctrl-C at the first pieces' answer (as the CLI's
    SIGINT handler raises it), after noting how many games had finished."""
    def progress(done, _total):
        seen.append(done)
        raise KeyboardInterrupt
    return progress


def test_a_ctrl_c_after_the_first_answer_reports_its_games(rtb):
    seen: list[int] = []
    r = simulate(rtb, 2, ["random"], 4000, seed=1, jobs=2, progress=stop_at_first_answer(seen))
    assert seen == [1]  # the first piece was one game, not 20
    assert r.interrupted and 1 <= r.games < 4000
    assert report(r)["games"] == r.games and sum(r.tally.turns.values()) == r.games


def test_a_batch_keeps_totals_and_records_only_on_request(rtb):
    totals = simulate(rtb, 3, ["random", "greedy"], 24, seed=3, jobs=2)
    kept = simulate(rtb, 3, ["random", "greedy"], 24, seed=3, jobs=2, records=True)
    assert totals.records == [] and [r.index for r in kept.records] == list(range(24))
    assert totals.tally == kept.tally
    assert report(totals) | {"seconds": 0} == report(kept) | {"seconds": 0}


def record(i: int, rng: random.Random) -> GameRecord:
    winners = rng.choice([(), (0,), (1,), (0, 1)])
    uses = tuple({a: rng.randint(1, 3) for a in ("roll", "run") if rng.random() < 0.6}
                 for _ in range(2))
    return GameRecord(i, i, winners, rng.randint(3, 40), rng.random() < 0.1,
                      rng.randint(5, 90), uses,
                      {"whole": rng.randint(-5, 5), "part": rng.random() * 10 - 3,
                       "flag": rng.random() < 0.5},
                      not winners and rng.random() < 0.5)


def test_totals_merged_in_any_order_are_the_same_to_the_digit():
    rng = random.Random(7)
    records = [record(i, rng) for i in range(500)]
    whole = Tally(2)
    for rec in records:
        whole.add(rec)
    for trial in range(5):
        order = records[:]
        random.Random(trial).shuffle(order)
        merged = Tally(2)
        for k in range(0, len(order), 37):  # pieces of a few dozen, as workers send them
            piece = Tally(2)
            for rec in order[k:k + 37]:
                piece.add(rec)
            merged.merge(piece)
        assert merged == whole  # exact sums: float metrics too


def test_totals_give_what_the_records_give():
    rng = random.Random(3)
    records = [record(i, rng) for i in range(300)]
    result = SimResult("p", None, {}, 2, ["random"] * 2, 0, requested=300,
                       metric_names=["whole", "part", "flag"])
    for rec in records:
        result.add(rec)
    rep = report(result)
    turns = sorted(r.turns for r in records)
    assert rep["length"]["turns"]["median"] == (turns[149] + turns[150]) / 2
    assert rep["length"]["turns"]["min"] == turns[0] and rep["length"]["turns"]["max"] == turns[-1]
    assert sum(c for _, _, c in rep["length"]["turns"]["histogram"]) == 300
    mean = sum(r.metrics["part"] for r in records) / 300
    part = next(m for m in rep["metrics"] if m["metric"] == "part")
    assert part["value"] == pytest.approx(round(mean, 4), abs=1e-4)
    roll = next(a for a in rep["actions"] if a["action"] == "roll")
    assert roll["games"] == sum(1 for r in records if any("roll" in u for u in r.uses))
    assert roll["per_game"] == round(sum(u.get("roll", 0) for r in records for u in r.uses)
                                     / 300, 4)
