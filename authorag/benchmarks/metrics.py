"""Pure metric functions for AuthorityBench-open: rank correlation, pair accuracy, bootstrap, stance.

Every function takes plain sequences and returns plain floats; none reads data or global state,
so each has a hand-worked test fixture in ``tests/benchmarks/test_metrics.py``.

Conventions:
    * Ties get average ranks (Spearman) and the tau-b correction (Kendall).
    * A constant prediction carries no ranking information: both correlations return 0.0
      instead of NaN, so a method that knows nothing scores like chance, not "undefined".

Example:
    >>> spearman([1, 2, 3], [10, 30, 20])
    0.5
    >>> kendall_tau_b([1, 2, 3], [10, 30, 20])
    0.3333333333333333
"""
from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from authorag.errors import ConfigError

T = TypeVar("T")


def _check_pair(x: Sequence[float], y: Sequence[float]) -> None:
    if len(x) != len(y):
        raise ConfigError(f"x and y must have the same length, got {len(x)} and {len(y)}")
    if len(x) < 2:
        raise ConfigError(f"a rank correlation needs at least 2 items, got {len(x)}")


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ascending ranks; tied values share the mean of their positions.

    Example:
        >>> average_ranks([10, 20, 20, 5])
        [2.0, 3.5, 3.5, 1.0]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        mean_rank = (start + end) / 2.0 + 1.0
        for pos in range(start, end + 1):
            ranks[order[pos]] = mean_rank
        start = end + 1
    return ranks


def _pearson(x: Sequence[float], y: Sequence[float]) -> float:
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx <= 0.0 or syy <= 0.0:
        return 0.0
    return sxy / math.sqrt(sxx * syy)


def spearman(truth: Sequence[float], pred: Sequence[float]) -> float:
    """Spearman's ρ: Pearson correlation of average ranks; 0.0 when either side is constant.

    Example:
        >>> spearman([1, 2, 3, 4], [1, 2, 2, 4])
        0.9486832980505138
    """
    _check_pair(truth, pred)
    return _pearson(average_ranks(truth), average_ranks(pred))


def kendall_tau_b(truth: Sequence[float], pred: Sequence[float]) -> float:
    """Kendall's τ-b: (concordant − discordant) / sqrt((n0 − t_x)(n0 − t_y)); 0.0 if constant.

    Example:
        >>> kendall_tau_b([1, 2, 3, 4], [1, 2, 2, 4])
        0.9128709291752769
    """
    _check_pair(truth, pred)
    concordant = discordant = ties_x = ties_y = pairs = 0
    n = len(truth)
    for i in range(n):
        for j in range(i + 1, n):
            dx = truth[i] - truth[j]
            dy = pred[i] - pred[j]
            pairs += 1
            if dx == 0 and dy == 0:
                ties_x += 1
                ties_y += 1
            elif dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denom = math.sqrt((pairs - ties_x) * (pairs - ties_y))
    return 0.0 if denom == 0.0 else (concordant - discordant) / denom


def pair_accuracy(truth_diff_sign: Sequence[int], pred_a: Sequence[float], pred_b: Sequence[float]) -> float:
    """Share of pairs ordered correctly; a predicted tie counts ½.

    Args:
        truth_diff_sign: +1 when item a has the higher true level, −1 when b has (never 0).
        pred_a: predicted score of item a per pair.
        pred_b: predicted score of item b per pair.

    Example:
        >>> pair_accuracy([1, 1, -1, -1], [0.9, 0.5, 0.2, 0.4], [0.1, 0.5, 0.3, 0.1])
        0.625
    """
    if not (len(truth_diff_sign) == len(pred_a) == len(pred_b)):
        raise ConfigError(f"pair inputs differ in length: {len(truth_diff_sign)}, {len(pred_a)}, {len(pred_b)}")
    if not truth_diff_sign:
        raise ConfigError("pair_accuracy needs at least one pair, got 0")
    total = 0.0
    for sign, a, b in zip(truth_diff_sign, pred_a, pred_b):
        if sign not in (1, -1):
            raise ConfigError(f"truth_diff_sign must hold +1 or -1, got {sign!r}")
        if a == b:
            total += 0.5
        elif (a > b) == (sign > 0):
            total += 1.0
    return total / len(truth_diff_sign)


def percentile_interval(ordered: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The central ``level`` interval of already sorted bootstrap statistics (percentile method).

    Example:
        >>> percentile_interval([float(i) for i in range(101)])
        (2.0, 98.0)
    """
    m = len(ordered)
    return ordered[math.floor((1.0 - level) / 2.0 * (m - 1))], ordered[math.ceil((1.0 + level) / 2.0 * (m - 1))]


def _resampler(function: str, unit: str, n: int, level: float, seed: int) -> random.Random:
    """The seeded generator of a bootstrap, once its input is checked: at least one ``unit``
    and a ``level`` in (0, 1)."""
    if n == 0:
        raise ConfigError(f"{function} needs at least one {unit}, got 0")
    if not 0.0 < level < 1.0:
        raise ConfigError(f"level must be in (0, 1), got {level}")
    return random.Random(seed)


def bootstrap_ci(values: Sequence[float], *, n_boot: int = 1000, seed: int = 0,
                 level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean of ``values`` (resampling with replacement, seeded).

    Example:
        >>> bootstrap_ci([0.5, 0.5, 0.5])
        (0.5, 0.5)
    """
    rng = _resampler("bootstrap_ci", "value", len(values), level, seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(n_boot))
    return percentile_interval(means, level)


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean; raises on an empty sequence."""
    if not values:
        raise ConfigError("mean of an empty sequence is undefined")
    return sum(values) / len(values)


def stance_majority_score(stances: Sequence[int], gold: int) -> float:
    """Generator-free RAG score: 1 if the majority stance of kept documents equals ``gold``.

    Args:
        stances: stance of each kept document (1 = supports "yes", 0 = supports "no").
        gold: the correct answer (1 = yes, 0 = no).

    Returns:
        1.0 right majority, 0.0 wrong majority, 0.5 for a tie (or no documents).

    Example:
        >>> stance_majority_score([1, 1, 0], 1), stance_majority_score([1, 0], 0), stance_majority_score([0], 1)
        (1.0, 0.5, 0.0)
    """
    if gold not in (0, 1):
        raise ConfigError(f"gold must be 0 or 1, got {gold!r}")
    yes = sum(1 for s in stances if s == 1)
    no = sum(1 for s in stances if s == 0)
    if yes + no != len(stances):
        raise ConfigError(f"stances must be 0 or 1, got {list(stances)!r}")
    if yes == no:
        return 0.5
    return 1.0 if (yes > no) == (gold == 1) else 0.0


def pair_counts(levels: Sequence[int], scores: Sequence[float]) -> tuple[float, int]:
    """(credit, pairs) over every pair of items with different levels; credit 1 per pair the
    scores order like the levels, ½ per tied score. credit / pairs is the AUC for two levels.

    Example:
        >>> pair_counts([1, 1, 0], [0.9, 0.3, 0.3])
        (1.5, 2)
    """
    if len(levels) != len(scores):
        raise ConfigError(f"levels and scores differ in length: {len(levels)} and {len(scores)}")
    by_level: dict[int, list[float]] = {}
    for lvl, s in zip(levels, scores):
        by_level.setdefault(int(lvl), []).append(float(s))
    ordered = {lvl: sorted(v) for lvl, v in by_level.items()}
    credit, pairs = 0.0, 0
    for hi, hi_scores in ordered.items():
        for lo, lo_scores in ordered.items():
            if lo >= hi:
                continue
            for s in hi_scores:  # lower-level items strictly below s, and tied with s
                below = bisect.bisect_left(lo_scores, s)
                tied = bisect.bisect_right(lo_scores, s) - below
                credit += below + 0.5 * tied
            pairs += len(hi_scores) * len(lo_scores)
    return credit, pairs


def cross_level_pair_accuracy(levels: Sequence[int], scores: Sequence[float]) -> float:
    """Share of cross-level pairs ordered correctly, ties ½ (the AUC for two levels).

    Raises:
        ConfigError: when no two items have different levels.

    Example:
        >>> cross_level_pair_accuracy([2, 1, 0, 0], [0.8, 0.8, 0.1, 0.9])
        0.5
    """
    credit, pairs = pair_counts(levels, scores)
    if pairs == 0:
        raise ConfigError("cross_level_pair_accuracy needs items of at least two levels")
    return credit / pairs


def cluster_bootstrap_ci(clusters: Sequence[T], statistic: Callable[[list[T]], float | None], *,
                         n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap CI of ``statistic`` over resampled clusters (seeded).

    A cluster is whatever must move as a unit for the CI to be honest: a topic with all its
    instances, a platform with all its URLs, or a single item. ``statistic`` returns None for
    a resample it cannot score (e.g. one level only); such resamples are drawn again, at most
    ``n_boot`` extra times.

    Example:
        >>> cluster_bootstrap_ci([[1.0, 1.0], [0.0]], lambda cs: mean([v for c in cs for v in c]), n_boot=200)
        (0.0, 1.0)
    """
    rng = _resampler("cluster_bootstrap_ci", "cluster", len(clusters), level, seed)
    n = len(clusters)
    stats: list[float] = []
    for _ in range(2 * n_boot):
        value = statistic([clusters[rng.randrange(n)] for _ in range(n)])
        if value is not None:
            stats.append(value)
        if len(stats) == n_boot:
            break
    if not stats:
        raise ConfigError("no bootstrap resample could be scored; the clusters hold too little data")
    return percentile_interval(sorted(stats), level)
