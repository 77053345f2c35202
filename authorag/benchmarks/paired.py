"""Paired bootstrap of a method's difference to a baseline on one track row (``bench compare``).

Both methods are scored on the same units (the same domains, lists, groups or instances), so
the honest CI of "method − baseline" resamples the units once and takes the difference on the
same resample. The units and their clusters follow each track's own CI:

* tail pair accuracy: domains; LE ρ (every ranking track): lists;
* hosted: groups (platforms), per label where the row names one; a label held by one group
  only (reserved, ip) resamples that group's URLs;
* RAG filter: topics (the instances of a topic move together);
* rerank-track rows (``units["rows"][row]``: ``clusters`` and ``values``): the clusters, a case
  with all its input orders or a topic with all its pools or instances.

Example:
    >>> base = {"spearman": [0.1, 0.2, 0.3]}
    >>> other = {"spearman": [0.2, 0.3, 0.4]}
    >>> d = paired_delta("le", "LE ρ", base, other)
    >>> round(d["value"], 6), [round(v, 6) for v in d["ci"]]
    (0.1, [0.1, 0.1])
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from authorag.benchmarks.metrics import pair_counts, percentile_interval
from authorag.errors import ConfigError

Stat = Callable[[Sequence[int]], float | None]


def _mean_of(values: Sequence[float]) -> Stat:
    return lambda idx: sum(values[i] for i in idx) / len(idx) if idx else None


def _auc_of(levels: Sequence[int], scores: Sequence[float]) -> Stat:
    def stat(idx: Sequence[int]) -> float | None:
        credit, pairs = pair_counts([levels[i] for i in idx], [scores[i] for i in idx])
        return None if pairs == 0 else credit / pairs
    return stat


def _ratio_of(credits: Sequence[Sequence[float]]) -> Stat:
    def stat(idx: Sequence[int]) -> float | None:
        pairs = sum(credits[i][1] for i in idx)
        return None if pairs == 0 else sum(credits[i][0] for i in idx) / pairs
    return stat


def _clustered_mean_of(values: Sequence[float], topics: Sequence[int]) -> tuple[int, Stat]:
    """Mean over the instances of the resampled topics (per-topic sums: a resample costs #topics)."""
    sums: dict[int, list[float]] = {}
    for v, t in zip(values, topics, strict=True):
        acc = sums.setdefault(t, [0.0, 0.0])
        acc[0] += v
        acc[1] += 1.0
    groups = list(sums.values())

    def stat(idx: Sequence[int]) -> float | None:
        total = sum(groups[i][1] for i in idx)
        return sum(groups[i][0] for i in idx) / total if total else None
    return len(groups), stat


def _row_stat(kind: str, row: str, units: Mapping[str, Any]) -> tuple[int, Stat]:
    """(number of resampling units, statistic over unit indices) for one table row."""
    rows = units.get("rows", {})
    if row in rows:  # rerank-track rows: a share over units, clusters resampled whole
        return _clustered_mean_of(rows[row]["values"], rows[row]["clusters"])
    if row.startswith("LE"):
        return len(units["spearman"]), _mean_of(units["spearman"])
    if kind == "tail":
        return len(units["scores"]), _auc_of(units["levels"], units["scores"])
    if kind == "hosted":
        label = row.rsplit(" ", 1)[-1]
        credits = units["all" if label == "other" else label]
        if isinstance(credits, Mapping):  # a label held by one group: its URLs are the units
            return len(credits["scores"]), _auc_of(credits["levels"], credits["scores"])
        return len(credits), _ratio_of(credits)
    if kind == "rag":
        k = row.rsplit("=", 1)[-1]
        return _clustered_mean_of(units[f"k{k}"], units["topics"])
    raise ConfigError(f"no paired statistic for track kind {kind!r}, row {row!r}")


def paired_delta(kind: str, row: str, base: Mapping[str, Any], other: Mapping[str, Any], *,
                 n_boot: int = 1000, seed: int = 0, level: float = 0.95, base_row: str | None = None) -> dict[str, Any]:
    """``other − base`` on one row: the point difference and its paired bootstrap CI. ``base_row``:
    the base's row when it is named otherwise (the same metric of another relevance)."""
    n, stat_base = _row_stat(kind, row if base_row is None else base_row, base)
    n_other, stat_other = _row_stat(kind, row, other)
    if n != n_other or n == 0:
        raise ConfigError(f"paired comparison needs the same units; got {n} and {n_other} for {row!r}")
    everything = list(range(n))
    b0, o0 = stat_base(everything), stat_other(everything)
    if b0 is None or o0 is None:
        return {"value": None, "ci": None}
    rng = random.Random(seed)
    deltas: list[float] = []
    for _ in range(2 * n_boot):
        idx = [rng.randrange(n) for _ in range(n)]
        b, o = stat_base(idx), stat_other(idx)
        if b is not None and o is not None:
            deltas.append(o - b)
        if len(deltas) == n_boot:
            break
    return {"value": o0 - b0, "ci": list(percentile_interval(sorted(deltas), level))}
