"""Interval estimates for audit rates: Agresti–Coull for proportions, bootstrap for means.

Example:
    >>> lo, hi = agresti_coull(8, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.479, 0.954)
    >>> agresti_coull(0, 0)
    (None, None)
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence

Z95 = 1.959963984540054
"""Two-sided 95 % normal quantile."""


def agresti_coull(successes: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """Agresti–Coull interval for ``successes / n`` (Agresti & Coull 1998), clipped to [0, 1].

    Adds z²/2 successes and z²/2 failures, then uses the Wald interval around the adjusted
    proportion. ``n == 0`` gives ``(None, None)``.
    """
    if n == 0:
        return None, None
    n_adj = n + z * z
    p_adj = (successes + z * z / 2) / n_adj
    half = z * math.sqrt(p_adj * (1 - p_adj) / n_adj)
    return max(0.0, p_adj - half), min(1.0, p_adj + half)


def ratio(num: float, den: float) -> float | None:
    """``num / den``, or None when ``den`` is 0 (never NaN, never an exception)."""
    return None if den == 0 else num / den


def bootstrap_mean(values: Sequence[float], *, samples: int = 2000, seed: int = 0,
                   level: float = 0.95) -> tuple[float | None, float | None, float | None]:
    """Mean and percentile-bootstrap interval of ``values`` (None entries must be removed first).

    Example:
        >>> bootstrap_mean([1.0, 1.0, 1.0])
        (1.0, 1.0, 1.0)
        >>> bootstrap_mean([])
        (None, None, None)
    """
    if not values:
        return None, None, None
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choice(values) for _ in range(n)) / n for _ in range(samples))
    tail = (1 - level) / 2
    lo = means[int(tail * (samples - 1))]
    hi = means[round((1 - tail) * (samples - 1))]
    return sum(values) / n, lo, hi


__all__ = ["Z95", "agresti_coull", "bootstrap_mean", "ratio"]
