"""The tail-aware learned prior: tail rows, leave-origin-out, unknown-scale calibration, no double shrink."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from authorag.errors import ConfigError, PriorUnavailable
from authorag.judges.calibration import Calibration
from authorag.priors.learned.model import (
    UNKNOWN_LEVEL,
    LearnedModel,
    LearnedPrior,
    load_model,
    save_model,
)
from authorag.priors.learned.tail_data import (
    LOW_TARGET,
    source_targets,
    tail_rows,
    tail_sources_without,
)
from authorag.priors.learned.train import (
    TAIL_SHARE,
    build_training_set,
    registrable_values,
    train_learned_prior,
)
from authorag.priors.table import load_prior
from authorag.tiers.hybrid import HybridAuthority
from authorag.types import candidates_from


@pytest.fixture(scope="module")
def tiny() -> LearnedModel:
    # Moz (450 head domains) + CRED-1 (~2,600 tail domains): about two seconds.
    return train_learned_prior(["moz"], tail=("cred1",), seed=0)


def test_ut1_and_cred1_targets() -> None:
    ut1, cred1 = source_targets("ut1"), source_targets("cred1")
    assert ut1["19thnews.org"] == LOW_TARGET  # UT1 fakenews
    assert set(ut1.values()) == {LOW_TARGET, UNKNOWN_LEVEL}  # low categories, press/blog
    assert 0.0 < min(cred1.values()) and max(cred1.values()) < 0.8
    assert not any(d.startswith("blogspot.") for d in ut1)  # platform hosts never label a platform


@pytest.mark.parametrize(("origin", "kept"), [(None, ("ut1", "cred1")), ("mbfc", ("ut1",)),
                                               ("cred1", ("ut1",)), ("ut1", ("cred1",))])
def test_leave_origin_out(origin: str | None, kept: tuple[str, ...]) -> None:
    assert tail_sources_without(("ut1", "cred1"), origin) == kept


def test_unknown_tail_source_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"unknown tail source\(s\) \['nope'\]; known: ut1, cred1"):
        tail_rows(("nope",), known=())


def test_tail_rows_never_hold_a_head_domain_and_weigh_half() -> None:
    data = build_training_set(["moz"], tail=("cred1",))
    moz = set(registrable_values("moz"))
    tail = data.is_tail
    assert tail.sum() > 2000 and not {d for d, t in zip(data.domains, tail, strict=True) if t} & moz
    assert data.weight is not None
    assert data.weight[tail].sum() == pytest.approx(TAIL_SHARE / (1 - TAIL_SHARE) * data.weight[~tail].sum())
    # a CRED-1 domain that Moz also lists is a head row with Moz's value
    both = sorted(set(source_targets("cred1")) & moz)
    for d in both:
        assert data.target[data.domains.index(d)] == pytest.approx(registrable_values("moz")[d])


def test_tail_model_is_calibrated_around_the_unknown_level(tiny: LearnedModel) -> None:
    assert tiny.scale == "unknown"
    assert tiny.meta["tail_sources"] == ["cred1"] and tiny.meta["rows_per_source"]["tail"] > 2000
    assert tiny.shrink_factors.size == tiny.shrink_edges.size + 1
    assert ((tiny.shrink_factors >= 0) & (tiny.shrink_factors <= 1)).all()
    # A Moz head name lands above a CRED-1 name (credibility 0.173); both stay at or below the
    # unknown level: the calibration describes domains no table knows (here: CRED-1's).
    assert "nasa.gov" in registrable_values("moz") and source_targets("cred1")["100percentfedup.com"] < 0.2
    pred = LearnedPrior(tiny).predict(["nasa.gov", "100percentfedup.com"])
    assert UNKNOWN_LEVEL >= pred.authority[0] > pred.authority[1]
    assert tiny.meta["calibrate_on"] == "tail"


def test_head_only_model_keeps_the_table_scale() -> None:
    model = train_learned_prior(["moz"], seed=0)
    assert model.scale == "table" and model.meta["tail_sources"] == []


def test_hybrid_does_not_shrink_an_unknown_scale_value_again(tiny: LearnedModel) -> None:
    learned = LearnedPrior(tiny)
    cands = candidates_from(["https://patriot-truth-news-now.com/x"])
    hybrid = HybridAuthority(load_prior(), learned)
    got, own = hybrid.score(cands)[0], learned.score(cands)[0]
    assert got.tier == "learned" and got.authority == pytest.approx(own.authority)
    assert "calibrated for domains no table knows" in (got.note or "")


def test_round_trip_and_format_one_still_loads(tiny: LearnedModel, tmp_path: Path) -> None:
    path = save_model(tiny, tmp_path / "m.npz")
    back = load_model(path)
    assert back.scale == "unknown" and np.array_equal(back.shrink_factors, tiny.shrink_factors)
    old = LearnedModel(tiny.weights, tiny.dense_weights, tiny.intercept, tiny.calib_x, tiny.calib_y, tiny.seen,
                       tiny.unc_weights, tiny.unc_intercept, {"format_version": 1})
    assert load_model(save_model(old, tmp_path / "old.npz")).scale == "table"


def test_mismatched_shrink_arrays_are_rejected(tiny: LearnedModel) -> None:
    with pytest.raises(PriorUnavailable, match="2 shrink factors for 2 band edges"):
        LearnedModel(tiny.weights, tiny.dense_weights, tiny.intercept, tiny.calib_x, tiny.calib_y, tiny.seen,
                     tiny.unc_weights, tiny.unc_intercept, {}, np.array([0.1, 0.2]), np.array([1.0, 1.0]))


def test_calibration_scale_round_trips_and_is_validated() -> None:
    cal = Calibration.fit([0.1, 0.5, 0.9], [0.1, 0.3, 0.6], scale="unknown")
    assert Calibration.from_dict(cal.to_dict()).scale == "unknown"
    assert Calibration.identity().scale == "table"
    with pytest.raises(ConfigError, match="calibration scale must be 'table' or 'unknown', got 'x'"):
        Calibration("linear", (0.0, 1.0), (0.0, 1.0), scale="x")  # type: ignore[arg-type]


def test_learned_prior_for_uses_the_shipped_model_or_the_cache(tiny: LearnedModel, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from authorag.priors.learned.model import load_learned_prior
    from authorag.priors.learned.train import learned_prior_for

    assert learned_prior_for() is load_learned_prior()
    assert learned_prior_for(exclude=("wikipedia_perennial",)) is load_learned_prior()  # not a training source
    monkeypatch.setenv("AUTHORAG_CACHE_DIR", str(tmp_path))
    (tmp_path / "bench").mkdir()
    save_model(tiny, tmp_path / "bench" / "learned_prior_without_majestic_tail_cred1.npz")
    got = learned_prior_for(exclude=("majestic",), tail=("cred1",))
    assert np.array_equal(got.model.weights, tiny.weights)  # read from the cache, not retrained


def test_settings_validate_the_learned_tail() -> None:
    from authorag.compose import ScorerSettings, composition_name

    with pytest.raises(ConfigError, match=r"unknown tail source\(s\) \['x'\]"):
        ScorerSettings(learned_tail=("x",))
    assert composition_name(ScorerSettings(learned=True)) == "reserved>hosted>table>learned"
    assert composition_name(ScorerSettings(learned=True, learned_tail=())) == "reserved>hosted>table>learned[tail=none]"
    assert composition_name(ScorerSettings(learned=True, learned_tail=("ut1",))) == "reserved>hosted>table>learned[tail=ut1]"
