"""Small statistics used by reports: confidence intervals for win rates and means."""

from __future__ import annotations

import math


def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default;
    Wilson 1927). Shared wins (halves) are allowed; (0, 1) when n = 0.

    >>> [round(x, 3) for x in wilson_interval(5, 10)]
    [0.237, 0.763]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): a normal interval for the mean; one value gives
    a zero-width interval.

    >>> mean_interval([1.0, 2.0, 3.0])[0]
    2.0
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    from scipy.stats import norm

    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = float(norm.ppf(0.5 + confidence / 2)) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)
