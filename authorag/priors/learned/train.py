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
(``pip install 'authorag[bench]'``); inference (:mod:`authorag.priors.learned.model`) is numpy.

**Tail-aware training** (``tail=("ut1", "cred1")``, the shipped model): tail rows
(:mod:`authorag.priors.learned.tail_data`: domains no active head source knows, with their targets) join
the head rows, weighted so that the tail carries :data:`TAIL_SHARE` of the total weight. The
ridge score learns from both; the calibration describes the population the tier is asked
about, domains *unknown to the table* (``calibrate_on="tail"``): the isotonic map of the
out-of-fold score on the tail rows (E[target | score] for an unknown domain, applied as a step
function so one isotonic block is one value), then per band of name novelty a least-squares
factor ``s`` in [0, 1] of ``(target − 0.3)`` on ``(calibrated − 0.3)``; inference returns
``0.3 + s·(calibrated − 0.3)``. ``calibrate_on="all"`` fits the map on head + tail (measured
worse, docs/learned_prior.md).

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
from authorag.priors.learned.features import DENSE_NAMES, PAD, featurize, to_sparse
from authorag.priors.learned.model import UNKNOWN_LEVEL, LearnedModel, calibrate
from authorag.priors.learned.tail_data import tail_rows, validate_tail
from authorag.priors.sources import SOURCES, load_source

log = logging.getLogger(__name__)

Split = Literal["all", "train", "test"]
CalibrateOn = Literal["tail", "all"]
TEST_PERCENT = 20
"""Share of registrable domains (by hash) held out as the test split."""
ALPHAS = (30.0, 100.0, 300.0)
N_FOLDS = 4
TAIL_SHARE = 0.5
"""Share of the total training weight carried by the tail rows (the rest: the head)."""
NOVELTY_BANDS = 3
"""Bands (equal-count) of name novelty, each with its own shrink factor towards 0.3."""


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
        sources: names of the sources that gave each domain its target (``("tail",)`` for tail rows).
        source_names: the head sources used.
        tail_names: the tail sources used.
        weight: training weight per row (1 for head rows).
    """

    domains: tuple[str, ...]
    target: NDArray[np.float64]
    sources: tuple[tuple[str, ...], ...]
    source_names: tuple[str, ...]
    tail_names: tuple[str, ...] = ()
    weight: NDArray[np.float64] | None = None

    @property
    def is_tail(self) -> NDArray[np.bool_]:
        """True for tail rows."""
        return np.array([s == ("tail",) for s in self.sources], dtype=np.bool_)


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


def build_training_set(sources: Sequence[str], split: Split = "all", tail: Sequence[str] = ()) -> TrainingSet:
    """Combine ``sources`` into one target per registrable domain (restricted to ``split``),
    plus the rows of the ``tail`` sources that no head source knows.

    Raises:
        ConfigError: no sources, a source that is not an authority source, or an unknown tail source.
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
    head = {d: _combine(v) for d, v in values.items()}
    extra = {d: t for d, t in tail_rows(validate_tail(tail), known=head).items()
             if split == "all" or domain_split(d) == split}
    domains = tuple(sorted({*head, *extra}))
    target = np.array([head[d] if d in head else extra[d] for d in domains], dtype=np.float64)
    used = tuple(tuple(sorted(values[d])) if d in head else ("tail",) for d in domains)
    weight = np.ones(len(domains))
    n_tail = len(extra)
    if n_tail:
        is_tail = np.array([d in extra for d in domains])
        weight[is_tail] = TAIL_SHARE / (1.0 - TAIL_SHARE) * len(head) / n_tail
    return TrainingSet(domains, target, used, tuple(sources), tuple(tail), weight)


def _combine(values: Mapping[str, float]) -> float:
    weights = [SOURCES[n].confidence for n in values]
    return float(np.average(list(values.values()), weights=weights))


def _fit_ridge(x: Any, y: NDArray[np.float64], alpha: float,
               w: NDArray[np.float64] | None = None) -> tuple[NDArray[np.float64], float]:
    """Ridge fit; a sparse ``x`` is reduced to its non-empty columns first (unused hash buckets
    would get weight 0 anyway, and 2**18-long vectors make every solver step slow)."""
    linear = require("sklearn.linear_model", extra="bench", feature="training the learned prior")
    model = linear.Ridge(alpha=alpha, solver="lsqr", tol=1e-4, fit_intercept=True)
    if isinstance(x, np.ndarray):
        model.fit(x, y, sample_weight=w)
        return np.asarray(model.coef_, dtype=np.float64), float(model.intercept_)
    used = np.unique(x.indices)
    model.fit(x[:, used], y, sample_weight=w)
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


def _cross_validate(x: Any, y: NDArray[np.float64], folds: NDArray[np.int64], w: NDArray[np.float64]) -> tuple[
        float, NDArray[np.float64], NDArray[np.float64]]:
    """(best alpha, its out-of-fold predictions, out-of-fold novelty)."""
    stats = require("scipy.stats", extra="core", feature="training the learned prior")
    best: tuple[float, float, NDArray[np.float64]] | None = None
    novelty = np.zeros(len(y))
    for alpha in ALPHAS:
        oof = np.zeros(len(y))
        for k in range(N_FOLDS):
            train, held = folds != k, folds == k
            coef, icpt = _fit_ridge(x[train], y[train], alpha, w[train])
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


def _fit_calibration(oof: NDArray[np.float64], y: NDArray[np.float64], w: NDArray[np.float64]) -> tuple[
        NDArray[np.float64], NDArray[np.float64]]:
    isotonic = require("sklearn.isotonic", extra="bench", feature="training the learned prior")
    iso = isotonic.IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip")
    iso.fit(oof, y, sample_weight=w)
    return np.asarray(iso.X_thresholds_, dtype=np.float64), np.asarray(iso.y_thresholds_, dtype=np.float64)


def train_learned_prior(sources: Sequence[str] | None = None, *, exclude: Iterable[str] = (),
                        split: Split = "all", seed: int = 0, tail: Sequence[str] = (),
                        calibrate_on: CalibrateOn = "tail") -> LearnedModel:
    """Train a learned prior; the same arguments always give the same weights.

    Args:
        sources: authority sources to learn from; default: every default authority source.
        exclude: sources to leave out (leave-source-out evaluation).
        split: ``"train"`` trains only on the hash-split training domains (for evaluation);
            ``"all"`` uses every domain (the shipped artifact).
        seed: seeds the cross-validation folds.
        tail: tail sources (:data:`~authorag.priors.learned.tail_data.TAIL_SOURCES`); non-empty gives a
            tail-aware model calibrated for unknown domains (see the module doc). The shipped
            model uses :data:`~authorag.priors.learned.tail_data.DEFAULT_TAIL`.
        calibrate_on: with tail rows, the population of the calibration: ``"tail"`` (domains
            no table knows, the default) or ``"all"`` (head + tail, weighted).

    Raises:
        ConfigError: bad source names, or too few training rows.
        MissingDependencyError: scikit-learn is not installed.
    """
    excluded = tuple(exclude)
    names = default_sources(excluded) if sources is None else tuple(s for s in sources if s not in excluded)
    data = build_training_set(names, split, tail)
    threadpoolctl = require("threadpoolctl", extra="bench", feature="training the learned prior")
    # One BLAS thread: the vectors are small, and on a shared machine threads mostly wait.
    with threadpoolctl.threadpool_limits(limits=1):
        return _train(data, names, excluded, split, seed, calibrate_on)


def _shrink_factors(calibrated: NDArray[np.float64], y: NDArray[np.float64], w: NDArray[np.float64],
                    novelty: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Novelty band edges and, per band, the weighted least-squares factor in [0, 1] of
    ``(y − 0.3)`` on ``(calibrated − 0.3)``: how far from the unknown level the evidence carries."""
    edges = np.unique(np.quantile(novelty, np.linspace(0, 1, NOVELTY_BANDS + 1)[1:-1]))
    band = np.searchsorted(edges, novelty, side="right")
    dx, dy = calibrated - UNKNOWN_LEVEL, y - UNKNOWN_LEVEL
    factors = np.ones(len(edges) + 1)
    for b in range(len(edges) + 1):
        sel = band == b
        den = float(np.sum(w[sel] * dx[sel] ** 2))
        if den > 0:
            factors[b] = float(np.clip(np.sum(w[sel] * dx[sel] * dy[sel]) / den, 0.0, 1.0))
    return edges.astype(np.float64), factors


def _train(data: TrainingSet, names: tuple[str, ...], exclude: tuple[str, ...], split: Split,
           seed: int, calibrate_on: CalibrateOn = "tail") -> LearnedModel:
    if len(data.domains) < 10 * N_FOLDS:
        raise ConfigError(f"only {len(data.domains)} training domains from sources {names}; need at least "
                          f"{10 * N_FOLDS}")
    feats = featurize(data.domains)
    x: Any = to_sparse(feats)
    y = data.target
    w = np.ones(len(y)) if data.weight is None else data.weight
    folds = np.array([_fold(d, seed) for d in data.domains], dtype=np.int64)
    alpha, oof, novelty = _cross_validate(x, y, folds, w)
    coef, icpt = _fit_ridge(x, y, alpha, w)
    # The population the calibration describes: every row, or (calibrate_on="tail") only the
    # domains no table knows, the population the learned tier is asked about.
    cal = data.is_tail if data.tail_names and calibrate_on == "tail" else np.ones(len(y), dtype=np.bool_)
    cal_x, cal_y = _fit_calibration(oof[cal], y[cal], w[cal])
    final = calibrate(oof, cal_x, cal_y, step=bool(data.tail_names))
    edges, factors = np.zeros(0), np.ones(1)
    if data.tail_names:
        edges, factors = _shrink_factors(final[cal], y[cal], w[cal], novelty[cal])
        final = UNKNOWN_LEVEL + factors[np.searchsorted(edges, novelty, side="right")] * (final - UNKNOWN_LEVEL)
    residual = np.abs(y - final)
    u_x = _uncertainty_features(feats.dense, oof, novelty)
    u_coef, u_icpt = _fit_ridge(u_x[cal], residual[cal], 1.0, w[cal])
    seen = np.asarray((x[:, :PAD] != 0).sum(axis=0)).ravel() > 0
    weights = np.zeros(PAD + 1, dtype=np.float32)
    weights[:PAD] = coef[:PAD]
    return LearnedModel(
        weights=weights, dense_weights=coef[PAD:].astype(np.float32), intercept=icpt,
        calib_x=cal_x, calib_y=cal_y, seen=np.append(seen, False),
        unc_weights=u_coef.astype(np.float64), unc_intercept=u_icpt,
        meta={**_meta(data, names, exclude, split, seed, alpha, oof, residual),
              "calibrate_on": calibrate_on if data.tail_names else "all",
              "cv_mean_abs_error_calibrated_rows": round(float(residual[cal].mean()), 4)},
        shrink_edges=edges, shrink_factors=factors if data.tail_names else np.zeros(0),
    )


def _meta(data: TrainingSet, names: Sequence[str], exclude: Iterable[str], split: Split, seed: int,
          alpha: float, oof: NDArray[np.float64], residual: NDArray[np.float64]) -> dict[str, Any]:
    stats = require("scipy.stats", extra="core", feature="training the learned prior")
    per_source: dict[str, int] = {n: sum(1 for s in data.sources if n in s) for n in names}
    is_tail = data.is_tail
    if data.tail_names:
        per_source["tail"] = int(is_tail.sum())
    head = ~is_tail
    return {
        "sources": list(names), "tail_sources": list(data.tail_names), "excluded": sorted(exclude),
        "split": split, "seed": seed, "alpha": alpha, "n_train": len(data.domains),
        "rows_per_source": per_source, "tail_share": TAIL_SHARE if data.tail_names else 0.0,
        "cv_spearman": round(float(stats.spearmanr(oof, data.target).statistic), 4),
        "cv_spearman_head": round(float(stats.spearmanr(oof[head], data.target[head]).statistic), 4),
        "cv_mean_abs_error": round(float(residual.mean()), 4),
        "dense_features": list(DENSE_NAMES),
    }


def learned_prior_for(exclude: Iterable[str] = (), tail: Sequence[str] | None = None, seed: int = 0,
                      calibrate_on: CalibrateOn = "tail") -> Any:
    """The learned prior without the ``exclude`` head sources and with the ``tail`` sources.

    The shipped artifact when it matches (nothing it was trained on is excluded, same tail);
    otherwise a model trained once and cached under the authorag cache folder
    (``learned_prior_without_<sources>[_tail_<sources>][_cal_all].npz``; about 5 CPU seconds,
    needs ``[bench]``).

    Args:
        exclude: prior sources to leave out (sources the learned prior does not use are ignored).
        tail: tail sources; None: the shipped model's (``ut1``, ``cred1``); ``()``: head only.

    Example:
        >>> learned_prior_for().meta["tail_sources"]
        ['ut1', 'cred1']
    """
    from authorag.priors.learned.model import LearnedPrior, load_learned_prior, load_model, save_model
    from authorag.priors.learned.tail_data import DEFAULT_TAIL
    from authorag.settings import cache_dir

    tails = DEFAULT_TAIL if tail is None else validate_tail(tail)
    drop = tuple(sorted(set(exclude) & set(default_sources())))
    shipped = load_learned_prior()
    cal = calibrate_on if tails else "all"
    if (not drop and list(tails) == list(shipped.meta.get("tail_sources", [])) and seed == shipped.meta.get("seed")
            and cal == shipped.meta.get("calibrate_on", "all")):
        return shipped
    name = "learned_prior" + (f"_without_{'+'.join(drop)}" if drop else "") + (f"_tail_{'+'.join(tails)}" if tails else "")
    name += "_cal_all" if tails and cal == "all" else ""
    path = cache_dir() / "bench" / f"{name}{'' if seed == 0 else f'_seed{seed}'}.npz"
    if not path.exists():
        log.info("training the learned prior without %s, tail %s (once, seconds) -> %s", drop, tails, path)
        path.parent.mkdir(parents=True, exist_ok=True)
        save_model(train_learned_prior(exclude=drop, tail=tails, seed=seed, calibrate_on=calibrate_on), path)
    return LearnedPrior(load_model(path))
