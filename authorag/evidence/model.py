"""The page-evidence model: an additive logistic model over the layers, calibrated, on the trust scale.

``logit = bias + Σ_f w_f · (x_f − mean_f) / scale_f``, a feature without evidence (NaN)
contributing 0, so each layer's contribution is the sum over its features and the breakdown
shows it. The logit is mapped to a calibrated probability that the page is credible (Platt
scaling fitted on out-of-fold logits, :mod:`authorag.evidence.train`), and that probability
to the trust scale by :func:`page_trust`:

* ``credibility == base_rate`` (the share of credible pages the model was trained on: evidence
  that moves nothing) → :data:`~authorag.types.UNKNOWN_LEVEL` (0.3);
* above it, linearly up to :data:`TRUST_HIGH` at certainty; below it, down to :data:`TRUST_LOW`.

Page evidence alone never lifts a page to the level of a well-known institution (0.8–1 on the
trust scale) nor puts it at the floor of a known misinformation site: what a page says about
itself can be imitated.

The shipped parameters are ``authorag/data/page_evidence.json``, built by
``scripts/build_page_evidence.py``.

Example:
    >>> model = load_page_model()
    >>> round(page_trust(model.base_rate, model.base_rate), 3), page_trust(None, model.base_rate)
    (0.3, 0.3)
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError, PriorUnavailable
from authorag.evidence.features import FEATURES
from authorag.types import UNKNOWN_LEVEL

ARTIFACT = "page_evidence.json"
FORMAT_VERSION = 1
TRUST_LOW = 0.1
"""Trust of a page whose own evidence makes it certainly not credible."""
TRUST_HIGH = 0.6
"""Trust of a page whose own evidence makes it certainly credible."""


def page_trust(credibility: float | None, base_rate: float) -> float:
    """The trust-scale value of a calibrated page credibility (None: no evidence, the unknown level).

    Example:
        >>> page_trust(1.0, 0.6), page_trust(0.0, 0.6), round(page_trust(0.3, 0.6), 3)
        (0.6, 0.1, 0.2)
    """
    if credibility is None:
        return UNKNOWN_LEVEL
    if credibility >= base_rate:
        return UNKNOWN_LEVEL + (credibility - base_rate) / (1.0 - base_rate) * (TRUST_HIGH - UNKNOWN_LEVEL)
    return UNKNOWN_LEVEL - (base_rate - credibility) / base_rate * (UNKNOWN_LEVEL - TRUST_LOW)


def _sigmoid(x: NDArray[np.float64]) -> NDArray[np.float64]:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30.0, 30.0)))


@dataclass(frozen=True)
class PageModel:
    """Parameters of the page-evidence model (one entry per :data:`FEATURES` name).

    Attributes:
        weights: per-feature weights on the standardized scale.
        means: per-feature centre (a feature at its mean contributes nothing).
        scales: per-feature scale (1 for 0/1 features).
        bias: the logit of a page whose every feature sits at its mean.
        platt: ``(a, b)``: calibrated credibility = ``sigmoid(a · logit + b)``.
        base_rate: share of credible pages in the training data (maps to the unknown level).
        meta: how the model was trained (data, sizes, regularization, evaluation pointers).
    """

    weights: NDArray[np.float64]
    means: NDArray[np.float64]
    scales: NDArray[np.float64]
    bias: float
    platt: tuple[float, float]
    base_rate: float
    meta: Mapping[str, Any] = field(default_factory=lambda: {})

    def __post_init__(self) -> None:
        n = len(FEATURES)
        if not (self.weights.shape == self.means.shape == self.scales.shape == (n,)):
            raise ConfigError(f"page-evidence model needs {n} weights, means and scales, got "
                              f"{self.weights.shape}, {self.means.shape}, {self.scales.shape}")
        if not 0.0 < self.base_rate < 1.0:
            raise ConfigError(f"page-evidence base_rate must be in (0, 1), got {self.base_rate}")

    def contributions(self, matrix: NDArray[np.float64]) -> NDArray[np.float64]:
        """Per-feature logit contributions (``matrix``'s shape); NaN features contribute 0."""
        z = (matrix - self.means) / self.scales
        return np.nan_to_num(z * self.weights, nan=0.0)

    def logits(self, matrix: NDArray[np.float64]) -> NDArray[np.float64]:
        """The uncalibrated logit of each row."""
        return self.bias + self.contributions(matrix).sum(axis=1)

    def calibrated(self, logits: NDArray[np.float64]) -> NDArray[np.float64]:
        """Calibrated credibility probabilities of ``logits``."""
        a, b = self.platt
        return _sigmoid(a * logits + b)

    def to_json(self) -> dict[str, Any]:
        """The JSON artifact (``features`` name each entry, so a reordering is caught on load)."""
        return {"format": FORMAT_VERSION, "features": list(FEATURES),
                "weights": [round(float(w), 6) for w in self.weights], "means": [round(float(m), 6) for m in self.means],
                "scales": [round(float(s), 6) for s in self.scales], "bias": round(self.bias, 6),
                "platt": [round(self.platt[0], 6), round(self.platt[1], 6)], "base_rate": round(self.base_rate, 6),
                "meta": dict(self.meta)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "page-evidence model") -> PageModel:
        """The model stored by :meth:`to_json`.

        Raises:
            ConfigError: another format version or another feature list (rebuild it with
                ``python scripts/build_page_evidence.py``).
        """
        if data.get("format") != FORMAT_VERSION or list(data.get("features", [])) != list(FEATURES):
            raise ConfigError(f"{source}: format {data.get('format')!r} with {len(data.get('features', []))} features "
                              f"does not match this version (format {FORMAT_VERSION}, {len(FEATURES)} features); "
                              "rebuild it with 'python scripts/build_page_evidence.py'")
        platt = data["platt"]
        return cls(np.array(data["weights"], dtype=np.float64), np.array(data["means"], dtype=np.float64),
                   np.array(data["scales"], dtype=np.float64), float(data["bias"]),
                   (float(platt[0]), float(platt[1])), float(data["base_rate"]), dict(data.get("meta", {})))

    def save(self, path: str | Path) -> None:
        """Write the JSON artifact."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")


@cache
def load_page_model(path: str | None = None) -> PageModel:
    """The shipped model (``authorag/data/page_evidence.json``) or the one stored at ``path``.

    Raises:
        PriorUnavailable: the file is missing or not JSON.
        ConfigError: it was built for another feature list.
    """
    try:
        text = (Path(path).read_text(encoding="utf-8") if path is not None
                else resources.files("authorag.data").joinpath(ARTIFACT).read_text(encoding="utf-8"))
        data = json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise PriorUnavailable(f"page-evidence model {path or ARTIFACT}: cannot read it ({exc}); "
                               "rebuild it with 'python scripts/build_page_evidence.py'") from exc
    return PageModel.from_json(data, path or ARTIFACT)


__all__ = ["ARTIFACT", "TRUST_HIGH", "TRUST_LOW", "PageModel", "load_page_model", "page_trust"]
