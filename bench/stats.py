"""A two-sample chi-square test, self-contained (scipy is not a dependency).

Used to check that the engine and the hand-written yardstick play the same game: the
distributions of winners and of game lengths from two programs must be indistinguishable.
The survival function of the chi-square distribution is the regularised upper incomplete
gamma function Q(df/2, x/2), computed with the classic series / continued-fraction pair
(Numerical Recipes' `gammq`), accurate to ~1e-12 for the sizes a test uses.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

_EPS = 1e-15
_TINY = 1e-300
_ITERATIONS = 500


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_ITERATIONS):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (Lentz's method; for x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with `df` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if x <= 0:
        return 1.0
    a, half = df / 2.0, x / 2.0
    if half < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, half))
    return _upper_fraction(a, half)


def _merge_sparse(rows: list[list[int]], min_expected: float) -> list[list[int]]:
    """Merge adjacent columns until every expected count is at least `min_expected`."""
    total = sum(map(sum, rows))
    row_sums = [sum(r) for r in rows]
    cols = [list(c) for c in zip(*rows, strict=True)]
    merged: list[list[int]] = []
    pending: list[int] | None = None
    for col in cols:
        pending = col if pending is None else [a + b for a, b in zip(pending, col, strict=True)]
        if min(rs * sum(pending) / total for rs in row_sums) >= min_expected:
            merged.append(pending)
            pending = None
    if pending is not None:
        if merged:
            merged[-1] = [a + b for a, b in zip(merged[-1], pending, strict=True)]
        else:
            merged.append(pending)
    return [list(r) for r in zip(*merged, strict=True)]


def chi2_two_sample(a: Sequence[int], b: Sequence[int],
                    min_expected: float = 5.0) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) for "the counts `a` and `b` over the same
    ordered categories come from one distribution". Sparse neighbouring categories are
    merged first so every expected count is at least `min_expected`."""
    rows = _merge_sparse([list(a), list(b)], min_expected)
    total = sum(map(sum, rows))
    row_sums = [sum(r) for r in rows]
    col_sums = [sum(c) for c in zip(*rows, strict=True)]
    stat = 0.0
    for r, rs in zip(rows, row_sums, strict=True):
        for obs, cs in zip(r, col_sums, strict=True):
            expected = rs * cs / total
            stat += (obs - expected) ** 2 / expected
    df = len(col_sums) - 1
    if df < 1:
        return 0.0, 0, 1.0
    return stat, df, chi2_sf(stat, df)


def counts(values: Iterable[Hashable], categories: Sequence[Hashable]) -> list[int]:
    """How often each of `categories` occurs in `values`, in the categories' order."""
    index = {c: k for k, c in enumerate(categories)}
    out = [0] * len(categories)
    for v in values:
        out[index[v]] += 1
    return out


def binned(values: Iterable[int], edges: Sequence[int]) -> list[int]:
    """Counts of `values` in the bins [edges[0], edges[1]), ..., [edges[-1], inf)."""
    out = [0] * len(edges)
    for v in values:
        k = len(edges) - 1
        while k > 0 and v < edges[k]:
            k -= 1
        out[k] += 1
    return out
