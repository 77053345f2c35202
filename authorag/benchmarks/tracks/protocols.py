"""Protocols of the comparison tracks: all-pairs accuracy with bootstrap CIs, and LE.

* ``tail`` (``tail-trec2019``): pairwise accuracy over every pair of domains with different
  levels (higher level scored higher; a tied score counts ½) = the AUC for two levels, with a
  seeded bootstrap 95 % CI over domains; plus LE (Spearman / Kendall per sampled list of one
  domain per level, as on the other ranking tasks).
* ``hosted`` (``hosted-urls``): within each group, every (official, non-official) pair;
  accuracy "official above the other page", ties ½. Overall and per label (user / reserved /
  ip) with a bootstrap CI over groups (a platform moves as a unit; a label held by one group,
  reserved or ip, resamples that group's URLs), per group with a bootstrap CI over its URLs.

Unknown scores (None) are filled with :data:`~authorag.types.UNKNOWN_LEVEL` (the reranker's
value for unknown sources), the same rule as every other protocol; coverage is reported.

Example:
    >>> from authorag.benchmarks.tasks import BenchItem, RankTask
    >>> items = tuple(BenchItem(k, k, lvl) for k, lvl in (("a", 2), ("b", 0), ("c", 0)))
    >>> task = RankTask("t", "tailauth", 3, None, "domain", items, (), "")
    >>> tail_metrics(task, lambda its: [{"a": 0.9, "b": 0.1, "c": None}[i.key] for i in its], 2, 0)["pairs"]["accuracy"]
    1.0
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from authorag.benchmarks.metrics import cluster_bootstrap_ci, pair_counts
from authorag.benchmarks.protocols import Scorer, run_lists, sample_lists
from authorag.benchmarks.tasks import BenchItem, RankTask
from authorag.types import UNKNOWN_LEVEL

PairCredit = tuple[float, int]


def _score_each(items: Sequence[BenchItem], score: Scorer,
                progress: Callable[[], None]) -> tuple[list[float], int]:
    """Score items one at a time (a list judge must not see the whole task as one list)."""
    filled: list[float] = []
    known = 0
    for item in items:
        value = score([item])[0]
        known += value is not None
        filled.append(UNKNOWN_LEVEL if value is None else value)
        progress()
    return filled, known


def _ratio(parts: Sequence[PairCredit]) -> float | None:
    pairs = sum(p for _, p in parts)
    return None if pairs == 0 else sum(c for c, _ in parts) / pairs


def _levels_ratio(sample: Sequence[tuple[int, float]]) -> float | None:
    credit, pairs = pair_counts([lv for lv, _ in sample], [s for _, s in sample])
    return None if pairs == 0 else credit / pairs


def all_pairs_summary(levels: Sequence[int], scores: Sequence[float], seed: int) -> dict[str, Any]:
    """Accuracy over every cross-level pair and its bootstrap CI over items (JSON-ready)."""
    credit, pairs = pair_counts(levels, scores)
    if pairs == 0:
        return {"n_pairs": 0, "accuracy": None, "accuracy_ci": None}
    data = list(zip(levels, scores))
    ci = cluster_bootstrap_ci(data, lambda sample: _levels_ratio(sample), seed=seed)
    return {"n_pairs": pairs, "accuracy": credit / pairs, "accuracy_ci": list(ci)}


def tail_metrics(task: RankTask, score: Scorer, n_lists: int, seed: int,
                 progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """All-pairs accuracy (= AUC) with a bootstrap CI over domains, plus LE over sampled lists."""
    scores, known = _score_each(task.items, score, progress)
    levels = [i.level for i in task.items]
    lists = run_lists(task, sample_lists(task, n_lists, seed), score)
    return {"protocol": "tail", "n_items": len(task.items), "n_levels": task.n_levels,
            "label_source": task.label_source,
            "level_counts": {str(lv): levels.count(lv) for lv in range(task.n_levels)},
            "coverage": known / len(levels) if levels else 0.0,
            "pairs": all_pairs_summary(levels, scores, seed), "le": lists.summary(seed),
            "units": {"levels": levels, "scores": scores, "spearman": lists.spearman}}


def _group_credits(items: Sequence[BenchItem], scores: Sequence[float]) -> dict[str, dict[str, PairCredit]]:
    """Per group, per non-official label: (credit, pairs) of official-vs-that-label pairs."""
    groups: dict[str, list[tuple[BenchItem, float]]] = {}
    for item, s in zip(items, scores):
        groups.setdefault(str(item.meta["group"]), []).append((item, s))
    out: dict[str, dict[str, PairCredit]] = {}
    for name, rows in groups.items():
        official = [s for i, s in rows if i.level == 1]
        per_label: dict[str, PairCredit] = {}
        for item, s in rows:
            if item.level == 1:
                continue
            credit = sum(1.0 if o > s else 0.5 if o == s else 0.0 for o in official)
            c, p = per_label.get(str(item.meta["label"]), (0.0, 0))
            per_label[str(item.meta["label"])] = (c + credit, p + len(official))
        out[name] = per_label
    return out


def hosted_metrics(task: RankTask, score: Scorer, seed: int,
                   progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Official-above-other accuracy: overall, per label and per group, with bootstrap CIs."""
    scores, known = _score_each(task.items, score, progress)
    credits = _group_credits(task.items, scores)
    clusters = [list(per_label.values()) for per_label in credits.values()]
    overall = _ratio([c for cl in clusters for c in cl])
    out: dict[str, Any] = {
        "protocol": "hosted", "n_items": len(task.items), "n_groups": len(credits),
        "label_source": task.label_source, "coverage": known / len(scores) if scores else 0.0,
        "overall": {"n_pairs": sum(p for cl in clusters for _, p in cl), "accuracy": overall,
                    "accuracy_ci": list(cluster_bootstrap_ci(clusters, lambda cs: _ratio([c for cl in cs for c in cl]),
                                                             seed=seed))},
    }
    out["groups"] = {g: all_pairs_summary([i.level for i in task.items if i.meta["group"] == g],
                                          [s for i, s in zip(task.items, scores) if i.meta["group"] == g], seed)
                     for g in sorted(credits)}
    by_label: dict[str, Any] = {}
    for label in ("user", "reserved", "ip"):
        holders = [g for g, pl in credits.items() if label in pl]
        if not holders:
            continue
        parts = [[credits[g][label]] for g in holders]
        # one group (reserved, ip): resample its URLs; several (user): resample whole platforms
        ci = (out["groups"][holders[0]]["accuracy_ci"] if len(holders) == 1 else
              list(cluster_bootstrap_ci(parts, lambda cs: _ratio([c for (c,) in cs]), seed=seed)))
        by_label[label] = {"n_groups": len(holders), "n_pairs": sum(p for (_, p), in parts),
                           "accuracy": _ratio([c for (c,) in parts]), "accuracy_ci": ci}
    out["by_label"] = by_label
    names = sorted(credits)
    units: dict[str, Any] = {"groups": names, "all": [[sum(c for c, _ in credits[g].values()),
                                                       sum(p for _, p in credits[g].values())] for g in names]}
    for label, summary in by_label.items():
        if summary["n_groups"] == 1:  # paired deltas resample this group's URLs, like its CI
            group = next(g for g in names if label in credits[g])
            rows = [(i.level, s) for i, s in zip(task.items, scores) if i.meta["group"] == group]
            units[label] = {"levels": [lv for lv, _ in rows], "scores": [sc for _, sc in rows]}
        else:
            units[label] = [list(credits[g].get(label, (0.0, 0))) for g in names]
    out["units"] = units
    out["items"] = [{"url": i.url, "group": i.meta["group"], "label": i.meta["label"], "score": s}
                    for i, s in zip(task.items, scores)]
    return out
