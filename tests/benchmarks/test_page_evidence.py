"""Page-evidence evaluation: the shipped model is what the build script makes, cross-fitting is honest."""
from __future__ import annotations

import numpy as np
import pytest

from authorag.benchmarks.page_evidence.crossfit import (
    CrossFitPageEvidence,
    FoldModels,
    honest_scorer,
    labelled_pages,
    model_meta,
)
from authorag.benchmarks.page_evidence.eval import expected_calibration_error
from authorag.benchmarks.page_evidence.rows import auc, within_topic_auc
from authorag.compose import ScorerSettings, load_scorer
from authorag.evidence import PageEvidence, load_page_model
from authorag.evidence.train import FitConfig, fit_page_model


def test_labelled_pages() -> None:
    pages = labelled_pages()
    assert (len(pages.candidates), int(pages.labels.sum()), len(set(pages.topics.tolist()))) == (276, 166, 29)
    assert pages.matrix.shape[0] == 276


def test_shipped_model_is_what_the_build_script_makes() -> None:
    pages = labelled_pages()
    cfg = FitConfig()
    built = fit_page_model(pages.matrix, pages.labels, pages.topics, cfg, meta=model_meta(pages, cfg))
    shipped = load_page_model()
    assert np.allclose(built.weights, shipped.weights, atol=1e-5), "rebuild: python scripts/build_page_evidence.py"
    assert built.platt == pytest.approx(shipped.platt, abs=1e-5)
    assert shipped.meta["data_sha256"] == pages.sha256


def test_cross_fit_scores_each_page_with_a_model_that_never_saw_its_topics() -> None:
    pages = labelled_pages()
    folds = FoldModels(pages)
    tier = CrossFitPageEvidence(folds)
    topics_of = pages.domain_topics()
    picks = [0, 100, 200]
    cands = [pages.candidates[i] for i in picks]
    got = tier.estimate(cands)
    for c, est in zip(cands, got):
        left_out = topics_of[c.domain or ""]
        model = folds.without(left_out)
        assert set(model.meta["left_out_topics"]) == left_out
        kept = ~np.isin(pages.topics, list(left_out))
        assert model.meta["rows"] == int(kept.sum())
        assert est.credibility == pytest.approx(PageEvidence(model).estimate([c])[0].credibility)
    assert got[0].credibility != pytest.approx(PageEvidence().estimate(cands[:1])[0].credibility, abs=1e-6)


def test_honest_scorer_swaps_the_page_tier_only_on_tracks_built_from_the_labelled_pages() -> None:
    scorer = load_scorer(ScorerSettings(page_evidence=True))
    plain = load_scorer(ScorerSettings(page_evidence=False))
    assert honest_scorer(scorer, "credauth") is scorer
    assert honest_scorer(plain, "ragauth") is plain
    swapped = honest_scorer(scorer, "ragauth")
    assert swapped is not scorer and isinstance(swapped.page, CrossFitPageEvidence)  # type: ignore[attr-defined]
    assert swapped.name == "reserved>hosted>table>page[crossfit]"
    assert type(scorer.page) is PageEvidence  # type: ignore[attr-defined]  # the cached composition is untouched


def test_auc_metrics_on_hand_worked_fixtures() -> None:
    s, y = np.array([0.9, 0.1, 0.5, 0.5]), np.array([1, 0, 0, 1])
    assert auc(s, y) == pytest.approx((1 + 1 + 1 + 0.5) / 4)  # pairs: (0.9>0.1), (0.9>0.5), (0.5>0.1), (0.5=0.5)
    assert auc(s, np.ones(4)) is None
    topics = np.array([1, 1, 2, 2])
    assert within_topic_auc(s, y, topics) == pytest.approx(0.75)  # topic 1: 0.9 > 0.1; topic 2: 0.5 = 0.5 -> (1 + .5) / 2
    assert within_topic_auc(np.array([0.2, 0.9, 0.5, 0.5]), y, topics) == pytest.approx(0.25)
    assert expected_calibration_error(np.array([0.1, 0.1, 0.9, 0.9]), np.array([0, 0, 1, 1])) == pytest.approx(0.1)


def test_the_ablation_scores_the_pages_no_table_knows() -> None:
    # The page tier is on by default; the ablation's base is the composition without it, where
    # the pages no table knows are still tier "unknown" (with the default they read "page" and
    # the ablation had no page left to score).
    from authorag.benchmarks.page_evidence.rows import default_details
    from authorag.types import Candidate

    cands = [Candidate.create("https://zq-remedy-shop.biz/cure", "Our remedy cures everything. " * 10),
             Candidate.create("https://www.nih.gov/x", "")]
    assert [d.tier for d in default_details(cands)] == ["unknown", "table"]
    assert load_scorer().score(cands)[0].tier == "page"
