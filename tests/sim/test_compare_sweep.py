"""Comparisons of variants and sweeps of params: syntax, pairing, sentences, ranking."""

from __future__ import annotations

import pytest

from engine.errors import HordeError
from engine.sim.compare import compare, difference, load_variant, parse_variant, sets_variant
from engine.sim.parallel import Batch, run_batches
from engine.sim.result import GameRecord, SimResult
from engine.sim.sweep import combinations, label_of, parse_param, parse_target, sweep
from tests.sim.conftest import PACK


def result(label, wins, turns, seed=0, players=2):
    """A batch whose game i was won by wins[i] (None: nobody) and lasted turns[i]."""
    r = SimResult("p", None, {}, players, ["random"] * players, seed, requested=len(wins),
                  label=label, keep_records=True)
    for i, (w, t) in enumerate(zip(wins, turns, strict=True)):
        r.add(GameRecord(i, i, () if w is None else (w,), t, False, t, ({}, {}), {}))
    return r


def test_variant_syntax():
    v = parse_variant("quick+health=4,blocks=20")
    assert (v.label, v.mode, v.house, v.params) == (
        "quick+health=4,blocks=20", None, ["quick"], {"health": "4", "blocks": "20"})
    v = parse_variant("mode:hard+house:my-rule.yaml")
    assert (v.mode, v.house, v.params) == ("hard", ["my-rule.yaml"], {})
    assert parse_variant("base").params == {} and parse_variant("base").house == []
    assert sets_variant({"health": "4"}) == "health=4"
    for bad in ("", "mode:a+mode:b", "=4"):
        with pytest.raises(HordeError):
            parse_variant(bad)


def test_variants_load_as_their_parts_say():
    g = load_variant(PACK, parse_variant("quick+health=4"))
    assert g.params == {"blocks": 10, "health": 4}
    with pytest.raises(HordeError, match="did you mean 'health'"):
        load_variant(PACK, parse_variant("helth=4"))


def test_shared_seeds_are_paired_and_others_are_not():
    a = result("base", [0, 0, 1, 0, None, 1, 0, 0], [10, 12, 9, 11, 10, 8, 12, 10])
    b = result("x", [0, 1, 1, 0, 0, 1, 0, 0], [11, 13, 10, 12, 11, 9, 13, 11])
    d, method = difference(a, b, "turns")
    assert method == "paired" and d.value == 1 and d.lo == d.hi == 1  # every game +1 turn
    d, method = difference(a, b, "win_rate:1")
    assert method == "paired" and d.value == pytest.approx(1 / 8)
    other_seed = result("y", [0, 1], [11, 13], seed=5)
    d, method = difference(a, other_seed, "win_rate:0")
    assert method == "newcombe"
    d, method = difference(a, other_seed, "turns")
    assert method == "welch"
    assert difference(a, b, "balance") == (None, "none")


def test_comparison_rows_and_sentences():
    n = 400
    base = result("base", [0 if i % 4 == 0 else 1 if i % 4 == 1 else None for i in range(n)],
                  [10] * n)
    more = result("health=4", [0 if i % 4 in (0, 2) else 1 if i % 4 == 1 else None
                               for i in range(n)], [10 + (i % 3) for i in range(n)])
    cmp = compare([base, more])
    rows = {r["measure"]: r for r in cmp["rows"]}
    assert list(rows) == ["win_rate:0", "win_rate:1", "no_winner", "turns", "decisions",
                          "balance"]
    p0 = rows["win_rate:0"]
    assert [v["value"] for v in p0["values"]] == [0.25, 0.5]
    assert p0["diffs"][0]["significant"] and p0["diffs"][0]["method"] == "paired"
    assert not rows["win_rate:1"]["diffs"][0]["significant"]
    [sentence] = cmp["sentences"]
    assert sentence.startswith("health=4: P0 win rate 25.0% → 50.0%, +25.0 ± ")
    assert "no winner 50.0% → 25.0%" in sentence and "turns longer (10.0 → 11.0)" in sentence
    assert "P1 win rate" not in sentence
    same = compare([base, result("again", [w for w in [0, 1, None, None] * 100], [10] * n)])
    assert same["sentences"] == ["again: no significant change in win rates, draws or length "
                                 "(400 games)."]


def test_a_real_comparison_on_common_seeds(rtb):
    quick = load_variant(PACK, parse_variant("health=5"))
    a, b = run_batches([Batch.of(rtb, 2, ["random"], 60, 4, "base", records=True),
                        Batch.of(quick, 2, ["random"], 60, 4, "health=5", records=True)])
    assert [r.seed for r in a.records] == [r.seed for r in b.records]  # same dice seeds
    cmp = compare([a, b])
    assert cmp["variants"][1]["label"] == "health=5"
    rows = {r["measure"]: r for r in cmp["rows"]}
    assert rows["metric:winner_distance"]["diffs"][0]["method"] == "paired"
    assert rows["no_winner"]["diffs"][0]["value"] < 0  # more health: fewer games nobody wins


def test_param_ranges_and_targets():
    assert parse_param("blocks=10:24:2").values == [10, 12, 14, 16, 18, 20, 22, 24]
    assert parse_param("health=2:5").values == [2, 3, 4, 5]
    assert parse_param("rule=easy,hard,true").values == ["easy", "hard", True]
    for bad in ("blocks", "blocks=5:1", "blocks=1:5:0", "blocks=a:b", "blocks=1:2:3:4"):
        with pytest.raises(HordeError):
            parse_param(bad)
    assert parse_target("win_rate=0.5") == ("win_rate", 0.5)
    assert parse_target("no_winner=10%") == ("no_winner", pytest.approx(0.1))
    for bad in ("win_rate", "turns=many"):
        with pytest.raises(HordeError):
            parse_target(bad)
    combos = combinations([parse_param("a=1:2"), parse_param("b=x,y")])
    assert combos == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"},
                      {"a": 2, "b": "y"}]
    assert label_of(combos[1]) == "a=1, b=y"
    with pytest.raises(HordeError, match="more than"):
        combinations([parse_param("a=1:100"), parse_param("b=1:100")])
    with pytest.raises(HordeError, match="twice"):
        combinations([parse_param("a=1:2"), parse_param("a=3:4")])


def test_sweep_ranks_cells_by_distance_to_the_target():
    ranges = [parse_param("x=1:3")]
    combos = combinations(ranges)
    results = [result(label_of(c), w, [10] * 10) for c, w in zip(combos, [
        [0] * 2 + [1] * 8,       # P0 wins 20%
        [0] * 5 + [1] * 5,       # 50%
        [0] * 9 + [1] * 1,       # 90%
    ], strict=True)]
    sw = sweep(ranges, combos, results, "win_rate", 0.45)
    assert [c["rank"] for c in sw["cells"]] == [1, 0, 2]
    assert sw["closest"][0] == "x=2"
    assert sw["cells"][1]["fits"] and not sw["cells"][2]["fits"]
    assert sw["rate"] and sw["measure_label"] == "P0 win rate"
    plain = sweep(ranges, combos, results, "turns", None)
    assert all(c["rank"] is None for c in plain["cells"]) and plain["closest"] == []
