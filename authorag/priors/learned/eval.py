"""Honest evaluation of the learned prior: hash split + leave-source-out, three benchmarks.

Every track scores only **test-split** domains (a fixed hash of the registrable domain, see
:func:`~authorag.priors.learned.train.domain_split`); the learned model of a track is trained on
**train-split** domains of the sources *other than* the track's label source:

========  ==========================================  =====================  ==================
track     labels                                      model trained without  table without
========  ==========================================  =====================  ==================
web       Majestic deciles of RefSubNets (10 levels)  majestic               majestic
news      CC-News PageRank, min(9, floor(10·pr))      ccnews_pagerank        ccnews_pagerank
credauth  MBFC 2026 factual reporting (6 levels)      (MBFC is no source)    (nothing)
split     combined table authority (continuous)       (train split only)     n/a
========  ==========================================  =====================  ==================

Methods per track: ``learned`` (alone, every item), ``table`` (``load_prior(exclude=...)``,
including suffix rules, only on the items it covers), ``table+learned`` (table where it covers,
learned prior for the gaps, every item), and a trivial reference, ``baseline: shorter name``
(minus the length of the name: short names tend to be older, better-known sites). Metrics: Spearman ρ, Kendall τ-b over all items, and
the mean Spearman ρ of seeded lists that draw one domain per level (list-of-10; list-of-6 for
CredAuth) with a bootstrap 95 % interval.

Example:
    >>> report = evaluate(seed=0, n_lists=200)            # doctest: +SKIP
    >>> print(format_report(report))                      # doctest: +SKIP
"""
from __future__ import annotations

import csv
import gzip
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag._optional import require
from authorag.domains import parse_host
from authorag.priors.learned.model import LearnedPrior
from authorag.priors.learned.train import (
    build_training_set,
    default_sources,
    domain_split,
    registrable_values,
    train_learned_prior,
)
from authorag.priors.sources import load_source

log = logging.getLogger(__name__)

REPORT_VERSION = 1
MBFC_LEVELS = ("very-low", "low", "mixed", "mostly-factual", "high", "very-high")


@dataclass(frozen=True, slots=True)
class Track:
    """Labels of one benchmark track (test split only).

    Attributes:
        name: ``web``, ``news``, ``credauth``.
        label_source: prior source the labels come from (left out of model and table), or None.
        domains: test-split registrable domains.
        levels: integer level per domain (higher = more authoritative / more factual).
        description: one line for the report.
    """

    name: str
    label_source: str | None
    domains: tuple[str, ...]
    levels: NDArray[np.int64]
    description: str


def _test_only(pairs: dict[str, int], name: str, source: str | None, description: str) -> Track:
    domains = tuple(sorted(d for d in pairs if domain_split(d) == "test"))
    return Track(name, source, domains, np.array([pairs[d] for d in domains], dtype=np.int64), description)


def web_track() -> Track:
    """Majestic top 15k: equal-frequency deciles of RefSubNets (registrable-domain rows only)."""
    rows = {k: float(sv.raw) for k, sv in load_source("majestic").items()
            if isinstance(sv.raw, float) and parse_host(k, strict=False).domain == k}
    ranks = require("scipy.stats", extra="core", feature="the learned prior evaluation").rankdata(
        list(rows.values()), method="average")
    n = len(rows)
    levels = {d: min(9, int(10 * (r - 1) / n)) for d, r in zip(rows, ranks, strict=True)}
    return _test_only(levels, "web", "majestic", "DomainAuth-open web: Majestic RefSubNets deciles")


def news_track() -> Track:
    """CC-News PageRank: level10 = min(9, floor(10·pr))."""
    pr = registrable_values("ccnews_pagerank")
    levels = {d: min(9, math.floor(10 * v)) for d, v in pr.items()}
    return _test_only(levels, "news", "ccnews_pagerank", "DomainAuth-open news: CC-News PageRank levels")


def credauth_track() -> Track:
    """MBFC 2026 factual reporting, 6 levels (rows without a rating are skipped)."""
    # Read by path: library code does not import the benchmarks package.
    raw = (Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "mbfc2026.csv.gz").read_bytes()
    levels: dict[str, int] = {}
    for row in csv.DictReader(gzip.decompress(raw).decode("utf-8").splitlines()):
        domain = parse_host(row["domain"], strict=False).domain
        if row["reporting"] in MBFC_LEVELS and domain is not None and "." in domain:
            levels.setdefault(domain, MBFC_LEVELS.index(row["reporting"]))
    return _test_only(levels, "credauth", None, "CredAuth: MBFC 2026 factual reporting (6 levels)")


TRACKS: dict[str, Callable[[], Track]] = {"web": web_track, "news": news_track, "credauth": credauth_track}


def list_rhos(pred: NDArray[np.float64], levels: NDArray[np.int64], n_lists: int,
              rng: np.random.Generator) -> NDArray[np.float64]:
    """Spearman ρ of ``n_lists`` lists drawing one item per level present (NaN-free: a list whose
    predictions all tie scores 0).

    Example (predictions in the levels' order give ρ 1 on every list, all ties give 0):
        >>> levels = np.array([0, 0, 1, 2])
        >>> list_rhos(np.array([0.1, 0.2, 0.5, 0.9]), levels, 3, np.random.default_rng(0)).tolist()
        [1.0, 1.0, 1.0]
        >>> list_rhos(np.full(4, 0.5), levels, 2, np.random.default_rng(0)).tolist()
        [0.0, 0.0]
    """
    stats = require("scipy.stats", extra="core", feature="the learned prior evaluation")
    present = np.unique(levels)
    if len(present) < 2:
        return np.zeros(0)
    picks = np.column_stack([rng.choice(np.flatnonzero(levels == lv), size=n_lists) for lv in present])
    pr = stats.rankdata(pred[picks], axis=1)
    lr = np.broadcast_to(stats.rankdata(present), pr.shape)
    pc, lc = pr - pr.mean(axis=1, keepdims=True), lr - lr.mean(axis=1, keepdims=True)
    denom = np.sqrt((pc**2).sum(axis=1) * (lc**2).sum(axis=1))
    return np.where(denom > 0, (pc * lc).sum(axis=1) / np.where(denom > 0, denom, 1.0), 0.0)


def metrics(pred: NDArray[np.float64], levels: NDArray[np.float64] | NDArray[np.int64], *,
            n_lists: int, seed: int) -> dict[str, Any]:
    """Spearman ρ, Kendall τ-b over all items; mean list ρ with a bootstrap 95 % interval."""
    stats = require("scipy.stats", extra="core", feature="the learned prior evaluation")
    out: dict[str, Any] = {"n": len(pred), "spearman": None, "kendall": None, "list_rho": None,
                           "list_rho_ci": None}
    if len(pred) < 3 or np.ptp(pred) == 0:
        return out
    out["spearman"] = round(float(stats.spearmanr(pred, levels).statistic), 4)
    out["kendall"] = round(float(stats.kendalltau(pred, levels).statistic), 4)
    if n_lists > 0 and np.issubdtype(np.asarray(levels).dtype, np.integer):
        rng = np.random.default_rng(seed)
        rhos = list_rhos(pred, np.asarray(levels, dtype=np.int64), n_lists, rng)
        if len(rhos):
            boot = rng.choice(rhos, size=(1000, len(rhos))).mean(axis=1)
            out["list_rho"] = round(float(rhos.mean()), 4)
            out["list_rho_ci"] = [round(float(np.percentile(boot, 2.5)), 4),
                                  round(float(np.percentile(boot, 97.5)), 4)]
    return out


class TrackModels:
    """The leave-source-out models of one evaluation run, each trained once on the train split."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._cache: dict[tuple[str, ...], LearnedPrior] = {}

    def get(self, exclude: tuple[str, ...]) -> LearnedPrior:
        if exclude not in self._cache:
            log.info("training learned prior without %s on the train split", exclude or "nothing")
            model = train_learned_prior(exclude=exclude, split="train", seed=self.seed)
            self._cache[exclude] = LearnedPrior(model)
        return self._cache[exclude]


def evaluate_track(track: Track, models: TrackModels, *, n_lists: int, seed: int) -> dict[str, Any]:
    """All three methods on one track."""
    from authorag.priors.table import load_prior

    exclude = () if track.label_source is None else (track.label_source,)
    learned = models.get(exclude).predict(track.domains).authority
    table = load_prior(exclude=exclude)
    table_vals = np.array([np.nan if (a := table.lookup(d).authority) is None else a for d in track.domains])
    covered = ~np.isnan(table_vals)
    combined = np.where(covered, table_vals, learned)
    lv = track.levels
    short = -np.array([len(d.partition(".")[0]) for d in track.domains], dtype=np.float64)
    return {
        "track": track.name, "description": track.description, "n_test": len(track.domains),
        "label_source": track.label_source, "model_sources": list(default_sources(exclude)),
        "table_sources": list(table.source_names), "table_coverage": round(float(covered.mean()), 4),
        "methods": {
            "learned": metrics(learned, lv, n_lists=n_lists, seed=seed),
            "table": metrics(table_vals[covered], lv[covered], n_lists=n_lists, seed=seed),
            "table+learned": metrics(combined, lv, n_lists=n_lists, seed=seed),
            "baseline: shorter name": metrics(short, lv, n_lists=n_lists, seed=seed),
        },
    }


def evaluate_split(models: TrackModels, *, seed: int) -> dict[str, Any]:
    """In-distribution check: model trained on the train split, scored on the test split."""
    stats = require("scipy.stats", extra="core", feature="the learned prior evaluation")
    test = build_training_set(default_sources(), split="test")
    full = models.get(()).predict(test.domains)
    pred = full.authority
    error = np.abs(pred - test.target)
    short = -np.array([len(d.partition(".")[0]) for d in test.domains], dtype=np.float64)
    return {"track": "split", "description": "hash split: combined table authority of test domains",
            "n_test": len(test.domains), "label_source": None, "model_sources": list(default_sources()),
            "uncertainty": {"mean_abs_error": round(float(error.mean()), 4),
                            "mean_predicted": round(float(full.uncertainty.mean()), 4),
                            "spearman_with_error": round(float(stats.spearmanr(full.uncertainty, error).statistic), 4)},
            "methods": {"learned": metrics(pred, test.target, n_lists=0, seed=seed),
                        "baseline: shorter name": metrics(short, test.target, n_lists=0, seed=seed)}}


def evaluate(seed: int = 0, n_lists: int = 1000, tracks: Sequence[str] = ("web", "news", "credauth"),
             include_split: bool = True) -> dict[str, Any]:
    """The full evaluation report (a JSON-ready dict with a ``version`` field).

    Raises:
        MissingDependencyError: scikit-learn is missing (training needs ``authorag[bench]``).
    """
    models = TrackModels(seed)
    results = [evaluate_track(TRACKS[name](), models, n_lists=n_lists, seed=seed) for name in tracks]
    if include_split:
        results.append(evaluate_split(models, seed=seed))
    return {"version": REPORT_VERSION, "seed": seed, "n_lists": n_lists, "tracks": results}


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def format_report(report: dict[str, Any]) -> str:
    """A Markdown table of :func:`evaluate`'s report."""
    lines = ["| track | method | n | ρ | τ | list ρ [95 % CI] |", "|---|---|---:|---:|---:|---|"]
    for tr in report["tracks"]:
        for method, m in tr["methods"].items():
            ci = m["list_rho_ci"]
            lst = "–" if m["list_rho"] is None else f"{m['list_rho']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"
            lines.append(f"| {tr['track']} | {method} | {m['n']} | {_fmt(m['spearman'])} | "
                         f"{_fmt(m['kendall'])} | {lst} |")
    notes = [f"- {tr['track']}: {tr['description']}; labels from {tr['label_source'] or 'outside the prior'}; "
             f"model trained on {', '.join(tr['model_sources'])} (train split)"
             + (f"; table sources {', '.join(tr['table_sources'])}, coverage {tr['table_coverage']:.1%}"
                if "table_sources" in tr else "") for tr in report["tracks"]]
    unc = [f"- uncertainty on the {tr['track']} track: mean absolute error {u['mean_abs_error']:.3f}, mean predicted "
           f"uncertainty {u['mean_predicted']:.3f}, Spearman(uncertainty, error) {u['spearman_with_error']:.3f}"
           for tr in report["tracks"] if (u := tr.get("uncertainty"))]
    return "\n".join([*lines, "", f"seed {report['seed']}, {report['n_lists']} lists per method", *notes, *unc])
