from __future__ import annotations

import gzip
from importlib import resources

import pytest

from authorag.errors import ConfigError
from authorag.priors import DEFAULT_RULES, SOURCES, SuffixRule, load_prior, load_source
from authorag.priors.sources import COMPILED_FILE, compile_sources, normalize_source
from authorag.types import Candidate


@pytest.fixture(scope="module")
def prior():  # type: ignore[no-untyped-def]
    return load_prior()


def test_default_sources_exclude_optin(prior) -> None:  # type: ignore[no-untyped-def]
    assert prior.source_names == ("ccnews_pagerank", "majestic", "moz", "wikipedia_perennial", "cred1", "ut1_fakenews",
                                  "universities", "government", "municipalities", "wikiproject", "decodex", "legitphish", "predatory",
                                  "hijacked", "reference")


def test_known_domain_beats_random_blogspot_subsite(prior) -> None:  # type: ignore[no-untyped-def]
    nih = prior.lookup("https://www.nih.gov/health-information")
    blog = prior.lookup("https://cure-cancer-now.blogspot.com/2012/05/post.html")
    assert nih.tier == "table" and nih.authority is not None and nih.authority > 0.9
    assert {s.name for s in nih.sources} == {"ccnews_pagerank", "majestic", "moz"}
    assert blog.tier == "unknown" and blog.authority is None and blog.confidence == 0.0


def test_subdomain_with_own_reputation_matches_first(prior) -> None:  # type: ignore[no-untyped-def]
    d = prior.lookup("https://en.wikipedia.org/wiki/Cancer")
    assert d.matched == "en.wikipedia.org"
    maj = next(s for s in d.sources if s.name == "majestic")
    assert maj.raw == 199583.0  # en.wikipedia.org's own RefSubNets, not wikipedia.org's


def test_two_axes_kept_separate(prior) -> None:  # type: ignore[no-untyped-def]
    d = prior.lookup("infowars.com")
    assert d.authority is not None and d.authority > 0.8  # widely linked
    # Wikipedia perennial: blacklisted (0.0); CRED-1: conspiracy (0.073); Décodex: unreliable
    # (0.1); weighted by source confidence 0.7, 0.7, 0.6
    assert d.credibility == pytest.approx((0.7 * 0.0 + 0.7 * 0.073 + 0.6 * 0.1) / 2.0)
    assert [(s.name, s.value, s.raw) for s in d.credibility_sources] == [
        ("wikipedia_perennial", 0.0, -2.0), ("cred1", 0.073, "conspiracy"), ("decodex", 0.1, 2.0)]


def test_credibility_evidence_of_the_new_sources(prior) -> None:  # type: ignore[no-untyped-def]
    # UT1 fakenews lists this host; the registrable domain is a known news site, so only the host is keyed
    assert [s.name for s in prior.lookup("https://finance.azcentral.com/x").credibility_sources] == [
        "ut1_fakenews", "wikiproject"]  # the WikiProject lists rate azcentral.com itself
    assert prior.lookup("https://www.azcentral.com/story").credibility == pytest.approx(0.85)  # WikiProject: reliable
    # an institutional suffix is credibility evidence even where a table knows the domain
    nih = prior.lookup("https://www.nih.gov/x")
    assert [(s.name, s.value, s.raw) for s in nih.credibility_sources] == [
        ("wikiproject", 0.85, "reliable"), ("suffix_rule", 0.9, ".gov")]  # a federal .gov domain
    # perennial "generally unreliable" because of Wikipedia's citation policy only: not evidence;
    # the hand-written reference list rates them as what they are (a tertiary work, preprints)
    assert [(s.name, s.value) for s in prior.lookup("https://en.wikipedia.org/wiki/X").credibility_sources] == [
        ("reference", 0.75)]
    assert [(s.name, s.value) for s in prior.lookup("https://arxiv.org/abs/1").credibility_sources] == [
        ("reference", 0.7)]
    # a bare public suffix that is a site (nhs.uk) finds the site's www. entry
    nhs = prior.lookup("nhs.uk")
    assert nhs.tier == "table" and nhs.matched == "www.nhs.uk" and nhs.credibility == 0.85
    # and the other way: notaires.fr is a public suffix whose site is www.notaires.fr, listed bare
    notaires = prior.lookup("https://www.notaires.fr/fr")
    assert notaires.tier == "table" and notaires.matched == "notaires.fr"
    assert [(s.name, s.value, s.raw) for s in notaires.credibility_sources] == [
        ("reference", 0.8, "professional body")]


def test_host_credibility_reads_below_the_domain_only(prior) -> None:  # type: ignore[no-untyped-def]
    assert [(s.name, s.value) for s in prior.host_credibility("70news.wordpress.com", "wordpress.com")] == [
        ("cred1", 0.045), ("decodex", 0.1)]
    assert prior.host_credibility("wordpress.com", "wordpress.com") == ()


def test_leave_source_out_really_excludes(prior) -> None:  # type: ignore[no-untyped-def]
    without = load_prior(exclude=["majestic"])
    assert "majestic" not in without.source_names
    assert all(s.name != "majestic" for s in without.lookup("nih.gov").sources)
    only_majestic = set(load_source("majestic")) - set().union(
        *(set(load_source(n)) for n in ("ccnews_pagerank", "moz", "wikipedia_perennial")))
    key = min(k for k in only_majestic if not k.endswith((".gov", ".edu", ".int", ".mil")))
    assert prior.lookup(key).tier == "table"
    assert without.lookup(key).tier in ("unknown", "rule")
    assert prior.without("majestic").source_names == without.source_names


def test_optin_sources(prior) -> None:  # type: ignore[no-untyped-def]
    p = load_prior(optin=["averitec_misinfo"])
    assert "averitec_misinfo" in p.source_names
    key = next(iter(load_source("averitec_misinfo")))
    assert p.lookup(key).credibility is not None
    with pytest.raises(ConfigError, match="unknown prior source 'nope'; known sources: ccnews_pagerank"):
        load_prior(exclude=["nope"])
    with pytest.raises(ConfigError, match="both excluded and opted in"):
        load_prior(exclude=["grinberg2019"], optin=["grinberg2019"])


def test_suffix_rules(prior) -> None:  # type: ignore[no-untyped-def]
    d = prior.lookup("https://abbevillecitymarshal.gov/page")  # in the .gov registry, in no table
    assert (d.tier, d.authority, d.confidence) == ("rule", 0.85, 0.5)
    assert "suffix rule .gov" in (d.note or "")
    unregistered = prior.lookup("https://some-obscure-office.gov/page")
    assert (unregistered.tier, unregistered.authority, unregistered.credibility) == ("unknown", None, None)
    assert unregistered.note == "some-obscure-office.gov is not in the .gov registry (us_dotgov.csv.gz)"
    assert prior.lookup("cs.some-uni.ac.uk").authority == 0.75
    assert load_prior(rules=()).lookup("abbevillecitymarshal.gov").tier == "unknown"
    custom = load_prior(rules=[SuffixRule("museum", 0.6)])
    assert custom.lookup("art.museum").authority == 0.6
    with pytest.raises(ConfigError, match=r"authority must be in \[0, 1\], got 1.5"):
        SuffixRule("x", 1.5)
    assert len(DEFAULT_RULES) > 30


def test_invalid_url_is_explicit_unknown(prior) -> None:  # type: ignore[no-untyped-def]
    d = prior.lookup("not a url")
    assert d.tier == "unknown" and d.note is not None and "invalid URL" in d.note


def test_score_protocol_and_batch(prior) -> None:  # type: ignore[no-untyped-def]
    cands = [Candidate.create(u) for u in ("nih.gov", "zzz-unknown-site.com", "bad url")]
    details = prior.score(cands)
    assert [d.tier for d in details] == ["table", "unknown", "unknown"]
    auth, conf = prior.lookup_many(["nih.gov", "zzz-unknown-site.com"])
    assert auth[0] > 0.9 and auth[1] != auth[1]  # NaN for unknown
    assert conf.tolist()[1] == 0.0


def test_values_normalized_to_unit_interval() -> None:
    for name in SOURCES:
        values = [v.value for v in load_source(name).values()]
        assert values and min(values) >= 0.0 and max(values) <= 1.0, name


def test_majestic_broken_row_skipped() -> None:
    assert "com" not in load_source("majestic") and ".com" not in load_source("majestic")


def test_compiled_file_matches_fresh_compile() -> None:
    shipped = resources.files("authorag.data").joinpath(COMPILED_FILE).read_bytes()
    assert gzip.decompress(shipped) == gzip.decompress(compile_sources())


def test_normalize_source_moz() -> None:
    moz = normalize_source("moz")
    assert moz["youtube.com"].value == 1.0 and moz["youtube.com"].raw == 100.0
    assert "google.com" in moz and "www.google.com" not in moz


def test_extra_pagerank_source_end_to_end(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from authorag.cli import main
    from authorag.priors import ExtraSource

    edges = tmp_path / "links.tsv"
    edges.write_text("".join(f"https://site{i}.org/a\thttps://hub-of-links.org/x\n" for i in range(5))
                     + "https://hub-of-links.org/y\thttps://site0.org/b\n", encoding="utf-8")
    out = tmp_path / "prior.csv.gz"
    assert main(["priors", "build", "--edges", str(edges), "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    prior = load_prior(extra=[ExtraSource.from_pagerank_file(str(out), "mylinks")])
    assert prior.source_names[-1] == "mylinks"
    hub, leaf = prior.lookup("hub-of-links.org"), prior.lookup("site3.org")
    assert hub.tier == "table" and [s.name for s in hub.sources] == ["mylinks"]
    assert hub.authority is not None and leaf.authority is not None and hub.authority > leaf.authority
    assert "mylinks" not in prior.without("mylinks").source_names
    assert main(["score", "hub-of-links.org", "--json", "--no-learned", "--prior-file", f"mylinks={out}"]) == 0
    assert set(json.loads(capsys.readouterr().out)[0]["sources"]) == {"mylinks"}
    assert main(["score", "x.org", "--no-learned", "--prior-file", "oops"]) == 1
    assert "--prior-file (AUTHORAG_PRIOR_FILES) needs NAME=PATH" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="clashes with a shipped source"):
        ExtraSource("majestic", {})
