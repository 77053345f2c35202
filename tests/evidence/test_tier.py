"""The page-evidence tier: it speaks only on cues found in the page, abstains otherwise, and says which."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from authorag.compose import ScorerSettings, composition_name, load_scorer, settings_from_args
from authorag.errors import ConfigError, PriorUnavailable
from authorag.evidence import TRUST_HIGH, TRUST_LOW, PageEvidence, load_page_model, page_trust
from authorag.evidence import tier as tier_module
from authorag.evidence.model import PageModel
from authorag.evidence.tier import MAX_LIFT, STATUS_SOURCE, WHY_SOURCE, PageEstimate
from authorag.tiers.tiered import TieredAuthority
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate
from tests.evidence.neutral_pages import NEUTRAL_PAGES

CURE = ("Buy now! This miracle cure is guaranteed and proven. I was cured in a week, my doctor was amazed! "
        "Order today: free shipping, special price $49! Big pharma does not want you to know this secret. ") * 5
NEWS = ("The city council approved the budget on Tuesday, a spokeswoman said. According to the finance "
        "department's report, spending rises by three percent, and the mayor told reporters the vote was close. ") * 3
PYTHON = ("Relative imports in Python use leading dots to name modules in the same package. A single dot means the "
          "current package, two dots mean the parent package. For example, inside mypkg/sub/mod.py you can write from "
          ". import helpers or from ..util import parse. Relative imports only work inside a package, so running the "
          "file directly as a script fails with an ImportError saying there is no known parent package. Run it as a "
          "module instead, with python -m mypkg.sub.mod, from the directory that contains mypkg. Absolute imports name "
          "the full path from the top-level package and are often clearer. PEP 328 introduced the syntax, and since "
          "Python 3 implicit relative imports are gone. Keep packages importable by adding an __init__.py file where "
          "your tools need it, and prefer absolute imports in scripts.")
WESTPHALIA = ("The Peace of Westphalia is the name for two treaties signed in 1648 in the Westphalian cities of "
              "Osnabrück and Münster. They ended the Thirty Years' War in the Holy Roman Empire and the Eighty Years' "
              "War between Spain and the Dutch Republic. The settlement confirmed the principle that each prince could "
              "determine the religion of his own state, extended it to Calvinists, and recognised the independence of "
              "the Swiss Confederation and the Dutch Republic. France and Sweden gained territory. Historians long "
              "described the treaties as the origin of the modern system of sovereign states, though many now argue "
              "that this view exaggerates what the negotiators intended.")
ROTH = ("A Roth IRA is an individual retirement account funded with money that has already been taxed. Qualified "
        "withdrawals in retirement, including earnings, are tax free. For 2024 the contribution limit is 7,000 "
        "dollars, or 8,000 dollars if you are 50 or older, and the ability to contribute phases out at higher incomes. "
        "Contributions, but not earnings, can be withdrawn at any time without tax or penalty. To withdraw earnings "
        "tax free, the account must have been open for five years and you must be at least 59 and a half.")
SPAM = ("Download our fixer tool now! Fix registry errors, speed up your PC, remove every virus and malware today. "
        "Free download, click here, instant results guaranteed")


def _words_found(est: PageEstimate, text: str) -> bool:
    """Every word a cue names occurs in ``text`` (the page's URL and text: as a word, any case)."""
    found = [w for cue in est.cues for w in re.findall(r"\(([^)]*)\)", cue) for w in w.split(", ")]
    return all(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE) or w.endswith("'!'") for w in found)


def test_issue_pages_stay_at_unknown_and_the_spam_page_falls_naming_its_cue() -> None:
    cands = [Candidate.create("https://zq-devnotes.net/python/relative-imports", PYTHON),
             Candidate.create("https://zq-historyblog.net/westphalia", WESTPHALIA),
             Candidate.create("https://zq-moneytips.net/roth-ira", ROTH),
             Candidate.create("https://zq-pcfix.net/download", SPAM)]
    assert len(SPAM.split()) == 25
    py, west, roth, spam = load_scorer(ScorerSettings(page_evidence=True)).score(cands)
    for d in (py, west, roth):
        assert d.credibility is None and d.tier == "unknown"
        assert {s.name: s.raw for s in d.credibility_sources}[STATUS_SOURCE] == "abstained"
    assert spam.tier == "page" and spam.credibility is not None and spam.credibility < UNKNOWN_LEVEL
    sources = {s.name: s.raw for s in spam.credibility_sources}
    assert sources[STATUS_SOURCE] == "spoke"
    assert sources[WHY_SOURCE] == ("low-credibility cues: download-and-fix spam (download, fixer, malware, "
                                   "virus, click, instant)")


@pytest.mark.parametrize("url", ["https://www.reddit.com/r/conspiracy/comments/abc/x/",
                                 "https://www.reddit.com/r/AskHistorians/comments/abc/x/",
                                 "https://zqblog.wordpress.com/2020/01/01/hello-world/", "https://github.com/psf/requests"])
def test_a_platform_address_alone_is_never_credible(url: str) -> None:
    d = load_scorer(ScorerSettings(page_evidence=True)).score([Candidate.create(url, "")])[0]
    assert d.tier == "hosted" and d.credibility is None
    why = {s.name: s.raw for s in d.credibility_sources}[WHY_SOURCE]
    assert why == "no page text; no known cue in the address; the hosting platform's address is not evidence"


def test_forty_neutral_pages_in_four_languages_never_fall_below_unknown() -> None:
    assert len(NEUTRAL_PAGES) == 40 and {lang for _, lang, _ in NEUTRAL_PAGES} == {"en", "de", "es", "fr"}
    assert len({topic for topic, _, _ in NEUTRAL_PAGES}) == 8
    cands = [Candidate.create(f"https://zq-{t}-{lang}-{i}.example/page", text)
             for i, (t, lang, text) in enumerate(NEUTRAL_PAGES)]
    ests = PageEvidence().estimate(cands)
    assert [e.language for e in ests] == [lang for _, lang, _ in NEUTRAL_PAGES]
    assert min(e.trust for e in ests) >= UNKNOWN_LEVEL
    assert all(_words_found(e, c.text) for e, c in zip(ests, cands))


def test_low_cues_lower_a_page_and_name_the_words_found() -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq-remedy-shop.biz/miracle.html", CURE)])[0]
    assert est.spoke and est.trust < UNKNOWN_LEVEL and _words_found(est, "zq-remedy-shop " + CURE)
    assert est.cues == ("cure words in the domain name (zq-remedy-shop)",
                        "miracle-cure claims (miracle, cure, cured, guaranteed, secret)", "sensational punctuation (15 '!')")
    assert est.reason.startswith("page evidence spoke: credible with p=")


def test_high_cues_lift_a_little_and_never_past_the_cap() -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq-town-news.example/budget", NEWS)])[0]
    assert est.spoke and est.cues == ("attributed statements (said, according, told, spokeswoman)",
                                      "named studies and sources (report)") or est.trust > UNKNOWN_LEVEL
    assert UNKNOWN_LEVEL < est.trust <= UNKNOWN_LEVEL + MAX_LIFT + 1e-9


STUDY = ("A study published in the journal reports data from a national survey and statistics from the census "
         "office. ") * 3
ATTRIBUTED = "attributed statements (said, according, told, spokeswoman)"
NAMED = "named studies and sources (study, journal, published, survey, data, statistics, census)"


@pytest.mark.parametrize(("families", "lifted"), [
    (frozenset({"attribution", "sources"}), (ATTRIBUTED, NAMED)), (frozenset({"sources"}), (None, NAMED)),
    (frozenset[str](), (None, None))])
def test_only_the_lift_families_lift_and_the_rest_abstain_naming_their_cues(
        monkeypatch: pytest.MonkeyPatch, families: frozenset[str], lifted: tuple[str | None, ...]) -> None:
    monkeypatch.setattr(tier_module, "LIFT_FAMILIES", families)
    ests = PageEvidence().estimate([Candidate.create("https://zq-town-news.example/budget", NEWS),
                                    Candidate.create("https://zq-town-news.example/survey", STUDY)])
    for est, cue in zip(ests, lifted):
        if cue is None:
            assert (est.spoke, est.trust, est.confidence) == (False, UNKNOWN_LEVEL, 0.0)
            assert est.why.startswith("credibility cues that never lift a page: ")
        else:
            assert est.spoke and est.cues == (cue,) and est.trust == pytest.approx(UNKNOWN_LEVEL + MAX_LIFT)
    monkeypatch.setattr(tier_module, "LIFT_FAMILIES", frozenset[str]())
    cands = [Candidate.create(f"https://zq-{t}-{lang}-{i}.example/page", text)
             for i, (t, lang, text) in enumerate(NEUTRAL_PAGES)] + [Candidate.create("https://zq-n.example/", NEWS + STUDY)]
    assert max(e.trust for e in PageEvidence().estimate(cands)) == UNKNOWN_LEVEL


def test_low_cues_win_over_high_cues() -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq-x.example/a", NEWS + CURE)])[0]
    assert est.trust < UNKNOWN_LEVEL and not any(c.startswith("attributed") for c in est.cues)


@pytest.mark.parametrize(("text", "why"), [
    ("", "no page text"), ("\x00\x01binary" * 300, "page text is binary or control characters"),
    ("Short page here.", "page text under 12 words"),
    ("Il governo ha annunciato oggi un nuovo programma per le famiglie a basso reddito, secondo il ministro. " * 3,
     "page language 'it' not read (reads en, de, es, fr, pt)"),
])
def test_abstains_outside_what_it_reads_with_the_reason(text: str, why: str) -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq-blog-7.biz/some/article", text)])[0]
    assert (est.spoke, est.credibility, est.trust, est.confidence) == (False, None, UNKNOWN_LEVEL, 0.0)
    assert est.why == f"{why}; no known cue in the address"
    assert est.reason == f"page evidence abstained: {est.why}"


def test_short_english_is_read_as_english() -> None:
    est = PageEvidence().estimate([Candidate.create("https://zq.example/a", "The museum opens at nine and closes at "
                                                    "five, except on public holidays when it stays shut.")])[0]
    assert est.language == "en" and est.why == "no known cue in 17 words (en); no known cue in the address"


def test_spanish_german_french_cues_are_read() -> None:
    pages = ["¡Increíble! Este remedio milagroso cura todo, garantizado. ¡Compre ahora con descuento, oferta, envío "
             "gratis! Las farmacéuticas lo ocultan.",
             "Unglaublich! Dieses Wundermittel heilt alles, garantiert! Die Pharma will dieses Geheimnis vertuschen, "
             "jetzt kaufen mit Rabatt!",
             "Incroyable ! Ce remède miracle garanti élimine les toxines. La pharma cache ce secret, c'est un complot !"]
    ests = PageEvidence().estimate([Candidate.create("https://zq.example/a", t) for t in pages])
    assert [e.language for e in ests] == ["es", "de", "fr"]
    assert all(e.trust < UNKNOWN_LEVEL for e in ests)
    assert ests[0].cues == ("sales language (compre, descuento, oferta, gratis)",
                            "miracle-cure claims (milagroso, cura, garantizado, remedio)",
                            "distrust of institutions (farmacéuticas, ocultan)")


def test_bad_input_never_raises() -> None:
    odd = [Candidate.create("", ""), Candidate.create("not a url at all", "x"), Candidate.create("http://[::1]/", ""),
           Candidate.create("https://zq.biz/" + "a/" * 3000, "word " * 200_000), Candidate("1", "", None, None, "ok")]
    out = PageEvidence().estimate(odd)
    assert len(out) == len(odd) and all(0.0 <= e.trust <= 1.0 for e in out)
    assert PageEvidence().estimate([]) == []


def test_url_cues_alone_are_weak_and_only_known_low_ones_are_read() -> None:
    ref, shop = PageEvidence().estimate([Candidate.create("https://zq-shop.biz/cart/checkout?hop=aff9", ""),
                                         Candidate.create("https://zq-shop.biz/cart/checkout?ref=main", "")])
    assert not ref.spoke and ref.trust == UNKNOWN_LEVEL
    assert ref.why == "low-credibility cues too weak to move the page: affiliate referral parameter"
    assert not shop.spoke and shop.why == "no page text; no known cue in the address"
    both = PageEvidence().estimate([Candidate.create("https://zq-remedy.biz/a?hop=aff9", "")])[0]
    assert both.spoke and both.trust < UNKNOWN_LEVEL and both.confidence == pytest.approx(0.15)
    assert both.cues == ("affiliate referral parameter", "cure words in the domain name (zq-remedy)")


def test_health_and_secure_in_a_domain_name_are_not_cure_words() -> None:
    health, secure, healing = PageEvidence().estimate([
        Candidate.create("https://www.zq-bozemanhealth.org/classes?hop=aff9", ""),
        Candidate.create("https://www.zq-securebank.com/login?hop=aff9", ""),
        Candidate.create("https://www.zq-naturalhealing.com/login?hop=aff9", "")])
    for est in (health, secure):
        assert not est.spoke and est.why == "low-credibility cues too weak to move the page: affiliate referral parameter"
    assert healing.spoke and healing.trust < UNKNOWN_LEVEL
    assert healing.cues == ("affiliate referral parameter", "cure words in the domain name (zq-naturalhealing)")


def test_detail_carries_the_verdict_and_keeps_recognition() -> None:
    page = PageEvidence()
    est = page.estimate([Candidate.create("https://zq-remedy.biz/x.html", CURE)])[0]
    unknown = page.detail(est)
    assert (unknown.tier, unknown.authority, unknown.credibility, unknown.page_trust) == ("page", None, est.trust, est.trust)
    names = [s.name for s in unknown.credibility_sources]
    assert names == ["page", STATUS_SOURCE, WHY_SOURCE, "page.url", "page.type", "page.text"]
    hosted = AuthorityDetail(0.4, 0.5, "hosted", note="user content")
    filled = page.detail(est, hosted)
    assert (filled.tier, filled.authority, filled.confidence, filled.credibility) == ("hosted", 0.4, 0.5, est.trust)
    skipped = page.detail(est, AuthorityDetail(None, 0.0, "unknown", note="judge skipped", skipped="pool_busy"))
    assert (skipped.skipped, skipped.page_trust) == ("pool_busy", est.trust)  # the judge's skip stays typed
    assert filled.note is not None and filled.note.startswith("user content; page evidence spoke:")
    quiet = page.estimate([Candidate.create("https://zq-blog-7.biz/x", "")])[0]
    kept = page.detail(quiet)
    assert (kept.tier, kept.authority, kept.credibility, kept.note) == ("unknown", None, None, quiet.reason)
    assert [(s.name, s.raw) for s in kept.credibility_sources] == [
        (STATUS_SOURCE, "abstained"), (WHY_SOURCE, "no page text; no known cue in the address")]


def test_tiered_fills_only_what_no_table_knows() -> None:
    scorer = TieredAuthority(load_scorer(ScorerSettings()).inner, page=PageEvidence())  # type: ignore[attr-defined]
    assert ScorerSettings().page_evidence is False  # opt-in: measured, it wins no track beyond the CI  # type: ignore[attr-defined]
    cands = [Candidate.create("https://www.nih.gov/health/x", CURE), Candidate.create("https://zq-clinic-notes.org/t", NEWS),
             Candidate.create("https://johndoe.wordpress.com/2020/01/01/story/", CURE),
             Candidate.create("https://site77.example.com/", NEWS)]
    nih, unknown, hosted, reserved = scorer.score(cands)
    assert nih.tier == "table" and not any(s.name.startswith("page") for s in nih.credibility_sources)
    assert unknown.tier == "page" and unknown.credibility is not None and unknown.credibility > UNKNOWN_LEVEL
    assert hosted.tier == "hosted" and hosted.authority == 0.4 and hosted.credibility is not None
    assert hosted.credibility < UNKNOWN_LEVEL
    assert reserved.tier == "reserved" and reserved.credibility is None
    assert scorer.name.endswith(">page")


def test_composition_setting_env_and_flag() -> None:
    assert composition_name(ScorerSettings(page_evidence=True)) == "reserved>hosted>table>page"
    assert ScorerSettings.from_env({"AUTHORAG_PAGE_EVIDENCE": "false"}).page_evidence is False
    assert composition_name(ScorerSettings(page_evidence=False)) == "reserved>hosted>table"
    import argparse

    from authorag.compose import add_scorer_options

    parser = argparse.ArgumentParser()
    add_scorer_options(parser)
    assert settings_from_args(parser.parse_args(["--no-page-evidence"]), environ={}).page_evidence is False
    off = load_scorer(ScorerSettings(page_evidence=False))
    assert [d.tier for d in off.score([Candidate.create("https://zq-clinic-notes.org/t", CURE)])] == ["unknown"]
    assert [d.tier for d in load_scorer(ScorerSettings(page_evidence=True)).score(
        [Candidate.create("https://zq-clinic-notes.org/t", CURE)])] == ["page"]


def test_page_trust_maps_base_rate_to_unknown_level_and_is_monotone() -> None:
    assert page_trust(None, 0.6) == UNKNOWN_LEVEL
    assert page_trust(0.6, 0.6) == pytest.approx(UNKNOWN_LEVEL)
    assert (page_trust(1.0, 0.6), page_trust(0.0, 0.6)) == (pytest.approx(TRUST_HIGH), pytest.approx(TRUST_LOW))
    values = [page_trust(p, 0.6) for p in np.linspace(0, 1, 21)]
    assert values == sorted(values)


def test_model_scores_present_cues_and_round_trips(tmp_path: Path) -> None:
    model = load_page_model()
    assert model.score([("spam", 20.0)], ()) == pytest.approx(-2.0)
    assert model.score([], ("attribution", "sources")) == pytest.approx(1.0)
    assert model.score([], ()) == 0.0
    path = tmp_path / "m.json"
    model.save(path)
    again = load_page_model(str(path))
    assert dict(again.weights) == dict(model.weights) and again.platt == pytest.approx(model.platt)
    data = json.loads(path.read_text())
    data["format"] = 1
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="rebuild it with 'python scripts/build_page_evidence.py'"):
        load_page_model.__wrapped__(str(path))
    with pytest.raises(PriorUnavailable, match="cannot read it"):
        load_page_model.__wrapped__(str(tmp_path / "missing.json"))
    with pytest.raises(ConfigError, match="base_rate must be in"):
        PageModel((1.0, 0.0), 1.0)
    with pytest.raises(ConfigError, match="platt slope must be > 0"):
        PageModel((-1.0, 0.0), 0.5)


def test_the_rerank_breakdown_carries_the_verdict() -> None:
    from authorag import AuthorityReranker
    from authorag.adapters import breakdowns

    reranker = AuthorityReranker(load_scorer(ScorerSettings(page_evidence=True)))
    ranking = reranker.rerank("fix my pc", [Candidate.create("https://zq-pcfix.net/download", SPAM, id="spam"),
                                           Candidate.create("https://zq-blog-7.biz/x", "", id="empty")])
    rows = {c.id: r for c, r in zip(ranking.candidates, breakdowns(ranking, "rank"))}
    assert (rows["spam"]["raw"][STATUS_SOURCE], rows["empty"]["raw"][STATUS_SOURCE]) == ("spoke", "abstained")
    assert rows["empty"]["raw"][WHY_SOURCE] == "no page text; no known cue in the address"
    assert rows["spam"]["raw"][WHY_SOURCE].startswith("low-credibility cues: download-and-fix spam (download, fixer")
