"""Summary statistics for the arena."""

from __future__ import annotations

import math
from collections.abc import Sequence

# Two-sided 95% quantiles of Student's t for small samples (df -> t); 1.96 beyond.
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042,
        40: 2.021, 60: 2.000, 120: 1.980}


def t95(df: int) -> float:
    if df <= 0:
        return math.inf
    for k in sorted(_T95):
        if df <= k:
            return _T95[k]
    return 1.96


def mean_ci95(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean and its 95% confidence interval (Student's t)."""
    n = len(values)
    if n == 0:
        return 0.0, (0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return mean, (-math.inf, math.inf)
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), by linear interpolation."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo = math.floor(pos)
    hi = math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def sign_test(wins: int, losses: int) -> float:
    """The two-sided p-value of the sign test: the chance that ``wins`` and ``losses`` (ties
    left out) split at least this unevenly if either side were as likely to win each one
    (exact binomial tail, summed in log space so that thousands of trials stay finite)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = max(wins, losses)
    log_half = n * math.log(0.5)
    lg = math.lgamma
    tail = sum(math.exp(lg(n + 1) - lg(j + 1) - lg(n - j + 1) + log_half)
               for j in range(k, n + 1))
    return min(1.0, 2 * tail)


def p_text(p: float) -> str:
    """A p-value to one significant digit; one too small for a float is "< 1e-300"."""
    return f"{p:.1g}" if p > 0 else "< 1e-300"
