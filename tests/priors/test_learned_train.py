"""Learned-prior training and evaluation: leak-free splits, left-out sources, reproducibility, metrics."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.errors import ConfigError
from authorag.priors.learned.eval import (
    TrackModels,
    evaluate_track,
    list_rhos,
    metrics,
    news_track,
    web_track,
)
from authorag.priors.learned.model import LearnedPrior
from authorag.priors.learned.train import (
    build_training_set,
    default_sources,
    domain_split,
    registrable_values,
    train_learned_prior,
)


def test_split_is_fixed_and_about_twenty_percent() -> None:
    domains = [f"site{i}.com" for i in range(5000)]
    splits = [domain_split(d) for d in domains]
    assert splits == [domain_split(d) for d in domains]
    assert 0.18 < splits.count("test") / len(splits) < 0.22


def test_train_and_test_are_disjoint() -> None:
    train = build_training_set(["ccnews_pagerank", "moz"], split="train")
    test = build_training_set(["ccnews_pagerank", "moz"], split="test")
    everything = build_training_set(["ccnews_pagerank", "moz"], split="all")
    assert not set(train.domains) & set(test.domains)
    assert set(train.domains) | set(test.domains) == set(everything.domains)
    assert all(domain_split(d) == "test" for d in test.domains)


def test_left_out_source_is_absent() -> None:
    assert default_sources(exclude=["majestic"]) == ("ccnews_pagerank", "moz")
    data = build_training_set(default_sources(exclude=["majestic"]))
    assert all("majestic" not in used for used in data.sources)
    majestic_only = set(registrable_values("majestic")) - set(registrable_values("ccnews_pagerank")) - set(
        registrable_values("moz"))
    assert majestic_only and not majestic_only & set(data.domains)
    # A domain in several sources keeps only the others' values: its target is CC-News' value alone.
    ccnews = registrable_values("ccnews_pagerank")
    both = min((set(ccnews) & set(registrable_values("majestic"))) - set(registrable_values("moz")))
    assert data.target[data.domains.index(both)] == pytest.approx(ccnews[both])


def test_news_track_uses_test_split_only() -> None:
    track = news_track()
    assert track.label_source == "ccnews_pagerank"
    assert all(domain_split(d) == "test" for d in track.domains)
    assert set(np.unique(track.levels).tolist()) == set(range(10))


def test_training_is_reproducible() -> None:
    a = train_learned_prior(["moz"], seed=3)
    b = train_learned_prior(["moz"], seed=3)
    assert np.array_equal(a.weights, b.weights)
    assert np.array_equal(a.dense_weights, b.dense_weights)
    assert np.array_equal(a.calib_y, b.calib_y) and np.array_equal(a.unc_weights, b.unc_weights)
    assert a.meta == b.meta and a.meta["sources"] == ["moz"] and a.meta["seed"] == 3


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"exclude": ["nope"]}, "unknown prior source"),
    ({"sources": ["wikipedia_perennial"]}, "not an authority source"),
    ({"sources": []}, "no training sources"),
])
def test_bad_training_arguments(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        train_learned_prior(**kwargs)  # type: ignore[arg-type]


def test_metrics_by_hand() -> None:
    # ranks of pred 1..4 vs levels ranks 1,2,4,3: d² = 0+0+1+1 → ρ = 1 − 6·2/(4·15) = 0.8;
    # concordant pairs 5, discordant 1 → τ = 4/6.
    m = metrics(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 1, 3, 2]), n_lists=50, seed=0)
    assert m["spearman"] == pytest.approx(0.8)
    assert m["kendall"] == pytest.approx(0.6667, abs=1e-4)
    assert m["list_rho"] == pytest.approx(0.8)  # one item per level: every list is the whole set


def test_list_rhos_perfect_reversed_and_tied() -> None:
    rng = np.random.default_rng(0)
    levels = np.repeat(np.arange(10), 5)
    assert np.allclose(list_rhos(levels.astype(float), levels, 20, rng), 1.0)
    assert np.allclose(list_rhos(-levels.astype(float), levels, 20, rng), -1.0)
    assert np.allclose(list_rhos(np.zeros(50), levels, 20, rng), 0.0)


class _RecordingModels(TrackModels):
    """Trains on Moz only (fast) and records which sources each requested model must leave out."""

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.requested: list[tuple[str, ...]] = []

    def get(self, exclude: tuple[str, ...]) -> LearnedPrior:
        self.requested.append(exclude)
        return LearnedPrior(train_learned_prior(["moz"], exclude=exclude, split="train"))


def test_web_track_leaves_majestic_out_of_model_and_table() -> None:
    track = web_track()
    assert track.label_source == "majestic"
    assert all(domain_split(d) == "test" for d in track.domains)
    counts = np.bincount(track.levels, minlength=10)
    assert len(counts) == 10 and counts.min() > 0.8 * counts.mean()  # deciles: balanced levels
    models = _RecordingModels()
    result = evaluate_track(track, models, n_lists=20, seed=0)
    assert models.requested == [("majestic",)]
    assert "majestic" not in result["table_sources"] and "majestic" not in result["model_sources"]
    assert result["methods"]["learned"]["n"] == len(track.domains)
    assert result["methods"]["table"]["n"] == round(result["table_coverage"] * len(track.domains))
