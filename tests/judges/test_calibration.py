"""Calibration fits (hand-worked)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from authorag.errors import ConfigError, PriorUnavailable
from authorag.judges.calibration import Calibration, isotonic_knots


def test_isotonic_pools_violators() -> None:
    x, y = isotonic_knots(np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.1, 0.5, 0.3, 0.9]))
    assert x == pytest.approx((0.1, 0.25, 0.4)) and y == pytest.approx((0.1, 0.4, 0.9))
    cal = Calibration.fit([0.1, 0.2, 0.3, 0.4], [0.1, 0.5, 0.3, 0.9])
    assert cal(0.0) == pytest.approx(0.1)  # clamped below the first knot
    assert cal(0.325) == pytest.approx(0.65)  # halfway between 0.25 and 0.4
    assert cal(1.0) == pytest.approx(0.9)


def test_linear_fit() -> None:
    cal = Calibration.fit([0.0, 0.5, 1.0], [0.2, 0.4, 0.6], kind="linear")
    assert cal(0.25) == pytest.approx(0.3)


def test_round_trip_and_errors(tmp_path) -> None:
    cal = Calibration.fit([0.0, 0.5, 1.0], [0.2, 0.4, 0.6], model="m", prompt_version="p")
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(cal.to_dict()))
    assert Calibration.load(path) == cal
    with pytest.raises(PriorUnavailable, match="cannot read the judge calibration"):
        Calibration.load(tmp_path / "missing.json")
    with pytest.raises(ConfigError, match="need >= 3 matching"):
        Calibration.fit([0.1], [0.2])
    with pytest.raises(ConfigError, match="knots x must be increasing"):
        Calibration("linear", (1.0, 0.0), (0.0, 1.0))
