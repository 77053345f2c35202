"""Train the learned prior: ridge regression on domain-name features, targets from prior sources.

Targets are the shipped *authority* sources (CC-News PageRank, Majestic, Moz), normalized by
:mod:`authorag.priors.sources` and combined per registrable domain with the same
confidence-weighted mean the prior table uses, so a learned value sits on the table's 0–1 scale.
Credibility sources (Wikipedia perennial) are a different axis and are not targets.

Steps (all seeded, no randomness elsewhere): pick the ridge strength by 4-fold cross-validation
(folds from a seeded hash of the domain), fit on all training rows, calibrate the out-of-fold
predictions to the target with isotonic regression, and fit a small linear model of the
out-of-fold absolute error (from the dense features, the prediction and the share of the name's
n-grams never seen in training): the uncertainty. scikit-learn is needed here only
(``pip install 'authorag[bench]'``); inference (:mod:`authorag.priors.learned`) is numpy.

Example:
    >>> model = train_learned_prior(seed=0)                     # doctest: +SKIP
    >>> save_model(model, Path("authorag/data/learned_prior.npz"))  # doctest: +SKIP
"""
from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from authorag._optional import require
from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.priors.features import DENSE_NAMES, PAD, featurize, to_sparse
from authorag.priors.learned import LearnedModel
from authorag.priors.sources import SOURCES, load_source

log = logging.getLogger(__name__)

Split = Literal["all", "train", "test"]
TEST_PERCENT = 20
"""Share of registrable domains (by hash) held out as the test split."""
ALPHAS = (30.0, 100.0, 300.0)
N_FOLDS = 4


def default_sources(exclude: Iterable[str] = ()) -> tuple[str, ...]:
    """The default (non-opt-in) authority sources minus ``exclude``.

    Example:
        >>> default_sources(exclude=["majestic"])
        ('ccnews_pagerank', 'moz')
    """
    excluded = set(exclude)
    unknown = excluded - set(SOURCES)
    if unknown:
        raise ConfigError(f"unknown prior source(s) {sorted(unknown)}; known sources: {', '.join(SOURCES)}")
    return tuple(s.name for s in SOURCES.values()
                 if s.axis == "authority" and not s.optin and s.name not in excluded)


def domain_split(domain: str) -> Literal["train", "test"]:
    """The split of a registrable domain: a fixed hash, independent of any seed.

    Example:
        >>> domain_split("nytimes.com") in ("train", "test")
        True
    """
    digest = hashlib.blake2b(domain.encode("utf-8"), digest_size=8).digest()
    return "test" if int.from_bytes(digest, "big") % 100 < TEST_PERCENT else "train"


def _fold(domain: str, seed: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{domain}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % N_FOLDS


@dataclass(frozen=True, slots=True)
class TrainingSet:
    """Training rows: one per registrable domain.

    Attributes:
        domains: registrable domains.
        target: combined authority 0–1 per domain.
        sources: names of the sources that gave each domain its target.
        source_names: the sources used.
    """

    domains: tuple[str, ...]
    target: NDArray[np.float64]
    sources: tuple[tuple[str, ...], ...]
    source_names: tuple[str, ...]


@cache
def registrable_values(name: str) -> Mapping[str, float]:
    """One source's values per registrable domain (read-only, cached).

    A key that is itself the registrable domain wins; otherwise sub-domain keys
    (``en.wikipedia.org``) are averaged. Keys that are not domains (IPs) are dropped.
    """
    exact: dict[str, float] = {}
    subs: dict[str, list[float]] = defaultdict(list)
    for key, sv in load_source(name).items():
        parsed = parse_host(key, strict=False)
        if parsed.kind != "domain" or parsed.domain is None:
            continue
        if key == parsed.domain:
            exact[key] = sv.value
        else:
            subs[parsed.domain].append(sv.value)
    out = {d: float(np.mean(v)) for d, v in subs.items()}
    out.update(exact)
    return MappingProxyType(out)


def build_training_set(sources: Sequence[str], split: Split = "all") -> TrainingSet:
    """Combine ``sources`` into one target per registrable domain (restricted to ``split``).

    Raises:
        ConfigError: no sources, or a source that is not an authority source.
    """
    if not sources:
        raise ConfigError("no training sources: pass at least one authority source "
                          f"({', '.join(default_sources())})")
    for name in sources:
        if name not in SOURCES or SOURCES[name].axis != "authority":
            raise ConfigError(f"{name!r} is not an authority source; use one of {', '.join(default_sources())}")
    values: dict[str, dict[str, float]] = defaultdict(dict)
    for name in sources:
        for domain, value in registrable_values(name).items():
            if split == "all" or domain_split(domain) == split:
                values[domain][name] = value
    domains = tuple(sorted(values))
    target = np.array([_combine(values[d]) for d in domains], dtype=np.float64)
    used = tuple(tuple(sorted(values[d])) for d in domains)
    return TrainingSet(domains, target, used, tuple(sources))


def _combine(values: Mapping[str, float]) -> float:
    weights = [SOURCES[n].confidence for n in values]
    return float(np.average(list(values.values()), weights=weights))


def _fit_ridge(x: Any, y: NDArray[np.float64], alpha: float) -> tuple[NDArray[np.float64], float]:
    """Ridge fit; a sparse ``x`` is reduced to its non-empty columns first (unused hash buckets
    would get weight 0 anyway, and 2**18-long vectors make every solver step slow)."""
    linear = require("sklearn.linear_model", extra="bench", feature="training the learned prior")
    model = linear.Ridge(alpha=alpha, solver="lsqr", tol=1e-4, fit_intercept=True)
    if isinstance(x, np.ndarray):
        model.fit(x, y)
        return np.asarray(model.coef_, dtype=np.float64), float(model.intercept_)
    used = np.unique(x.indices)
    model.fit(x[:, used], y)
    coef = np.zeros(x.shape[1], dtype=np.float64)
    coef[used] = model.coef_
    return coef, float(model.intercept_)


def _novelty(x_hashed: Any, seen: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Share of each row's hashed features never seen in training (counts ignored)."""
    binary = x_hashed.copy()
    binary.data[:] = 1.0
    total = np.asarray(binary.sum(axis=1)).ravel()
    known = binary @ seen.astype(np.float64)
    return 1.0 - known / np.maximum(total, 1.0)


def _cross_validate(x: Any, y: NDArray[np.float64], folds: NDArray[np.int64]) -> tuple[
        float, NDArray[np.float64], NDArray[np.float64]]:
    """(best alpha, its out-of-fold predictions, out-of-fold novelty)."""
    stats = require("scipy.stats", extra="core", feature="training the learned prior")
    best: tuple[float, float, NDArray[np.float64]] | None = None
    novelty = np.zeros(len(y))
    for alpha in ALPHAS:
        oof = np.zeros(len(y))
        for k in range(N_FOLDS):
            train, held = folds != k, folds == k
            coef, icpt = _fit_ridge(x[train], y[train], alpha)
            oof[held] = x[held] @ coef + icpt
            if alpha == ALPHAS[0]:
                seen = np.asarray((x[train][:, :PAD] != 0).sum(axis=0)).ravel() > 0
                novelty[held] = _novelty(x[held][:, :PAD], seen)
        rho = float(stats.spearmanr(oof, y).statistic)
        log.info("learned prior CV: alpha=%s spearman=%.4f", alpha, rho)
        if best is None or rho > best[0]:
            best = (rho, alpha, oof)
    assert best is not None
    return best[1], best[2], novelty


def _uncertainty_features(dense: NDArray[np.float32], pred: NDArray[np.float64],
                          novelty: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.column_stack([dense.astype(np.float64), pred, novelty])


def _fit_calibration(oof: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[
        NDArray[np.float64], NDArray[np.float64]]:
    isotonic = require("sklearn.isotonic", extra="bench", feature="training the learned prior")
    iso = isotonic.IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip")
    iso.fit(oof, y)
    return np.asarray(iso.X_thresholds_, dtype=np.float64), np.asarray(iso.y_thresholds_, dtype=np.float64)


def train_learned_prior(sources: Sequence[str] | None = None, *, exclude: Iterable[str] = (),
                        split: Split = "all", seed: int = 0) -> LearnedModel:
    """Train a learned prior; the same arguments always give the same weights.

    Args:
        sources: authority sources to learn from; default: every default authority source.
        exclude: sources to leave out (leave-source-out evaluation).
        split: ``"train"`` trains only on the hash-split training domains (for evaluation);
            ``"all"`` uses every domain (the shipped artifact).
        seed: seeds the cross-validation folds.

    Raises:
        ConfigError: bad source names, or too few training rows.
        MissingDependencyError: scikit-learn is not installed.
    """
    excluded = tuple(exclude)
    names = default_sources(excluded) if sources is None else tuple(s for s in sources if s not in excluded)
    data = build_training_set(names, split)
    threadpoolctl = require("threadpoolctl", extra="bench", feature="training the learned prior")
    # One BLAS thread: the vectors are small, and on a shared machine threads mostly wait.
    with threadpoolctl.threadpool_limits(limits=1):
        return _train(data, names, excluded, split, seed)


def _train(data: TrainingSet, names: tuple[str, ...], exclude: tuple[str, ...], split: Split,
           seed: int) -> LearnedModel:
    if len(data.domains) < 10 * N_FOLDS:
        raise ConfigError(f"only {len(data.domains)} training domains from sources {names}; need at least "
                          f"{10 * N_FOLDS}")
    feats = featurize(data.domains)
    x: Any = to_sparse(feats)
    y = data.target
    folds = np.array([_fold(d, seed) for d in data.domains], dtype=np.int64)
    alpha, oof, novelty = _cross_validate(x, y, folds)
    coef, icpt = _fit_ridge(x, y, alpha)
    cal_x, cal_y = _fit_calibration(oof, y)
    residual = np.abs(y - np.interp(oof, cal_x, cal_y))
    u_x = _uncertainty_features(feats.dense, oof, novelty)
    u_coef, u_icpt = _fit_ridge(u_x, residual, 1.0)
    seen = np.asarray((x[:, :PAD] != 0).sum(axis=0)).ravel() > 0
    weights = np.zeros(PAD + 1, dtype=np.float32)
    weights[:PAD] = coef[:PAD]
    return LearnedModel(
        weights=weights, dense_weights=coef[PAD:].astype(np.float32), intercept=icpt,
        calib_x=cal_x, calib_y=cal_y, seen=np.append(seen, False),
        unc_weights=u_coef.astype(np.float64), unc_intercept=u_icpt,
        meta=_meta(data, names, exclude, split, seed, alpha, oof, residual),
    )


def _meta(data: TrainingSet, names: Sequence[str], exclude: Iterable[str], split: Split, seed: int,
          alpha: float, oof: NDArray[np.float64], residual: NDArray[np.float64]) -> dict[str, Any]:
    stats = require("scipy.stats", extra="core", feature="training the learned prior")
    per_source = {n: sum(1 for s in data.sources if n in s) for n in names}
    return {
        "sources": list(names), "excluded": sorted(exclude), "split": split, "seed": seed,
        "alpha": alpha, "n_train": len(data.domains), "rows_per_source": per_source,
        "cv_spearman": round(float(stats.spearmanr(oof, data.target).statistic), 4),
        "cv_mean_abs_error": round(float(residual.mean()), 4),
        "dense_features": list(DENSE_NAMES),
    }
