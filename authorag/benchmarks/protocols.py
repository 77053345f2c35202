"""Evaluation protocols: LE (listwise), PE (pairwise) on ranking tasks.

* LE: each list samples one item per (non-empty) level; Spearman ρ and Kendall τ-b per list,
  averaged, with a seeded bootstrap 95 % CI over lists. A list's predicted ranks also give a
  predicted level (rank position), accumulated into a confusion matrix.
* PE: easy pairs |Δ| > 5 and hard pairs |Δ| = 1 on the 10-level scale (tasks without 10 levels:
  easy |Δ| > 5/9·(L − 1), hard |Δ| = 1); accuracy with predicted ties counted ½.

Unknown scores (None) are filled with :data:`~authorag.types.UNKNOWN_LEVEL` (the reranker's
default for unknown sources), so a method is charged for what it does not know; coverage is reported beside.

Example:
    >>> from authorag.benchmarks.registry import load_task
    >>> lists = sample_lists(load_task("credauth-baly"), n_lists=2, seed=0)
    >>> [sorted(i.level for i in lst) for lst in lists]
    [[0, 1, 2], [0, 1, 2]]
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from authorag.benchmarks.metrics import (
    average_ranks,
    bootstrap_ci,
    kendall_tau_b,
    mean,
    pair_accuracy,
    spearman,
)
from authorag.benchmarks.tasks import BenchItem, RankTask
from authorag.errors import ConfigError
from authorag.types import UNKNOWN_LEVEL

Difficulty = Literal["easy", "hard"]
Scorer = Callable[[Sequence[BenchItem]], list[float | None]]


def sample_lists(task: RankTask, n_lists: int, seed: int) -> list[list[BenchItem]]:
    """``n_lists`` lists with one random item per non-empty level, in shuffled order."""
    if n_lists <= 0:
        raise ConfigError(f"n_lists must be positive, got {n_lists}")
    rng = random.Random(seed)
    levels = [group for _, group in sorted(task.by_level().items()) if group]
    if len(levels) < 2:
        raise ConfigError(f"task {task.name} has {len(levels)} non-empty level(s); a list needs 2")
    out: list[list[BenchItem]] = []
    for _ in range(n_lists):
        lst = [rng.choice(group) for group in levels]
        rng.shuffle(lst)
        out.append(lst)
    return out


def sample_distinct_lists(task: RankTask, n_lists: int, seed: int) -> list[list[BenchItem]]:
    """``n_lists`` lists with one item per non-empty level and no item in two lists, shuffled.

    Each level's items, sorted by key, are shuffled once (levels in order); list k takes the
    k-th item of every level. A judge then scores every item once (the judge study's rule).

    Example:
        >>> from authorag.benchmarks.registry import load_task
        >>> lists = sample_distinct_lists(load_task("credauth-baly"), n_lists=3, seed=0)
        >>> len({i.key for lst in lists for i in lst}), [sorted(i.level for i in lst) for lst in lists][0]
        (9, [0, 1, 2])
    """
    rng = random.Random(seed)
    pools = [sorted(group, key=lambda i: i.key) for _, group in sorted(task.by_level().items()) if group]
    smallest = min((len(p) for p in pools), default=0)
    if n_lists <= 0 or n_lists > smallest:
        raise ConfigError(f"n_lists must be in [1, {smallest}] for distinct lists of {task.name} "
                          f"(its smallest level has {smallest} items), got {n_lists}")
    for pool in pools:
        rng.shuffle(pool)
    out: list[list[BenchItem]] = []
    for k in range(n_lists):
        lst = [pool[k] for pool in pools]
        rng.shuffle(lst)
        out.append(lst)
    return out


def easy_threshold(n_levels: int) -> float:
    """|Δ| must exceed this for an easy pair: 5 on 10 levels, scaled as 5/9·(L − 1) otherwise."""
    return 5.0 if n_levels == 10 else 5.0 / 9.0 * (n_levels - 1)


def sample_pairs(task: RankTask, n_pairs: int, difficulty: Difficulty, seed: int) -> list[tuple[BenchItem, BenchItem]]:
    """Level-balanced pairs: a random valid (level a, level b), then a random item of each."""
    n_levels, level_of = task.pair_scale()
    groups: dict[int, list[BenchItem]] = {}
    for item in task.items:
        groups.setdefault(level_of(item), []).append(item)
    thr = easy_threshold(n_levels)
    valid = [(a, b) for a in groups for b in groups if a != b
             and ((abs(a - b) > thr) if difficulty == "easy" else abs(a - b) == 1)]
    if not valid:
        raise ConfigError(f"task {task.name} has no {difficulty} level pairs")
    rng = random.Random(f"{seed}:{difficulty}")
    return [(rng.choice(groups[a]), rng.choice(groups[b])) for a, b in (rng.choice(valid) for _ in range(n_pairs))]


def _filled(scores: Sequence[float | None], unknown_level: float = UNKNOWN_LEVEL) -> list[float]:
    return [unknown_level if s is None else s for s in scores]


@dataclass
class ListResult:
    """LE outcome: per-list correlations, coverage and the confusion matrix."""

    spearman: list[float]
    kendall: list[float]
    known: int
    total: int
    confusion: list[list[int]]

    def summary(self, seed: int) -> dict[str, Any]:
        """Means, bootstrap CIs and coverage (JSON-ready)."""
        return {
            "n_lists": len(self.spearman),
            "spearman": mean(self.spearman), "spearman_ci": list(bootstrap_ci(self.spearman, seed=seed)),
            "kendall": mean(self.kendall), "kendall_ci": list(bootstrap_ci(self.kendall, seed=seed)),
            "coverage": self.known / self.total if self.total else 0.0,
            "confusion": self.confusion,
        }


def run_lists(task: RankTask, lists: Sequence[Sequence[BenchItem]], scorer: Scorer,
              progress: Callable[[], None] = lambda: None, *, unknown_level: float = UNKNOWN_LEVEL) -> ListResult:
    """Score each list and correlate predicted scores with gold levels (None scores -> ``unknown_level``)."""
    res = ListResult([], [], 0, 0, [[0] * task.n_levels for _ in range(task.n_levels)])
    for lst in lists:
        raw = scorer(lst)
        pred = _filled(raw, unknown_level)
        gold = [float(i.level) for i in lst]
        res.spearman.append(spearman(gold, pred))
        res.kendall.append(kendall_tau_b(gold, pred))
        res.known += sum(s is not None for s in raw)
        res.total += len(raw)
        levels_present = sorted(i.level for i in lst)
        for item, rank in zip(lst, average_ranks(pred)):
            predicted = levels_present[min(len(lst) - 1, round(rank) - 1)]
            res.confusion[item.level][predicted] += 1
        progress()
    return res


def run_pairs(task: RankTask, pairs: Sequence[tuple[BenchItem, BenchItem]], scorer: Scorer,
              progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Pair accuracy (ties ½) and coverage for one difficulty."""
    _, level_of = task.pair_scale()
    signs: list[int] = []
    pa: list[float] = []
    pb: list[float] = []
    known = 0
    for a, b in pairs:
        raw = scorer([a, b])
        known += sum(s is not None for s in raw)
        fa, fb = _filled(raw)
        signs.append(1 if level_of(a) > level_of(b) else -1)
        pa.append(fa)
        pb.append(fb)
        progress()
    if not pairs:
        return {"n_pairs": 0, "accuracy": None, "coverage": 0.0}
    return {"n_pairs": len(pairs), "accuracy": pair_accuracy(signs, pa, pb),
            "coverage": known / (2 * len(pairs))}
