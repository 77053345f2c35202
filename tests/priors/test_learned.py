"""The shipped learned prior: loads, scores as an AuthorityScorer, plausible orders, errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors.base import AuthorityScorer
from authorag.priors.learned.model import (
    MAX_CONFIDENCE,
    LearnedPrior,
    load_learned_prior,
    load_model,
    save_model,
)
from authorag.priors.learned.train import build_training_set, default_sources
from authorag.types import Candidate


@pytest.fixture(scope="module")
def prior() -> LearnedPrior:
    return load_learned_prior()


@pytest.fixture(scope="module")
def training() -> dict[str, float]:
    data = build_training_set(default_sources())
    return dict(zip(data.domains, data.target.tolist(), strict=True))


def _group_mean(training: dict[str, float], suffix: str) -> float:
    return float(np.mean([v for d, v in training.items() if d.endswith(suffix)]))


def test_loads_cached_and_is_a_scorer(prior: LearnedPrior) -> None:
    assert load_learned_prior() is prior
    assert isinstance(prior, AuthorityScorer)
    assert prior.name == "learned"
    assert prior.meta["sources"] == ["ccnews_pagerank", "majestic", "moz"]


# Each pair: (higher, lower, suffix of the higher group, suffix of the lower group). None of
# these names is a training domain; the order follows from the training targets' group means
# (checked in the test): .gov 0.85 vs .biz 0.49, .edu 0.75 vs .info 0.37.
PAIRS = [
    ("examplecountyhealth.gov", "best-cheap-pills-online.biz", ".gov", ".biz"),
    ("riverdalecollege.edu", "free-movie-download-online-now.info", ".edu", ".info"),
]


@pytest.mark.parametrize(("high", "low", "high_sfx", "low_sfx"), PAIRS)
def test_plausible_orders(prior: LearnedPrior, training: dict[str, float], high: str, low: str,
                          high_sfx: str, low_sfx: str) -> None:
    assert high not in training and low not in training
    assert _group_mean(training, high_sfx) > _group_mean(training, low_sfx) + 0.2
    pred = prior.predict([high, low])
    assert pred.authority[0] > pred.authority[1]


def test_prediction_ranges(prior: LearnedPrior) -> None:
    pred = prior.predict(["nytimes.com", "qzx-83-kkv.info", "bbc.co.uk"])
    assert np.all((pred.authority >= 0) & (pred.authority <= 1))
    assert np.all((pred.confidence >= 0) & (pred.confidence <= MAX_CONFIDENCE))
    assert np.all((pred.novelty >= 0) & (pred.novelty <= 1))
    assert pred.novelty[0] == pytest.approx(0.0)  # every n-gram of a training domain was seen
    assert pred.novelty[1] > pred.novelty[0]
    # calibrated for domains no table knows (mostly low-authority tail): gibberish sits below a
    # news-brand-like name, and both at or below the unknown level 0.3
    assert pred.authority[1] < pred.authority[0] <= 0.3


def test_score_candidates(prior: LearnedPrior) -> None:
    cands = [Candidate.create("https://www.nasa.gov/x", id="a"), Candidate.create("http://192.0.2.1/", id="b"),
             Candidate.create("", id="c"), Candidate.create("http://localhost:8080", id="d"),
             Candidate.create("https://blog.example-news.co.uk/p", id="e")]
    details = prior.score(cands)
    assert [d.tier for d in details] == ["learned", "unknown", "unknown", "unknown", "learned"]
    assert details[0].matched == "nasa.gov" and details[4].matched == "example-news.co.uk"
    assert details[0].authority == pytest.approx(float(prior.predict(["nasa.gov"]).authority[0]))
    assert details[0].sources[0].name == "learned"
    assert prior.score([]) == []


def test_lookup_matches_predict(prior: LearnedPrior) -> None:
    d = prior.lookup("wikipedia.org")
    p = prior.predict(["wikipedia.org"])
    assert d.authority == pytest.approx(float(p.authority[0]))
    assert d.confidence == pytest.approx(float(p.confidence[0]))


@pytest.mark.parametrize(("bad", "match"), [("not a domain", "registrable domain"), ("UPPER!.com", "letters")])
def test_predict_rejects_bad_domains(prior: LearnedPrior, bad: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        prior.predict([bad])


def test_missing_artifact(tmp_path: Path) -> None:
    with pytest.raises(PriorUnavailable, match="authorag priors train"):
        load_learned_prior(tmp_path / "nope.npz")


def test_round_trip_and_shape_check(prior: LearnedPrior, tmp_path: Path) -> None:
    path = save_model(prior.model, tmp_path / "lp.npz")
    again = LearnedPrior(load_model(path))
    domains = ["nytimes.com", "some-new-site.xyz"]
    assert np.array_equal(again.predict(domains).authority, prior.predict(domains).authority)
    arrays = dict(np.load(path))
    arrays["dense_weights"] = arrays["dense_weights"][:-1]
    np.savez(tmp_path / "bad.npz", **arrays)
    (tmp_path / "bad.json").write_text(path.with_suffix(".json").read_text())
    with pytest.raises(PriorUnavailable, match="dense_weights has"):
        load_model(tmp_path / "bad.npz")


def test_one_bad_domain_does_not_sink_the_batch(prior: LearnedPrior, caplog: pytest.LogCaptureFixture) -> None:
    good = Candidate.create("https://nytimes.com/a", id="good")
    bad = Candidate(id="bad", url="x", host="Bad!.com", domain="Bad!.com")
    with caplog.at_level("WARNING", logger="authorag.priors.learned.model"):
        details = prior.score([good, bad])
    assert details[0].tier == "learned"
    assert details[0].authority == pytest.approx(float(prior.predict(["nytimes.com"]).authority[0]))
    assert details[1].tier == "unknown" and details[1].authority is None
    assert details[1].note is not None and "Bad!.com" in details[1].note
    assert "scoring one by one" in caplog.text
