"""The statistics against published textbook values.

Wilson intervals and differences of proportions: Newcombe, "Two-sided confidence intervals
for the single proportion" and "Interval estimation for the difference between independent
proportions" (Statistics in Medicine 17, 1998), method 3 and method 10 tables. Paired and
Welch t: Student's sleep data (Cushny & Peebles), as R's `t.test(extra ~ group, sleep)`
reports it.
"""

from __future__ import annotations

import pytest

from engine.sim.stats import (
    histogram,
    mean_ci,
    newcombe_diff,
    paired_diff,
    quantile,
    summary,
    t_cdf,
    t_quantile,
    welch,
    wilson,
)

SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


@pytest.mark.parametrize("k, n, lo, hi", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombe(k, n, lo, hi):
    e = wilson(k, n)
    assert e.value == pytest.approx(k / n)
    assert e.lo == pytest.approx(lo, abs=1e-4)
    assert e.hi == pytest.approx(hi, abs=1e-4)


def test_wilson_edges():
    assert wilson(0, 0).n == 0 and (wilson(0, 0).lo, wilson(0, 0).hi) == (0.0, 1.0)
    full = wilson(29, 29)
    assert full.hi == 1.0 and full.lo == pytest.approx(0.8830, abs=1e-4)


@pytest.mark.parametrize("k1, n1, k2, n2, lo, hi", [
    (48, 80, 56, 70, 0.0524, 0.3339),
    (3, 10, 9, 10, 0.1705, 0.8090),
    (0, 29, 5, 56, -0.0381, 0.1926),
])
def test_difference_of_proportions_matches_newcombe_method_10(k1, n1, k2, n2, lo, hi):
    e = newcombe_diff(k1, n1, k2, n2)
    assert e.value == pytest.approx(k2 / n2 - k1 / n1)
    assert e.lo == pytest.approx(lo, abs=1e-4)
    assert e.hi == pytest.approx(hi, abs=1e-4)
    assert e.significant == (lo > 0 or hi < 0)


def test_welch_matches_r_on_the_sleep_data():
    # t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776, p = 0.07939,
    # 95 percent CI -3.3654832 0.2054832 (group 1 minus group 2)
    e = welch(SLEEP_2, SLEEP_1)
    assert e.value == pytest.approx(-1.58)
    assert e.lo == pytest.approx(-3.3654832, abs=1e-6)
    assert e.hi == pytest.approx(0.2054832, abs=1e-6)
    assert e.p == pytest.approx(0.07939, abs=1e-5)
    assert not e.significant


def test_paired_t_matches_r_on_the_sleep_data():
    # t.test(extra ~ group, data = sleep, paired = TRUE): t = -4.0621, df = 9,
    # p = 0.002833, 95 percent CI -2.4598858 -0.7001142
    e = paired_diff(SLEEP_2, SLEEP_1)
    assert e.value == pytest.approx(-1.58)
    assert e.lo == pytest.approx(-2.4598858, abs=1e-6)
    assert e.hi == pytest.approx(-0.7001142, abs=1e-6)
    assert e.p == pytest.approx(0.002833, abs=1e-6)
    assert e.significant
    with pytest.raises(ValueError):
        paired_diff([1.0], [1.0, 2.0])


def test_mean_ci_and_student_t():
    assert t_quantile(0.975, 10) == pytest.approx(2.228139, abs=1e-6)
    assert t_quantile(0.975, 1) == pytest.approx(12.706205, abs=1e-5)
    assert t_quantile(0.025, 5) == pytest.approx(-2.570582, abs=1e-6)
    assert t_cdf(0.0, 7) == pytest.approx(0.5)
    e = mean_ci([2.0, 4.0, 6.0])
    assert e.value == 4.0
    assert e.half == pytest.approx(4.302653 * 2 / 3 ** 0.5, abs=1e-5)
    assert mean_ci([5.0]).half == 0.0
    assert mean_ci([]).n == 0
    same = welch([1.0, 1.0], [1.0, 1.0])
    assert same.value == 0 and same.p == 1.0


def test_summaries_and_histograms():
    assert summary([]) == {"mean": 0.0, "median": 0.0, "p90": 0.0}
    assert summary([3, 1, 2]) == {"mean": 2.0, "median": 2.0, "p90": 3.0}
    assert summary(list(range(1, 11))) == {"mean": 5.5, "median": 5.5, "p90": 9.0}
    assert quantile([1, 2, 3, 4], 0.1) == 1.0 and quantile([], 0.5) == 0.0
    h = histogram([1, 1, 2, 5, 30], bins=10)
    assert sum(c for _, _, c in h) == 5
    assert h[0][0] == 1 and h[-1][1] > 30
    assert all(hi - lo == h[0][1] - h[0][0] for lo, hi, _ in h)  # integer-wide, equal bins
    assert histogram([]) == []
    assert sum(c for _, _, c in histogram([0.5, 0.25, 1.0], bins=4)) == 3
