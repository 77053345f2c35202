"""The learned prior (tier ``learned``): authority predicted from the domain name, numpy only.

A ridge regression over hashed character n-grams, tokens, suffix and a few dense features of the
registrable domain (:mod:`authorag.priors.learned.features`), trained from the shipped authority sources
(:mod:`authorag.priors.learned.train`), calibrated to the prior table's 0–1 scale with an
isotonic map, plus a linear model of its own absolute error (the *uncertainty*). The artifact is
``authorag/data/learned_prior.npz`` with ``learned_prior.json`` (training metadata).

Confidence is ``MAX_CONFIDENCE × (1 − uncertainty / UNCERTAINTY_CEILING)`` clipped to ≥ 0: a
guess from the name alone never claims more than a suffix rule (0.5), and less the larger its
expected error and the more of the name's n-grams were never seen in training.

Two scales (``LearnedPrior.scale``): a model trained on the head only (format 1, ``"table"``)
predicts a table value, which :class:`~authorag.tiers.hybrid.HybridAuthority` shrinks towards 0.3 by
confidence. A tail-aware model (format 2 with shrink factors, ``"unknown"``; the shipped one)
is calibrated on domains no table knows and already returns ``0.3 + s·(calibrated − 0.3)``
(:mod:`authorag.priors.learned.train`), so it is not shrunk again.

Example:
    >>> prior = load_learned_prior()
    >>> pred = prior.predict(["nasa.gov", "best-cheap-pills-online.biz"])
    >>> bool(pred.authority[0] > pred.authority[1])
    True
"""
from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors.learned.features import DENSE_NAMES, PAD, DomainFeatures, featurize
from authorag.types import UNKNOWN_DETAIL, UNKNOWN_LEVEL, AuthorityDetail, Candidate, SourceValue

log = logging.getLogger(__name__)

ARTIFACT = "learned_prior.npz"
META = "learned_prior.json"
FORMAT_VERSION = 2
_READABLE_FORMATS = (1, 2)
MAX_CONFIDENCE = 0.5
UNCERTAINTY_CEILING = 0.5
_MIN_UNCERTAINTY = 0.02


@dataclass(frozen=True)
class LearnedModel:
    """The trained parameters (what the artifact stores).

    Attributes:
        weights: ``PAD + 1`` float32 weights of the hashed features (last entry 0: padding).
        dense_weights: weights of the dense features (:data:`~authorag.priors.learned.features.DENSE_NAMES`).
        intercept: bias of the linear score.
        calib_x, calib_y: isotonic calibration breakpoints (linear score → 0–1 authority).
        seen: ``PAD + 1`` bools: hashed features present in the training data.
        unc_weights, unc_intercept: linear model of the absolute error from
            ``[dense features, linear score, novelty]``.
        meta: training metadata (sources, seed, alpha, cross-validation numbers).
        shrink_edges, shrink_factors: novelty band edges and per-band factors towards
            :data:`UNKNOWN_LEVEL` (tail-aware models); ``shrink_factors`` empty: a table-scale model.
    """

    weights: NDArray[np.float32]
    dense_weights: NDArray[np.float32]
    intercept: float
    calib_x: NDArray[np.float64]
    calib_y: NDArray[np.float64]
    seen: NDArray[np.bool_]
    unc_weights: NDArray[np.float64]
    unc_intercept: float
    meta: dict[str, Any] = field(default_factory=dict[str, Any])
    shrink_edges: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    shrink_factors: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))

    @property
    def scale(self) -> str:
        """``"unknown"`` for a tail-aware model calibrated around 0.3, else ``"table"``."""
        return "unknown" if self.shrink_factors.size else "table"

    def __post_init__(self) -> None:
        expected = {"weights": PAD + 1, "dense_weights": len(DENSE_NAMES), "seen": PAD + 1,
                    "unc_weights": len(DENSE_NAMES) + 2}
        for name, size in expected.items():
            got = int(getattr(self, name).shape[0])
            if got != size:
                raise PriorUnavailable(
                    f"learned prior {name} has {got} entries, the feature code expects {size}; the "
                    "artifact was built with other features: rebuild it with `authorag priors train`")
        if self.shrink_factors.size and self.shrink_factors.size != self.shrink_edges.size + 1:
            raise PriorUnavailable(f"learned prior has {self.shrink_factors.size} shrink factors for "
                                   f"{self.shrink_edges.size} band edges (expected one more factor than edges); "
                                   "rebuild it with `authorag priors train`")


@dataclass(frozen=True, slots=True)
class LearnedPrediction:
    """Batch output of :meth:`LearnedPrior.predict` (arrays in input order).

    Attributes:
        authority: calibrated authority 0–1.
        uncertainty: expected absolute error of ``authority``.
        confidence: 0–:data:`MAX_CONFIDENCE`, derived from ``uncertainty``.
        novelty: share of the name's hashed features never seen in training.
    """

    authority: NDArray[np.float64]
    uncertainty: NDArray[np.float64]
    confidence: NDArray[np.float64]
    novelty: NDArray[np.float64]


def save_model(model: LearnedModel, path: Path) -> Path:
    """Write ``model`` to ``path`` (``.npz``) and its metadata next to it (``.json``)."""
    np.savez_compressed(
        path, weights=model.weights, dense_weights=model.dense_weights,
        intercept=np.array([model.intercept]), calib_x=model.calib_x, calib_y=model.calib_y,
        seen=np.packbits(model.seen), unc_weights=model.unc_weights,
        unc_intercept=np.array([model.unc_intercept]), shrink_edges=model.shrink_edges,
        shrink_factors=model.shrink_factors)
    meta = {"format_version": FORMAT_VERSION, **model.meta}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def load_model(path: Path | None = None) -> LearnedModel:
    """Read a model written by :func:`save_model`; default: the shipped artifact.

    Raises:
        PriorUnavailable: the file is missing, unreadable or built for other features.
    """
    try:
        if path is None:
            data_dir = resources.files("authorag.data")
            raw_meta = data_dir.joinpath(META).read_text("utf-8")
            with data_dir.joinpath(ARTIFACT).open("rb") as fh:
                arrays = dict(np.load(fh))
        else:
            raw_meta = path.with_suffix(".json").read_text("utf-8")
            with np.load(path) as npz:
                arrays = dict(npz)
    except (OSError, ValueError) as exc:
        where = ARTIFACT if path is None else str(path)
        raise PriorUnavailable(f"cannot read the learned prior {where} ({exc}); rebuild it with "
                               "`authorag priors train`") from exc
    meta: dict[str, Any] = json.loads(raw_meta)
    if meta.get("format_version") not in _READABLE_FORMATS:
        raise PriorUnavailable(f"learned prior format {meta.get('format_version')!r} is not one of "
                               f"{_READABLE_FORMATS}; rebuild it with `authorag priors train`")
    return LearnedModel(
        weights=arrays["weights"].astype(np.float32), dense_weights=arrays["dense_weights"].astype(np.float32),
        intercept=float(arrays["intercept"][0]), calib_x=arrays["calib_x"], calib_y=arrays["calib_y"],
        seen=np.unpackbits(arrays["seen"])[: PAD + 1].astype(np.bool_), unc_weights=arrays["unc_weights"],
        unc_intercept=float(arrays["unc_intercept"][0]), meta=meta,
        shrink_edges=arrays.get("shrink_edges", np.zeros(0)), shrink_factors=arrays.get("shrink_factors", np.zeros(0)))


def calibrate(raw: NDArray[np.float64], x: NDArray[np.float64], y: NDArray[np.float64], *,
              step: bool) -> NDArray[np.float64]:
    """The isotonic map at ``raw``: linear between knots, or (``step``) the value of the knot at
    or below, so that names whose scores fall in one isotonic block share one value exactly
    (a ranking then sees a tie, not noise).

    Example:
        >>> x, y = np.array([0.0, 1.0]), np.array([0.1, 0.3])
        >>> calibrate(np.array([0.5]), x, y, step=False).tolist(), calibrate(np.array([0.5]), x, y, step=True).tolist()
        ([0.2], [0.1])
    """
    if not step:
        return np.interp(raw, x, y)
    return y[np.clip(np.searchsorted(x, raw, side="right") - 1, 0, len(y) - 1)]


def _not_a_name(domain: str) -> bool:
    """IPs and localhost have no name to read."""
    return domain == "localhost" or ":" in domain or domain.rsplit(".", 1)[-1].isdigit()


class LearnedPrior:
    """Authority from the domain name (``AuthorityScorer``, tier ``learned``).

    Example:
        >>> prior = load_learned_prior()
        >>> d = prior.score([Candidate.create("https://www.nasa.gov/x")])[0]
        >>> d.tier, 0.0 <= d.authority <= 1.0, d.confidence <= MAX_CONFIDENCE
        ('learned', True, True)
    """

    name = "learned"

    def __init__(self, model: LearnedModel) -> None:
        self.model = model
        present = np.ones(PAD + 1, dtype=np.float32)
        present[PAD] = 0.0
        # One gather serves the score, the seen-feature count and the feature count.
        self._stacked = np.column_stack([model.weights, model.seen.astype(np.float32), present])

    @property
    def meta(self) -> dict[str, Any]:
        """Training metadata of the loaded artifact."""
        return self.model.meta

    @property
    def scale(self) -> str:
        """``"unknown"``: values are already evidence-weighted around 0.3 (do not shrink again)."""
        return self.model.scale

    def predict(self, domains: Sequence[str]) -> LearnedPrediction:
        """Batch prediction for registrable domains (``Candidate.domain``; lower case, punycode).

        Raises:
            ConfigError: a string that is not a registrable domain (see
                :func:`~authorag.priors.learned.features.featurize`).
        """
        return self.predict_features(featurize(domains))

    def predict_features(self, feats: DomainFeatures) -> LearnedPrediction:
        """Prediction from precomputed features."""
        m = self.model
        sums = feats.hashed_sum(self._stacked)
        raw = sums[:, 0] + feats.dense @ m.dense_weights + np.float32(m.intercept)
        authority = calibrate(raw.astype(np.float64), m.calib_x, m.calib_y, step=m.scale == "unknown")
        novelty = 1.0 - sums[:, 1] / np.maximum(sums[:, 2], 1.0)
        if m.shrink_factors.size:
            factor = m.shrink_factors[np.searchsorted(m.shrink_edges, novelty, side="right")]
            authority = UNKNOWN_LEVEL + factor * (authority - UNKNOWN_LEVEL)
        d = len(DENSE_NAMES)
        u_lin = (feats.dense @ m.unc_weights[:d].astype(np.float32) + raw * m.unc_weights[d]
                 + novelty * m.unc_weights[d + 1] + m.unc_intercept)
        uncertainty = np.clip(u_lin.astype(np.float64), _MIN_UNCERTAINTY, UNCERTAINTY_CEILING)
        confidence = MAX_CONFIDENCE * np.clip(1.0 - uncertainty / UNCERTAINTY_CEILING, 0.0, 1.0)
        return LearnedPrediction(authority, uncertainty, confidence, novelty.astype(np.float64))

    def lookup(self, domain: str) -> AuthorityDetail:
        """Detail for one registrable domain (same rules as :meth:`score`)."""
        return self.score([Candidate(id=domain, url=domain, host=domain, domain=domain)])[0]

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """One detail per candidate; candidates without a readable name domain stay unknown."""
        out: list[AuthorityDetail] = [UNKNOWN_DETAIL] * len(candidates)
        todo = [i for i, c in enumerate(candidates) if c.domain is not None and not _not_a_name(c.domain)]
        if not todo:
            return out
        domains = [candidates[i].domain or "" for i in todo]
        try:
            pred = self.predict(domains)
        except ConfigError as exc:
            log.warning("learned prior: cannot score a batch of %d domains (%s); scoring one by one",
                        len(domains), exc)
            return self._score_each(candidates)
        for j, i in enumerate(todo):
            out[i] = self._detail(domains[j], pred, j)
        return out

    def _score_each(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        out: list[AuthorityDetail] = []
        for c in candidates:
            if c.domain is None or _not_a_name(c.domain):
                out.append(UNKNOWN_DETAIL)
                continue
            try:
                out.append(self._detail(c.domain, self.predict([c.domain]), 0))
            except ConfigError as exc:
                out.append(AuthorityDetail(None, 0.0, "unknown", note=f"learned prior: {exc}"))
        return out

    def _detail(self, domain: str, pred: LearnedPrediction, j: int) -> AuthorityDetail:
        value, unc = float(pred.authority[j]), float(pred.uncertainty[j])
        how = ("learned from the domain name, calibrated for domains no table knows (unknown level "
               f"{UNKNOWN_LEVEL:g})" if self.scale == "unknown" else "learned from the domain name")
        return AuthorityDetail(
            authority=value, confidence=float(pred.confidence[j]), tier="learned",
            sources=(SourceValue("learned", value),), matched=domain,
            note=f"{how}; expected error ±{unc:.2f}")


@lru_cache(maxsize=4)
def _cached(path: str | None) -> LearnedPrior:
    return LearnedPrior(load_model(None if path is None else Path(path)))


def load_learned_prior(path: str | Path | None = None) -> LearnedPrior:
    """The learned prior from the shipped artifact (or ``path``); loaded once and cached.

    Raises:
        PriorUnavailable: the artifact is missing or was built for other features.

    Example:
        >>> load_learned_prior() is load_learned_prior()
        True
    """
    return _cached(None if path is None else str(Path(path).resolve()))
