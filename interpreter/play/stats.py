"""Small statistics for balance reports and benchmarks: 95% confidence intervals of a
rate (Wilson) and of a mean (normal approximation), and a two-sided test of the
difference of two rates or two means. Plain Python: no numerical library needed."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

Z95 = 1.959964


@attrs.frozen
class Interval:
    """An estimate with its 95% confidence interval."""

    value: float
    low: float
    high: float


def wilson(successes: float, trials: int) -> Interval:
    """The rate successes/trials with its Wilson score interval (sound near 0 and 1)."""
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    denom = 1 + Z95 ** 2 / trials
    centre = (p + Z95 ** 2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95 ** 2 / (4 * trials ** 2)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean with a normal-approximation interval (the sample's standard error)."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_rates_p(a: float, n: int, b: float, m: int) -> float:
    """Two-sided p-value that rates a/n and b/m differ (pooled two-proportion z test)."""
    if n == 0 or m == 0:
        return 1.0
    pooled = (a + b) / (n + m)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m))
    return 1.0 if se == 0 else normal_p((a / n - b / m) / se)


def rate_vs_p(successes: float, trials: int, expected: float) -> float:
    """Two-sided p-value that a rate differs from `expected` (one-sample z test)."""
    if trials == 0 or expected <= 0 or expected >= 1:
        return 1.0
    se = math.sqrt(expected * (1 - expected) / trials)
    return normal_p((successes / trials - expected) / se)


def paired_p(differences: Sequence[float]) -> float:
    """Two-sided p-value that paired differences have mean 0 (normal approximation)."""
    n = len(differences)
    if n < 2:
        return 1.0
    mean = sum(differences) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    return normal_p(mean / (sd / math.sqrt(n)))


def bh_q_values(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the order given: a finding
    whose q is below 0.05 is one of a set expected to hold at most 5% false discoveries,
    however many were tested (a plain p < 0.05 flags one in twenty by chance)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    q = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        q[i] = min(1.0, running)
    return q


def binomial_p(successes: int, trials: int, expected: float) -> float:
    """Two-sided exact binomial p-value that `successes` of `trials` arise at rate
    `expected`: the chance of an outcome no more likely than the one seen. Exact at any
    size, where a z test on 4 games of 4 would call a coin flip's streak significant."""
    if trials <= 0 or not 0 < expected < 1:
        return 1.0
    pmf = [math.comb(trials, k) * expected ** k * (1 - expected) ** (trials - k) for k in range(trials + 1)]
    seen = pmf[min(max(successes, 0), trials)]
    return min(1.0, sum(p for p in pmf if p <= seen * (1 + 1e-7)))
