"""Statistics for balance questions, in plain Python (no numeric library needed).

A designer reads "P0 wins 41% of games" and needs to know how sure that is. Everything here
returns an estimate with its 95% interval:

- `wilson`: a proportion (a win rate). Wilson's score interval stays inside [0, 1] and keeps
  its coverage near 0% and 100%, where the textbook `p ± 1.96·se` does not.
- `newcombe_diff`: the difference of two independent proportions (Newcombe's hybrid score
  method 10, built from two Wilson intervals).
- `mean_ci`, `paired_diff`: a mean and a mean of paired differences, Student-t intervals.
  Variants played from the same seeds are paired: game i of both uses the same dice seed.
- `welch`: the difference of two means with unequal variances (Welch–Satterthwaite df).

Student's t distribution comes from the regularized incomplete beta function (a continued
fraction, as in Numerical Recipes), so fractional Welch degrees of freedom are exact.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963...


@dataclass(frozen=True)
class Estimate:
    """A value with its interval; `df` and `p` where a test produced them."""

    value: float
    lo: float
    hi: float
    n: int = 0
    p: float | None = None

    @property
    def half(self) -> float:
        """Half the interval's width: the `± x` of a symmetric interval."""
        return (self.hi - self.lo) / 2

    @property
    def significant(self) -> bool:
        """The interval excludes 0 (for differences)."""
        return self.lo > 0 or self.hi < 0

    def to_dict(self, digits: int = 4) -> dict:
        d = {"value": round(self.value, digits), "lo": round(self.lo, digits),
             "hi": round(self.hi, digits), "n": self.n}
        if self.p is not None:
            d["p"] = round(self.p, 6)
        return d


# ---------- proportions ----------

def wilson(k: int, n: int, z: float = Z95) -> Estimate:
    """k successes in n trials: the rate and its Wilson score interval."""
    if n <= 0:
        return Estimate(0.0, 0.0, 1.0, 0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(centre - half, 0.0), min(centre + half, 1.0), n)


def newcombe_diff(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> Estimate:
    """p2 − p1 for independent samples (k1/n1 before, k2/n2 after), Newcombe's method 10."""
    a, b = wilson(k1, n1, z), wilson(k2, n2, z)
    d = b.value - a.value
    lo = d - math.sqrt((b.value - b.lo) ** 2 + (a.hi - a.value) ** 2)
    hi = d + math.sqrt((b.hi - b.value) ** 2 + (a.value - a.lo) ** 2)
    return Estimate(d, max(lo, -1.0), min(hi, 1.0), min(n1, n2))


# ---------- means ----------

def mean_sd(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n == 1:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))


def mean_ci(xs: Sequence[float], level: float = 0.95, test: bool = False) -> Estimate:
    """The mean of xs with its Student-t interval (a point interval for fewer than 2);
    with `test`, also the p-value of "the mean is 0"."""
    n = len(xs)
    m, sd = mean_sd(xs)
    if n < 2:
        return Estimate(m, m, m, n)
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    p = _t_p(m, sd / math.sqrt(n), n - 1) if test else None
    return Estimate(m, m - half, m + half, n, p)


def mean_ci_of(m, level: float = 0.95) -> Estimate:
    """`mean_ci` of values kept as their count and exact sums (`engine.sim.tally.Moments`)."""
    mean, sd = m.mean(), m.sd()
    if m.n < 2:
        return Estimate(mean, mean, mean, m.n)
    half = t_quantile(0.5 + level / 2, m.n - 1) * sd / math.sqrt(m.n)
    return Estimate(mean, mean - half, mean + half, m.n)


def paired_diff(before: list[float], after: list[float], level: float = 0.95) -> Estimate:
    """The mean of after[i] − before[i] over pairs (same seed), with a paired-t interval."""
    if len(before) != len(after):
        raise ValueError("paired samples must have the same length")
    return mean_ci([b - a for a, b in zip(before, after, strict=True)], level, test=True)


def welch(before: list[float], after: list[float], level: float = 0.95) -> Estimate:
    """mean(after) − mean(before), unequal variances: Welch's t interval and p-value."""
    n1, n2 = len(before), len(after)
    m1, s1 = mean_sd(before)
    m2, s2 = mean_sd(after)
    d = m2 - m1
    if n1 < 2 or n2 < 2:
        return Estimate(d, d, d, min(n1, n2))
    v1, v2 = s1 * s1 / n1, s2 * s2 / n2
    se = math.sqrt(v1 + v2)
    if se == 0:
        return Estimate(d, d, d, min(n1, n2), 1.0 if d == 0 else 0.0)
    df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    half = t_quantile(0.5 + level / 2, df) * se
    return Estimate(d, d - half, d + half, min(n1, n2), _t_p(d, se, df))


def _t_p(diff: float, se: float, df: float) -> float:
    """Two-sided p-value of diff/se under Student's t with df degrees of freedom."""
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return 2 * (1 - t_cdf(abs(diff / se), df))


# ---------- Student's t ----------

def t_cdf(t: float, df: float) -> float:
    x = df / (df + t * t)
    tail = 0.5 * betainc(df / 2, 0.5, x)
    return 1 - tail if t > 0 else tail


def t_quantile(q: float, df: float) -> float:
    """The q-quantile of Student's t (bisection on the CDF; large df: the normal one)."""
    if df > 1e6:
        return NormalDist().inv_cdf(q)
    if q == 0.5:
        return 0.0
    lo, hi = -1.0, 1.0
    while t_cdf(lo, df) > q:
        lo *= 2
    while t_cdf(hi, df) < q:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


# ---------- distributions ----------
# Each takes the values as a list or as counts (value -> how many times it came), which is
# how a batch keeps its game lengths (`engine.sim.tally`): the answers are the same.
Values = Sequence[float] | Mapping[Any, int]

def _counts(values: Values) -> list[tuple[float, int]]:
    """(value, count) pairs in increasing order of value, without empty counts."""
    items = values.items() if isinstance(values, Mapping) else Counter(values).items()
    return sorted((v, c) for v, c in items if c)


def _nth(pairs: list[tuple[float, int]], k: int) -> float:
    """The k-th smallest value (from 0) of the (value, count) pairs."""
    for v, c in pairs:
        if k < c:
            return v
        k -= c
    raise IndexError(k)


def quantile(values: Values, q: float) -> float:
    """Nearest-rank quantile (0 when there are no values)."""
    pairs = _counts(values)
    n = sum(c for _, c in pairs)
    if not n:
        return 0.0
    return float(_nth(pairs, max(math.ceil(q * n) - 1, 0)))


def median(values: Values) -> float:
    """The median (the mean of the middle two of an even number), 0 when there are none."""
    pairs = _counts(values)
    n = sum(c for _, c in pairs)
    if not n:
        return 0.0
    mid = n // 2
    return float(_nth(pairs, mid)) if n % 2 else (_nth(pairs, mid - 1) + _nth(pairs, mid)) / 2


def summary(values: Values) -> dict[str, float]:
    """mean, median and 90th percentile (nearest rank), 0 when there are no values."""
    pairs = _counts(values)
    n = sum(c for _, c in pairs)
    if not n:
        return {"mean": 0.0, "median": 0.0, "p90": 0.0}
    total = sum(v * c for v, c in pairs)
    return {"mean": round(total / n, 4), "median": median(values),
            "p90": quantile(values, 0.9)}


def histogram(values: Values,
              bins: int = 10) -> list[tuple[float, float, int]]:
    """(low, high, count) bins covering the values; integer data gets integer-wide bins."""
    pairs = _counts(values)
    if not pairs:
        return []
    lo, hi = pairs[0][0], pairs[-1][0]
    width: float
    if all(float(v).is_integer() for v, _ in pairs):
        width = max(math.ceil((hi - lo + 1) / bins), 1)
        edges = [lo + k * width for k in range(math.ceil((hi - lo + 1) / width) + 1)]
    else:
        width = (hi - lo) / bins or 1.0
        edges = [lo + k * width for k in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v, c in pairs:
        k = min(int((v - lo) // width), len(counts) - 1)
        counts[k] += c
    return [(edges[k], edges[k + 1], c) for k, c in enumerate(counts)]
