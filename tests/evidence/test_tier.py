"""The page-evidence tier: model, trust map, thin evidence, details, composition wiring."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from authorag.compose import ScorerSettings, composition_name, load_scorer, settings_from_args
from authorag.errors import ConfigError, PriorUnavailable
from authorag.evidence import TRUST_HIGH, TRUST_LOW, PageEvidence, load_page_model, page_trust
from authorag.evidence.features import FEATURES, page_features
from authorag.evidence.model import PageModel
from authorag.evidence.train import FitConfig, cross_fit, fit_logistic, fit_page_model
from authorag.tiers.tiered import TieredAuthority
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate

CURE = ("Buy now! This miracle cure is guaranteed and proven. I was cured in a week, my doctor was amazed! "
        "Order today: free shipping, special price $49! Big pharma does not want you to know this secret. ") * 5
STUDY = ("A randomized controlled trial of 300 participants found no effect compared with placebo "
         "(Smith et al., Journal of Clinical Medicine, 2011; doi 10.1000/jcm.1; PubMed 123456). The evidence is "
         "limited and the researchers suggest more studies. Side effects and risks are listed below. Consult your "
         "physician. Reviewed by the editorial board of the university hospital. ") * 5


def test_page_trust_maps_base_rate_to_unknown_level_and_is_monotone() -> None:
    assert page_trust(None, 0.6) == UNKNOWN_LEVEL
    assert page_trust(0.6, 0.6) == pytest.approx(UNKNOWN_LEVEL)
    assert (page_trust(1.0, 0.6), page_trust(0.0, 0.6)) == (pytest.approx(TRUST_HIGH), pytest.approx(TRUST_LOW))
    values = [page_trust(p, 0.6) for p in np.linspace(0, 1, 21)]
    assert values == sorted(values)


def test_text_orders_a_cure_shop_below_a_study_page() -> None:
    page = PageEvidence()
    cure, study = page.estimate([Candidate.create("https://zq-remedy-shop.biz/miracle.html", CURE),
                                 Candidate.create("https://zq-clinic-notes.org/trials/x.html", STUDY)])
    assert cure.trust < UNKNOWN_LEVEL < study.trust
    assert cure.credibility is not None and study.credibility is not None and cure.credibility < study.credibility
    assert [le.layer for le in study.layers] == ["url", "type", "text"]
    assert study.layers[2].contribution > 0 > cure.layers[2].contribution
    assert "words read" in study.layers[2].reason and study.reason.startswith("page evidence: credible with p=")


def test_layer_contributions_add_up_to_the_logit() -> None:
    page = PageEvidence()
    est = page.estimate([Candidate.create("https://zq-clinic-notes.org/trials/x.html", STUDY)])[0]
    parts = sum(le.contribution for le in est.layers)
    assert est.logit == pytest.approx(page.model.bias + parts, abs=1e-3)
    assert est.credibility == pytest.approx(float(page.model.calibrated(np.array([est.logit]))[0]))


@pytest.mark.parametrize(("text", "why"), [
    ("", "no page text"), ("\x00\x01binary" * 300, "page text is binary or control characters"),
    ("Short.", "page text under 30 words"),
    ("Die Behandlung ist nicht wirksam und der Arzt sagt das auch, wie die Studie zeigt. " * 8,
     "page words mostly not English: only language-free text cues used"),
])
def test_thin_evidence_keeps_the_unknown_level_with_a_reason(text: str, why: str) -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq-blog-7.biz/some/article", text)])[0]
    assert (est.thin, est.credibility, est.trust, est.confidence) == (True, None, UNKNOWN_LEVEL, 0.0)
    assert est.reason == f"thin evidence: {why} and no URL cue"


def test_bad_input_never_raises() -> None:
    odd = [Candidate.create("", ""), Candidate.create("not a url at all", "x"), Candidate.create("http://[::1]/", ""),
           Candidate.create("https://zq.biz/" + "a/" * 3000, "word " * 200_000), Candidate("1", "", None, None, "ok")]
    out = PageEvidence().estimate(odd)
    assert len(out) == len(odd) and all(0.0 <= e.trust <= 1.0 for e in out)
    assert PageEvidence().estimate([]) == []


def test_url_cue_alone_is_evidence() -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq-shop.biz/cart/checkout?ref=aff9", "")])[0]
    assert not est.thin and est.trust < UNKNOWN_LEVEL and est.confidence == pytest.approx(0.15)
    assert "shop, cart or product page" in est.layers[0].reason


def test_detail_fills_credibility_and_keeps_recognition() -> None:
    page = PageEvidence()
    est = page.estimate([Candidate.create("https://zq-clinic-notes.org/trials/x.html", STUDY)])[0]
    unknown = page.detail(est)
    assert (unknown.tier, unknown.authority, unknown.credibility) == ("page", None, est.trust)
    names = [s.name for s in unknown.credibility_sources]
    assert names == ["page", "page.url", "page.type", "page.text"]
    assert unknown.credibility_sources[0].raw == pytest.approx(est.credibility, abs=1e-4)
    hosted = AuthorityDetail(0.4, 0.5, "hosted", note="user content")
    filled = page.detail(est, hosted)
    assert (filled.tier, filled.authority, filled.confidence, filled.credibility) == ("hosted", 0.4, 0.5, est.trust)
    assert filled.note is not None and filled.note.startswith("user content; page evidence:")
    thin = page.estimate([Candidate.create("https://zq-blog-7.biz/x", "")])[0]
    kept = page.detail(thin)
    assert (kept.tier, kept.authority, kept.credibility) == ("unknown", None, None) and kept.note == thin.reason


def test_tiered_fills_only_what_no_table_knows() -> None:
    scorer = TieredAuthority(load_scorer(ScorerSettings()).inner, page=PageEvidence())  # type: ignore[attr-defined]
    cands = [Candidate.create("https://www.nih.gov/health/x", CURE), Candidate.create("https://zq-clinic-notes.org/t", STUDY),
             Candidate.create("https://johndoe.wordpress.com/2020/01/01/story/", CURE),
             Candidate.create("https://site77.example.com/", STUDY)]
    nih, unknown, hosted, reserved = scorer.score(cands)
    assert nih.tier == "table" and not any(s.name.startswith("page") for s in nih.credibility_sources)
    assert unknown.tier == "page" and unknown.credibility is not None and unknown.credibility > UNKNOWN_LEVEL
    assert hosted.tier == "hosted" and hosted.authority == 0.4 and hosted.credibility is not None
    assert hosted.credibility < UNKNOWN_LEVEL
    assert reserved.tier == "reserved" and reserved.credibility is None
    assert scorer.name.endswith(">page")


def test_composition_setting_env_and_flag() -> None:
    assert composition_name(ScorerSettings(page_evidence=True)) == "reserved>hosted>table>page"
    assert load_scorer(ScorerSettings(page_evidence=True)).name == "reserved>hosted>table>page"
    assert ScorerSettings().page_evidence is True  # on by default
    assert ScorerSettings.from_env({"AUTHORAG_PAGE_EVIDENCE": "false"}).page_evidence is False
    assert composition_name(ScorerSettings(page_evidence=False)) == "reserved>hosted>table"
    import argparse

    from authorag.compose import add_scorer_options

    parser = argparse.ArgumentParser()
    add_scorer_options(parser)
    assert settings_from_args(parser.parse_args(["--no-page-evidence"]), environ={}).page_evidence is False
    assert settings_from_args(parser.parse_args([]), environ={}).page_evidence is True
    off = load_scorer(ScorerSettings(page_evidence=False))
    assert [d.tier for d in off.score([Candidate.create("https://zq-clinic-notes.org/t", STUDY)])] == ["unknown"]
    assert [d.tier for d in load_scorer(ScorerSettings()).score(
        [Candidate.create("https://zq-clinic-notes.org/t", STUDY)])] == ["page"]


def test_model_json_round_trip_and_errors(tmp_path: Path) -> None:
    model = load_page_model()
    path = tmp_path / "m.json"
    model.save(path)
    again = load_page_model(str(path))
    assert np.allclose(again.weights, model.weights, atol=1e-6) and again.platt == pytest.approx(model.platt)
    data = json.loads(path.read_text())
    data["features"] = data["features"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="rebuild it with 'python scripts/build_page_evidence.py'"):
        load_page_model.__wrapped__(str(path))
    with pytest.raises(PriorUnavailable, match="cannot read it"):
        load_page_model.__wrapped__(str(tmp_path / "missing.json"))
    with pytest.raises(ConfigError, match="base_rate must be in"):
        PageModel(model.weights, model.means, model.scales, 0.0, (1.0, 0.0), 1.0)


def test_logistic_fit_and_prior_weights() -> None:
    z = np.array([[1.0], [2.0], [-1.0], [-2.0]])
    w, _ = fit_logistic(z, np.array([1, 1, 0, 0]), 1.0, np.zeros(1))
    assert w[0] > 0
    w, _ = fit_logistic(np.zeros((4, 1)), np.array([1, 0, 1, 0]), 1.0, np.array([-0.7]))
    assert w[0] == pytest.approx(-0.7)  # no data on the feature: the weight stays at its prior


def test_fit_page_model_checks_and_cross_fit_leaves_groups_out() -> None:
    rng = np.random.default_rng(0)
    x = np.zeros((40, len(FEATURES)))
    y = np.array([1, 0] * 20)
    x[:, FEATURES.index("t.study")] = y * 2.0 + rng.normal(0, 0.5, 40)
    groups = np.arange(40) % 4
    models = cross_fit(x, y, groups, FitConfig(layers=("text",)))
    assert sorted(models) == [0, 1, 2, 3] and all(m.meta["rows"] == 30 for m in models.values())
    assert all(m.weights[FEATURES.index("t.study")] > 0 for m in models.values())
    assert all(m.weights[FEATURES.index("u.shop")] == 0 for m in models.values())  # url layer masked
    with pytest.raises(ConfigError, match="labels must be 0/1"):
        fit_page_model(x, y * 2, groups)
    with pytest.raises(ConfigError, match="need a"):
        fit_page_model(x[:, :3], y, groups)
    with pytest.raises(ConfigError, match="layers must be a non-empty subset"):
        FitConfig(layers=("pool",))  # type: ignore[arg-type]


def test_features_matrix_nan_where_text_is_missing() -> None:
    batch = page_features([Candidate.create("https://a.org/x", ""), Candidate.create("https://a.org/y", STUDY)])
    text_cols = [i for i, f in enumerate(FEATURES) if f.startswith("t.")]
    assert np.isnan(batch.matrix[0, text_cols]).all() and not np.isnan(batch.matrix[1, text_cols]).any()
    assert batch.text.status == ("empty", "read")


