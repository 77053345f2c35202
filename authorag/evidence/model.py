"""The page-evidence model: cue weights, a calibration fitted on more than one collection, the trust map.

A page's cue score is ``−Σ weight·(1 + min(rate, 10)/10)`` over its low cues plus
``Σ weight`` over its high cues (:mod:`authorag.evidence.text`; the weights are hand-set per
cue, not fitted). The score is mapped to a calibrated probability that the page is credible by
Platt scaling, ``sigmoid(a · score + b)``, fitted by ``scripts/build_page_evidence.py`` on pages of
two collections that no evaluation track is built from (RAMDocs documents and hand-written dev
pages, each collection weighted equally), and that probability to the trust scale by
:func:`page_trust`:

* ``credibility == base_rate`` → :data:`~authorag.types.UNKNOWN_LEVEL` (0.3);
* above it, linearly up to :data:`TRUST_HIGH` at certainty; below it, down to :data:`TRUST_LOW`.

The tier keeps a page with only low cues at or below the unknown level and caps any lift
(:data:`~authorag.evidence.tier.MAX_LIFT`): what a page says about itself can be imitated.

Example:
    >>> model = load_page_model()
    >>> round(page_trust(model.base_rate, model.base_rate), 3), page_trust(None, model.base_rate)
    (0.3, 0.3)
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from authorag.errors import ConfigError, PriorUnavailable
from authorag.types import UNKNOWN_LEVEL

ARTIFACT = "page_evidence.json"
FORMAT_VERSION = 2
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


CUE_WEIGHTS: dict[str, float] = {
    "spam": 1.0, "sales": 0.8, "cure": 1.0, "clickbait": 0.8, "conspiracy": 1.0, "alarm": 0.8, "excl": 0.6, "caps": 0.6,
    "u.referral": 0.6, "u.stuffed": 0.8, "s.content_farm": 0.8, "attribution": 0.5, "sources": 0.5}
"""Cue -> weight in the score (hand-set: low cues push down, high cues up; not fitted)."""


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-min(30.0, max(-30.0, x))))


@dataclass(frozen=True)
class PageModel:
    """The page-evidence model.

    Attributes:
        platt: ``(a, b)``: calibrated credibility = ``sigmoid(a · score + b)``.
        base_rate: share of credible pages in the calibration data (maps to the unknown level).
        weights: cue -> weight (default :data:`CUE_WEIGHTS`).
        meta: how it was calibrated (collections, sizes).
    """

    platt: tuple[float, float]
    base_rate: float
    weights: Mapping[str, float] = field(default_factory=lambda: dict(CUE_WEIGHTS))
    meta: Mapping[str, Any] = field(default_factory=lambda: {})

    def __post_init__(self) -> None:
        if not 0.0 < self.base_rate < 1.0:
            raise ConfigError(f"page-evidence base_rate must be in (0, 1), got {self.base_rate}")
        if self.platt[0] <= 0:
            raise ConfigError(f"page-evidence platt slope must be > 0 (a higher score is more credible), got {self.platt[0]}")

    def score(self, low: Sequence[tuple[str, float]], high: Sequence[str]) -> float:
        """The cue score of a page: ``low`` as (cue, rate per 100 words; 0 for URL cues), ``high`` as cue names."""
        down = sum(self.weights.get(c, 0.0) * (1.0 + min(rate, 10.0) / 10.0) for c, rate in low)
        return sum(self.weights.get(c, 0.0) for c in high) - down

    def calibrated(self, score: float) -> float:
        """Calibrated credibility probability of a cue score."""
        a, b = self.platt
        return _sigmoid(a * score + b)

    def to_json(self) -> dict[str, Any]:
        """The JSON artifact."""
        return {"format": FORMAT_VERSION, "weights": dict(sorted(self.weights.items())),
                "platt": [round(self.platt[0], 6), round(self.platt[1], 6)], "base_rate": round(self.base_rate, 6),
                "meta": dict(self.meta)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "page-evidence model") -> PageModel:
        """The model stored by :meth:`to_json`.

        Raises:
            ConfigError: another format version (rebuild it with ``python scripts/build_page_evidence.py``).
        """
        if data.get("format") != FORMAT_VERSION:
            raise ConfigError(f"{source}: format {data.get('format')!r} does not match this version "
                              f"(format {FORMAT_VERSION}); rebuild it with 'python scripts/build_page_evidence.py'")
        platt = data["platt"]
        return cls((float(platt[0]), float(platt[1])), float(data["base_rate"]),
                   {str(k): float(v) for k, v in data.get("weights", CUE_WEIGHTS).items()}, dict(data.get("meta", {})))

    def save(self, path: str | Path) -> None:
        """Write the JSON artifact."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")


@cache
def load_page_model(path: str | None = None) -> PageModel:
    """The shipped model (``authorag/data/page_evidence.json``) or the one stored at ``path``.

    Raises:
        PriorUnavailable: the file is missing or not JSON.
        ConfigError: it was built for another format.
    """
    try:
        text = (Path(path).read_text(encoding="utf-8") if path is not None
                else resources.files("authorag.data").joinpath(ARTIFACT).read_text(encoding="utf-8"))
        data = json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise PriorUnavailable(f"page-evidence model {path or ARTIFACT}: cannot read it ({exc}); "
                               "rebuild it with 'python scripts/build_page_evidence.py'") from exc
    return PageModel.from_json(data, path or ARTIFACT)


__all__ = ["ARTIFACT", "CUE_WEIGHTS", "TRUST_HIGH", "TRUST_LOW", "PageModel", "load_page_model", "page_trust"]
