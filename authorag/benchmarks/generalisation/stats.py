"""Statistics of the generalisation tracks: AUC, per-group Spearman, shares; paired bootstrap; the verdict.

A row is computed from *clusters* (what must move together for the CI to be honest: a registrable
domain, a query, a hand-written case). Every cluster holds each method's values for the same
units, so two methods are compared on the same resamples (paired bootstrap, fixed seed).

The verdict of a track reads the paired 95 % CI of ``default − baseline`` on the track's headline
row: ``beats`` (the CI lies above 0), ``loses`` (below 0) or ``ties`` (it contains 0).

Example:
    >>> auc([1, 1, 0, 0], [0.9, 0.4, 0.5, 0.1])
    0.75
    >>> verdict((0.01, 0.2)), verdict((-0.1, 0.05)), verdict((-0.3, -0.02))
    ('beats', 'ties', 'loses')
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from authorag.benchmarks.metrics import average_ranks, cluster_bootstrap_ci, spearman
from authorag.errors import ConfigError

Verdict = Literal["beats", "ties", "loses"]
N_BOOT = 1000
Unit = tuple[float, Mapping[str, float]]
"""One item: its label (or rating) and each method's score."""


def auc(labels: Sequence[float], scores: Sequence[float]) -> float | None:
    """P(score of a positive > score of a negative), ties ½ (labels are 1/0); None without both labels."""
    pos = sum(1 for v in labels if v == 1)
    neg = len(labels) - pos
    if pos == 0 or neg == 0:
        return None
    ranks = average_ranks(scores)
    rank_sum = sum(r for r, v in zip(ranks, labels) if v == 1)
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def verdict(ci: tuple[float, float]) -> Verdict:
    """``beats`` / ``loses`` when the paired CI lies above / below 0, else ``ties``."""
    return "beats" if ci[0] > 0 else "loses" if ci[1] < 0 else "ties"


Statistic = Callable[[Sequence[Sequence[Unit]], str], float | None]


def auc_stat(clusters: Sequence[Sequence[Unit]], method: str) -> float | None:
    """AUC over every unit of ``clusters`` (labels 1/0)."""
    units = [u for c in clusters for u in c]
    return auc([u[0] for u in units], [u[1][method] for u in units])


def binary_auc_stat(positive: float, negative: float) -> Statistic:
    """AUC of ratings ≥ ``positive`` against ratings ≤ ``negative`` (the rest left out)."""
    def stat(clusters: Sequence[Sequence[Unit]], method: str) -> float | None:
        units = [u for c in clusters for u in c if u[0] >= positive or u[0] <= negative]
        return auc([1.0 if u[0] >= positive else 0.0 for u in units], [u[1][method] for u in units])
    return stat


def group_spearman_stat(min_size: int = 5) -> Statistic:
    """Mean over clusters (groups) of Spearman's ρ between label and score; groups smaller than
    ``min_size`` or with a constant label are left out."""
    def stat(clusters: Sequence[Sequence[Unit]], method: str) -> float | None:
        rhos = [spearman([u[0] for u in c], [u[1][method] for u in c]) for c in clusters
                if len(c) >= min_size and len({u[0] for u in c}) > 1]
        return sum(rhos) / len(rhos) if rhos else None
    return stat


def pooled_spearman_stat(clusters: Sequence[Sequence[Unit]], method: str) -> float | None:
    """Spearman's ρ between label and score over every unit."""
    units = [u for c in clusters for u in c]
    return spearman([u[0] for u in units], [u[1][method] for u in units]) if len(units) > 2 else None


def mean_stat(clusters: Sequence[Sequence[Unit]], method: str) -> float | None:
    """Mean of each method's value over every unit (the label is unused)."""
    values = [u[1][method] for c in clusters for u in c]
    return sum(values) / len(values) if values else None


@dataclass(frozen=True, slots=True)
class Row:
    """One table row: its name, the clusters of units and the statistic."""

    name: str
    clusters: Sequence[Sequence[Unit]]
    stat: Statistic
    unit: str


def _ci(row: Row, fn: Callable[[Sequence[Sequence[Unit]]], float | None], seed: int) -> list[float] | None:
    if len(row.clusters) < 2:
        return None
    try:
        lo, hi = cluster_bootstrap_ci(list(row.clusters), lambda cs: fn(cs), n_boot=N_BOOT, seed=seed)
    except ConfigError:  # no resample could be scored: the row has no CI
        return None
    return [lo, hi]


def row_cells(row: Row, methods: Sequence[str], baseline: str | None, seed: int) -> dict[str, Any]:
    """Each method's value and CI, and each method's paired difference to ``baseline`` with its CI."""
    cells: dict[str, Any] = {}
    for m in methods:
        cells[m] = {"value": row.stat(row.clusters, m), "ci": _ci(row, lambda cs, m=m: row.stat(cs, m), seed)}
    deltas: dict[str, Any] = {}
    for m in methods:
        if baseline is None or m == baseline:
            continue

        def diff(cs: Sequence[Sequence[Unit]], m: str = m, b: str = baseline) -> float | None:
            x, y = row.stat(cs, m), row.stat(cs, b)
            return None if x is None or y is None else x - y
        value = diff(row.clusters)
        ci = _ci(row, diff, seed) if value is not None else None
        deltas[m] = {"value": value, "ci": ci, "verdict": None if ci is None else verdict((ci[0], ci[1]))}
    return {"name": row.name, "unit": row.unit, "n_units": sum(len(c) for c in row.clusters),
            "n_clusters": len(row.clusters), "cells": cells, "deltas": deltas}
