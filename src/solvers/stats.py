"""Small statistics used by reports: confidence intervals for win rates."""

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
