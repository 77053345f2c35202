"""Map judge scores (0–1) onto the prior's authority scale with a monotone piecewise-linear fit.

The shipped fit (``authorag/data/judge_calibration.json``) is made by
``scripts/fit_judge_calibration.py``: PointJudge scores of the default local model against the
default prior's authority on domains the prior table knows, fitted by isotonic regression (pool
adjacent violators) and stored as knots; values between knots are interpolated linearly and
values outside are clamped. A linear fit is available too.

Example:
    >>> cal = Calibration.fit([0.1, 0.5, 0.9], [0.2, 0.3, 0.8], kind="linear")
    >>> round(cal(0.5), 3)
    0.433
    >>> Calibration.identity()(0.42)
    0.42
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

import numpy as np

from authorag.errors import ConfigError, PriorUnavailable
from authorag.validation import check_choice

CalibrationKind = Literal["isotonic", "linear", "identity"]
DEFAULT_FILE = "judge_calibration.json"


@dataclass(frozen=True, slots=True)
class Calibration:
    """A monotone map from judge score to prior scale, stored as knots.

    Attributes:
        kind: how it was fitted.
        x, y: knots (increasing ``x``; ``y`` non-decreasing for isotonic fits).
        model, prompt_version: the judge it was fitted for.
        n: number of overlapping domains used.
        note: how it was made (command, data).
        scale: ``"table"`` (fitted on table domains: the hybrid shrinks the value towards 0.3 by
            confidence) or ``"unknown"`` (fitted on domains as an unknown one should be scored,
            already evidence-weighted around 0.3: not shrunk again).
    """

    kind: CalibrationKind
    x: tuple[float, ...]
    y: tuple[float, ...]
    model: str = ""
    prompt_version: str = ""
    n: int = 0
    note: str = ""
    scale: Literal["table", "unknown"] = "table"

    def __post_init__(self) -> None:
        check_choice("calibration kind", self.kind, get_args(CalibrationKind))
        if len(self.x) != len(self.y) or len(self.x) < 2:
            raise ConfigError(f"calibration needs >= 2 knots with matching x and y, got {len(self.x)} and {len(self.y)}")
        if any(b < a for a, b in zip(self.x, self.x[1:])):
            raise ConfigError("calibration knots x must be increasing")
        if self.scale not in ("table", "unknown"):
            raise ConfigError(f"calibration scale must be 'table' or 'unknown', got {self.scale!r}")

    def __call__(self, score: float) -> float:
        """The calibrated value of a 0–1 judge score (clamped to the knot range)."""
        return float(np.clip(np.interp(score, self.x, self.y), 0.0, 1.0))

    @classmethod
    def identity(cls) -> Calibration:
        """No change."""
        return cls("identity", (0.0, 1.0), (0.0, 1.0), note="identity")

    @classmethod
    def fit(cls, judge: Sequence[float], prior: Sequence[float], *, kind: CalibrationKind = "isotonic",
            weights: Sequence[float] | None = None, **meta: Any) -> Calibration:
        """Fit prior ≈ f(judge) on overlapping items (``isotonic`` or ``linear``), optionally weighted.

        Raises:
            ConfigError: fewer than 3 pairs, mismatched lengths or an unknown kind.
        """
        xs, ys = np.asarray(judge, dtype=np.float64), np.asarray(prior, dtype=np.float64)
        ws = np.ones_like(xs) if weights is None else np.asarray(weights, dtype=np.float64)
        if xs.shape != ys.shape or xs.shape != ws.shape or xs.size < 3:
            raise ConfigError(f"need >= 3 matching (judge, prior[, weight]) triples to fit, got {xs.size}, "
                              f"{ys.size} and {ws.size}")
        if kind == "linear":
            slope, intercept = np.polyfit(xs, ys, 1, w=np.sqrt(ws))
            lo, hi = float(xs.min()), float(xs.max())
            knots_x = (lo, hi) if hi > lo else (lo, lo + 1e-9)
            return cls("linear", knots_x, tuple(float(slope * v + intercept) for v in knots_x), n=int(xs.size), **meta)
        if kind != "isotonic":
            raise ConfigError(f"kind must be 'isotonic' or 'linear' to fit, got {kind!r}")
        knots_x, knots_y = isotonic_knots(xs, ys, ws)
        return cls("isotonic", knots_x, knots_y, n=int(xs.size), **meta)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        """Inverse of :meth:`to_dict`."""
        return cls(data["kind"], tuple(data["x"]), tuple(data["y"]), data.get("model", ""),
                   data.get("prompt_version", ""), int(data.get("n", 0)), data.get("note", ""),
                   data.get("scale", "table"))

    @classmethod
    def load(cls, path: str | Path | None = None) -> Calibration:
        """The shipped calibration, or the JSON file at ``path``.

        Raises:
            PriorUnavailable: the file is missing or unreadable.
        """
        try:
            if path is None:
                text = resources.files("authorag.data").joinpath(DEFAULT_FILE).read_text(encoding="utf-8")
            else:
                text = Path(path).read_text(encoding="utf-8")
            return cls.from_dict(json.loads(text))
        except (OSError, ValueError, KeyError) as exc:
            raise PriorUnavailable(f"cannot read the judge calibration {path or DEFAULT_FILE}: {exc}") from exc


def isotonic_knots(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any],
                   w: np.ndarray[Any, Any] | None = None) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Pool-adjacent-violators fit of non-decreasing y on x (weights ``w``); knots at block means of x.

    Example:
        >>> isotonic_knots(np.array([0.0, 1.0, 2.0]), np.array([0.0, 2.0, 1.0]))
        ((0.0, 1.5), (0.0, 1.5))
        >>> isotonic_knots(np.array([0.0, 1.0, 2.0]), np.array([0.0, 2.0, 1.0]), np.array([1.0, 3.0, 1.0]))
        ((0.0, 1.25), (0.0, 1.75))
    """
    order = np.argsort(x, kind="stable")
    weights = np.ones(len(x)) if w is None else np.asarray(w, dtype=np.float64)
    blocks: list[list[float]] = []  # [weighted sum_x, weighted sum_y, total weight]
    for xv, yv, wv in zip(x[order].tolist(), y[order].tolist(), weights[order].tolist()):
        blocks.append([xv * wv, yv * wv, wv])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] > blocks[-1][1] / blocks[-1][2]:
            sx, sy, c = blocks.pop()
            blocks[-1] = [blocks[-1][0] + sx, blocks[-1][1] + sy, blocks[-1][2] + c]
    kx = [b[0] / b[2] for b in blocks]
    ky = [b[1] / b[2] for b in blocks]
    if len(kx) == 1:
        kx, ky = [kx[0], kx[0] + 1e-9], [ky[0], ky[0]]
    return tuple(kx), tuple(ky)


__all__ = ["Calibration", "CalibrationKind", "isotonic_knots"]
