"""Fitting the page-evidence model: ridge logistic regression, leave-group-out calibration, cross-fitting.

* Features are centred on the training mean; continuous ones are divided by their standard
  deviation, 0/1 ones are not (a rare cue keeps its unit). A feature without evidence (NaN)
  sits at the centre and contributes nothing.
* The weights are shrunk towards :data:`PRIOR_WEIGHTS` (hand-set, not fitted: the URL cues of the
  page kinds labelled data hardly holds, such as shop pages and referral links) and towards 0 for
  every other feature, by ``l2``; the bias is not shrunk.
* Each labelled page is used twice, once as it is and once with its text layer masked, at half
  weight each, so one set of weights serves pages with and without text.
* Calibration: Platt scaling fitted on out-of-fold logits, the folds being the ``groups``
  (topics): a model never calibrates on its own training fit.

Example:
    >>> import numpy as np
    >>> from authorag.evidence.features import FEATURES
    >>> x = np.zeros((8, len(FEATURES))); x[:4, FEATURES.index("t.study")] = 2.0
    >>> model = fit_page_model(x, np.array([1, 1, 1, 1, 0, 0, 0, 0]), np.arange(8) % 4)
    >>> bool(model.weights[FEATURES.index("t.study")] > 0)
    True
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError
from authorag.evidence.features import FEATURES, LAYER_OF, LAYERS, EvidenceLayer
from authorag.evidence.model import PageModel

PRIOR_WEIGHTS: dict[str, float] = {
    "u.referral": -0.5, "u.shop": -0.7, "u.listing": -0.5, "u.dynamic": -0.3, "u.hosted": -0.3,
    "u.stuffed": -0.5, "s.commercial": -0.5, "s.content_farm": -0.5,
}
"""Hand-set prior weights (logit per unit): where the weights start before the data moves them."""
DEFAULT_L2 = 10.0
_TEXT = np.array([LAYER_OF[f] == "text" for f in FEATURES])


@dataclass(frozen=True)
class FitConfig:
    """How :func:`fit_page_model` fits.

    Attributes:
        l2: ridge strength (on the standardized scale).
        layers: layers used; the others are masked (the ablation rows).
        mask_text_copies: train on each page also with its text masked (see the module doc).
        prior: prior weights (feature -> logit per unit).
    """

    l2: float = DEFAULT_L2
    layers: tuple[EvidenceLayer, ...] = LAYERS
    mask_text_copies: bool = True
    prior: Mapping[str, float] = field(default_factory=lambda: dict(PRIOR_WEIGHTS))

    def __post_init__(self) -> None:
        if self.l2 <= 0:
            raise ConfigError(f"l2 must be > 0, got {self.l2}")
        bad = [layer for layer in self.layers if layer not in LAYERS]
        if bad or not self.layers:
            raise ConfigError(f"layers must be a non-empty subset of {', '.join(LAYERS)}, got {self.layers}")


def mask_layers(matrix: NDArray[np.float64], layers: Collection[str]) -> NDArray[np.float64]:
    """``matrix`` with the columns of every layer not in ``layers`` set to NaN (no evidence)."""
    out = matrix.copy()
    out[:, [LAYER_OF[f] not in layers for f in FEATURES]] = np.nan
    return out


CONTINUOUS = frozenset({"u.depth", *(f for f in FEATURES if LAYER_OF[f] == "text")})
"""Features divided by their standard deviation; the others (cues, 0-1 type confidences) keep their unit."""


def standardize(matrix: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per-column centre and scale (NaN-aware; see :data:`CONTINUOUS`; a constant column gets scale 1)."""
    means = np.zeros(matrix.shape[1])
    scales = np.ones(matrix.shape[1])
    for j, name in enumerate(FEATURES):
        col = matrix[:, j][~np.isnan(matrix[:, j])]
        if len(col) == 0:
            continue
        means[j] = float(col.mean())
        sd = float(col.std())
        scales[j] = sd if name in CONTINUOUS and sd > 1e-9 else 1.0
    return means, scales


def fit_logistic(z: NDArray[np.float64], y: NDArray[Any], l2: float, prior: NDArray[np.float64],
                 sample_weight: NDArray[np.float64] | None = None, iterations: int = 60) -> tuple[NDArray[np.float64], float]:
    """Newton's method for ``min Σ s·logloss + l2/2 · ‖w − prior‖²`` (bias unpenalized); returns ``(w, bias)``."""
    n, d = z.shape
    zb = np.hstack([z, np.ones((n, 1))])
    s = np.ones(n) if sample_weight is None else sample_weight
    beta = np.append(prior, 0.0)
    target = np.append(prior, 0.0)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(zb @ beta, -30, 30)))
        grad = zb.T @ (s * (p - y)) + penalty * (beta - target)
        hess = (zb * (s * p * (1 - p))[:, None]).T @ zb + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    return beta[:-1], float(beta[-1])


def _fit_raw(matrix: NDArray[np.float64], y: NDArray[Any], cfg: FitConfig) -> PageModel:
    """Weights without calibration (identity Platt)."""
    x = mask_layers(matrix, cfg.layers)
    means, scales = standardize(x)
    z = np.nan_to_num((x - means) / scales, nan=0.0)
    weight = np.ones(len(y))
    if cfg.mask_text_copies and "text" in cfg.layers and len(cfg.layers) > 1:
        masked = z.copy()
        masked[:, _TEXT] = 0.0
        z, y, weight = np.vstack([z, masked]), np.concatenate([y, y]), np.full(2 * len(y), 0.5)
    prior = np.array([cfg.prior.get(f, 0.0) if LAYER_OF[f] in cfg.layers else 0.0 for f in FEATURES])
    w, b = fit_logistic(z, y.astype(np.float64), cfg.l2, prior, weight)
    base = float(np.clip(y.mean(), 0.01, 0.99))
    return PageModel(w, means, scales, b, (1.0, 0.0), base)


def out_of_fold_logits(matrix: NDArray[np.float64], y: NDArray[Any], groups: NDArray[Any],
                       cfg: FitConfig) -> NDArray[np.float64]:
    """Each row's logit from the uncalibrated model fitted without its group."""
    out = np.zeros(len(y))
    for g in np.unique(groups):
        test = groups == g
        model = _fit_raw(matrix[~test], y[~test], cfg)
        out[test] = model.logits(mask_layers(matrix[test], cfg.layers))
    return out


def fit_platt(logits: NDArray[np.float64], y: NDArray[Any]) -> tuple[float, float]:
    """``(a, b)`` of ``sigmoid(a · logit + b)`` fitted to ``y`` (lightly regularized)."""
    w, b = fit_logistic(logits[:, None], y.astype(np.float64), 1e-3, np.zeros(1))
    return float(w[0]), b


def fit_page_model(matrix: NDArray[np.float64], y: NDArray[Any], groups: NDArray[Any],
                   cfg: FitConfig | None = None, meta: Mapping[str, Any] | None = None) -> PageModel:
    """The calibrated model: weights on all rows, Platt scaling on leave-group-out logits.

    Raises:
        ConfigError: shapes that do not match, labels other than 0/1, or fewer than two groups.
    """
    c = FitConfig() if cfg is None else cfg
    if matrix.shape != (len(y), len(FEATURES)) or len(groups) != len(y):
        raise ConfigError(f"need a ({len(y)}, {len(FEATURES)}) matrix and {len(y)} groups, got {matrix.shape} "
                          f"and {len(groups)}")
    if not np.isin(y, (0, 1)).all() or len(np.unique(groups)) < 2:
        raise ConfigError("labels must be 0/1 and there must be at least two groups (topics) to calibrate on")
    raw = _fit_raw(matrix, y, c)
    platt = fit_platt(out_of_fold_logits(matrix, y, groups, c), y)
    info = {"l2": c.l2, "layers": list(c.layers), "mask_text_copies": c.mask_text_copies, "rows": int(len(y)),
            "groups": int(len(np.unique(groups))), **dict(meta or {})}
    return PageModel(raw.weights, raw.means, raw.scales, raw.bias, platt, raw.base_rate, info)


def cross_fit(matrix: NDArray[np.float64], y: NDArray[Any], groups: NDArray[Any],
              cfg: FitConfig | None = None) -> dict[Any, PageModel]:
    """One calibrated model per group, fitted (and calibrated) without that group's rows."""
    return {g: fit_page_model(matrix[groups != g], y[groups != g], groups[groups != g], cfg)
            for g in np.unique(groups).tolist()}


__all__ = ["CONTINUOUS", "DEFAULT_L2", "PRIOR_WEIGHTS", "FitConfig", "cross_fit", "fit_logistic", "fit_page_model", "fit_platt",
           "mask_layers", "out_of_fold_logits", "standardize"]
