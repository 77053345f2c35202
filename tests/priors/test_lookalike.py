"""Look-alike hosts, registries instead of suffixes, and accounts posing as institutions."""
from __future__ import annotations

import pytest

from authorag.compose import ScorerSettings, load_scorer
from authorag.priors.homoglyphs import mixed_script, skeleton, unicode_name
from authorag.priors.lookalike import LookalikeIndex, default_index
from authorag.priors.registry import refusal
from authorag.priors.rules import SuffixRule
from authorag.trust import DEFAULT_TRUST_RULE
from authorag.types import UNKNOWN_LEVEL, candidates_from

ZWJ = "\u200d"


def _trust(urls: list[str]) -> list[tuple[float, str, str | None, str | None]]:
    details = load_scorer(ScorerSettings()).score(candidates_from(urls))
    return [(round(DEFAULT_TRUST_RULE.value(d), 3), DEFAULT_TRUST_RULE.of(d).reason, d.matched, d.note)
            for d in details]


def test_homograph_and_zero_width_gov_hosts_end_below_unknown_with_a_reason() -> None:
    cyrillic, hidden = _trust(["https://n\u0456h.gov/x", f"https://ni{ZWJ}h.gov/"])
    assert cyrillic[:3] == (pytest.approx(0.039), "low credibility", "nih.gov")
    assert cyrillic[3] == ("look-alike of nih.gov (mixed scripts: label 'n\u0456h' mixes scripts); internationalized "
                           "name under the closed suffix .gov: no registry there lists it")
    assert hidden[:3] == (pytest.approx(0.039), "low credibility", "nih.gov")
    assert hidden[3] is not None and hidden[3].startswith("look-alike of nih.gov (zero-width: invisible character U+200D")


def test_registered_gov_keeps_the_rule_and_unregistered_or_idn_does_not() -> None:
    gov = SuffixRule("gov", 0.85)
    assert refusal(gov, "www.abbevillecitymarshal.gov", "abbevillecitymarshal.gov") is None
    assert refusal(gov, "x.gov", "x.gov") == "x.gov is not in the .gov registry (us_dotgov.csv.gz)"
    assert refusal(SuffixRule("gouv.fr", 0.8), "xn--ducation-f1a.gouv.fr", "xn--ducation-f1a.gouv.fr") == (
        "internationalized name under the closed suffix .gouv.fr: no registry there lists it")


@pytest.mark.parametrize(("host", "kind", "imitates"), [
    ("ftc-gov.net", "brand claim", "ftc.gov"),
    ("irs-gov.tax-refund.net", "brand claim", "irs.gov"),
    ("irsgov.com", "brand claim", "irs.gov"),
    ("hmrc-uk.xyz", "brand claim", "hmrc.gov.uk"),
    ("who-official.org", "brand claim", "who.int"),
    ("paypa1.com", "confusable", "paypal.com"),
    ("rnicrosoft.com", "confusable", "microsoft.com"),
    ("xn--80ak6aa92e.com", "confusable", "apple.com"),
    ("whitehuose.gov", "edit distance", "whitehouse.gov"),
    ("washingtonpots.com", "edit distance", "washingtonpost.com"),
    ("amendes-gouv.fr-paiement-securise.com", "suffix spelled", "amendes.gouv.fr"),
    ("hmrc-gov-uk.refund-portal.co", "brand claim", "hmrc.gov.uk"),
    ("dwd-de.unwetter-warnung.info", "brand claim", "dwd.de"),  # a listed agency beside its country code
    ("cdc-login.com", "brand claim", "cdc.gov"),
    ("census-official.net", "brand claim", "census.gov"),  # a common word beside an office word
    # agencies outside a government suffix that the reference source lists as public bodies
    ("kfw-foerderung-antrag.de", "brand claim", "kfw.de"),
    ("lba-entschaedigung-portal.de", "brand claim", "lba.de"),
    ("elster-steuer-hilfe.de", "brand claim", "elster.de"),
    # a name whose words are joined by hyphens, read across the look-alike's tokens
    ("deutsche-rentenversicherung-antrag.de", "brand claim", "deutsche-rentenversicherung.de"),
    ("seg-social-cita.es", "brand claim", "seg-social.es"),
    # a regional government's domain spelled out, however far the tables trust it
    ("comunidad-madrid.cita-medica-online.com", "domain spelled", "comunidad.madrid"),
    ("bayern-de.steuer-hilfe.com", "domain spelled", "bayern.de"),
    # a common word's name (office-only) beside its own suffix's code, in a sub-domain offering a service
    ("bahn-de.fahrgastrechte-erstattung.com", "brand and country", "bahn.de"),
])
def test_lookalikes_name_the_imitated_domain(host: str, kind: str, imitates: str) -> None:
    from authorag.domains import parse_host

    parsed = parse_host(host)
    found = default_index().check(parsed.host, parsed.domain)
    assert found is not None and (found.kind, found.imitates) == (kind, imitates)


@pytest.mark.parametrize("host", ["nihr.ac.uk", "whonet.org", "example-clinic.org", "irs.com", "taxrefundhelp.net",
                                  "gov.uk", "nature-walks.net", "stackexchange.com", "bücher.de", "my-blog.com",
                                  "nhs.uk", "gov.ie", "govtrack.us", "worldpress.org", "amnews.com", "jython.org",
                                  # joined from common words: beside a service word, a firm's name
                                  "supreme-court-services.com", "access-board-services.com",
                                  # a common word's name beside another code, or not directly under a
                                  # country's code (blog.gov.uk), or with no service offered
                                  "bahn-at.fahrgastrechte-erstattung.com", "blog-uk.payment-hub.com",
                                  "bahn-de.reiseblog.com"])
def test_ordinary_and_listed_hosts_are_not_lookalikes(host: str) -> None:
    from authorag.domains import parse_host

    parsed = parse_host(host)
    assert default_index().check(parsed.host, parsed.domain) is None


def test_skeleton_mixed_script_and_unicode_name() -> None:
    assert skeleton("n\u0456h.gov") == skeleton("nih.gov") == "nlh.gov"
    assert unicode_name("xn--nh-hoc.gov") == "n\u0456h.gov"
    assert (mixed_script("n\u0456h"), mixed_script("\u0430\u0440\u0440"), mixed_script("bücher")) == (True, False, False)


def test_index_from_given_targets_only() -> None:
    index = LookalikeIndex([("example-agency.gov", "gov", "institution")])
    found = index.check("example-agency-gov.net", "example-agency-gov.net")
    # a name of two words is read across two tokens; common words both, claimed by an office word only
    assert found is not None and (found.imitates, found.detail) == ("example-agency.gov", "'example-agency' beside 'gov'")
    assert index.check("example-agency-payment.net", "example-agency-payment.net") is None
    index = LookalikeIndex([("acme.gov", "gov", "institution"), ("acmecorp.com", "com", "trusted")])
    assert index.check("acme-usa.biz", "acme-usa.biz").imitates == "acme.gov"  # type: ignore[union-attr]
    assert index.check("acme-uk.biz", "acme-uk.biz") is None  # another country's word claims nothing
    assert index.check("acmecorp-usa.biz", "acmecorp-usa.biz") is None  # country words only for public bodies
    assert index.check("acmecorp-official.biz", "acmecorp-official.biz").imitates == "acmecorp.com"  # type: ignore[union-attr]
    assert index.check("acmecorq.com", "acmecorq.com") is None  # a short media name: no edit-distance check
    assert index.check("acne.gov", "acne.gov") is None  # a public body's name shorter than the edit minimum
    assert index.check("acme.gov", "acme.gov") is None


def test_accounts_posing_as_institutions_are_flagged_without_lift() -> None:
    rows = _trust(["https://medium.com/@who-official/x", "https://cdc-gov.github.io/", "https://sites.google.com/view/irs-refund",
                   "https://medium.com/@johndoe/x", "https://cdcgov.github.io/", "https://twitter.com/cdc-gov"])
    details = load_scorer(ScorerSettings()).score(candidates_from(["https://cdc-gov.github.io/"]))
    assert details[0].authority == 0.4 and details[0].tier == "hosted"
    assert [s.raw for s in details[0].credibility_sources] == ["cdc.gov"]
    assert [r[1] for r in rows[:3]] == ["low credibility"] * 3
    assert all(r[0] < UNKNOWN_LEVEL for r in rows[:3])
    assert "impersonation risk: the account name claims who.int (no lift from the claim)" in (rows[0][3] or "")
    assert [r[1] for r in rows[3:]] == ["recognition only"] * 3  # no claim, a glued handle, a social account


def test_a_left_out_source_chooses_no_lookalike_target() -> None:
    from authorag.priors.sources import SOURCES
    from authorag.priors.table import load_prior

    others = [n for n, s in SOURCES.items() if not s.optin and n not in ("decodex", "reference")]
    small = load_prior(exclude=others)  # Décodex rates latribune.fr "rather reliable"; little else is left
    assert "latribune.fr" in small.lookalikes.targets
    assert small.lookup("latribune-officiel.com").matched == "latribune.fr"
    without = small.without("decodex")
    assert "latribune.fr" not in without.lookalikes.targets
    assert without.lookup("latribune-officiel.com").tier == "unknown"
    assert without.lookup("latribune-officiel.com").credibility is None
    assert "ftc.gov" in without.lookalikes.targets  # the .gov registry is not a left-out source
    assert load_prior().lookalikes is default_index()
    from authorag.tiers.tiered import TieredAuthority

    assert TieredAuthority(without).lookalikes is without.lookalikes  # account names: the same index
    assert TieredAuthority(load_prior()).lookalikes is default_index()


@pytest.mark.slow
def test_the_decodex_track_prior_does_not_see_decodex_through_lookalikes() -> None:
    from authorag.priors.table import load_prior

    assert "latribune.fr" in default_index().targets
    assert "latribune.fr" not in load_prior(exclude=["decodex"]).lookalikes.targets


@pytest.mark.parametrize(("host", "kind", "imitates"), [
    ("dvla-gov.net", "brand claim", "dvla.gov.uk"),  # only the UK government's gov.uk list names dvla.gov.uk
    ("dvla-uk.vehicle-tax-refund.com", "brand claim", "dvla.gov.uk"),
    ("inah-mx.pago-boletos.com", "brand claim", "inah.gob.mx"),  # a source lists a host under it, not the domain
    ("austintexas-gov.org", "brand claim", "austintexas.gov"),  # a city's registry name beside an office word
    ("bbc-news-uk.energy-rebate.co", "brand and country", "bbc.co.uk"),
    ("bbc.uk-rebate.com", "brand and country", "bbc.co.uk"),
    ("agenciatributaria-es.devolucion-renta.com", "brand claim", "agenciatributaria.es"),  # a listed agency
    ("berlin-offiziell.termin-online.com", "brand claim", "berlin.de"),  # a regional government beside an office word
])
def test_targets_from_registries_and_brands_beside_a_country(host: str, kind: str, imitates: str) -> None:
    from authorag.domains import parse_host

    parsed = parse_host(host)
    found = default_index().check(parsed.host, parsed.domain)
    assert found is not None and (found.kind, found.imitates) == (kind, imitates)


@pytest.mark.parametrize("host", [
    "boston-tax-services.com",  # a city's name beside a service word: firms are named after their towns
    "somerset-tax-advice.co.uk", "fire-safety-uk.co.uk", "weather-alerts.net", "cancer-help.org",  # dictionary words
    "royal-uk-tours.com",  # a known domain whose name is a word is not spelled out
    "asesoria-tributaria-madrid.es",  # an agency's word in a firm's name
    "nature-uk.walking-tours.com",  # a brand beside a country, no service offered
    "nice-fr.parking-payment.com",  # a national body's name beside another country's code
    "berlin-tours.com", "hamburg-steuerberatung.de",  # a regional government's place name in a firm's name
])
def test_names_that_hold_an_institutions_word_are_not_lookalikes(host: str) -> None:
    from authorag.domains import parse_host

    parsed = parse_host(host)
    assert default_index().check(parsed.host, parsed.domain) is None


def test_office_only_targets_and_the_country_claim() -> None:
    index = LookalikeIndex([("springfield.gov", "gov", "office-only"), ("acmenews.com", "com", "trusted"),
                            ("acmepost.co.uk", "co.uk", "trusted")])
    assert index.check("springfield-gov.com", "springfield-gov.com").imitates == "springfield.gov"  # type: ignore[union-attr]
    assert index.check("springfield-tax-help.com", "springfield-tax-help.com") is None
    assert index.check("springfeld.gov", "springfeld.gov") is None  # no edit distance for an office-only name
    found = index.check("acmenews-de.konto-hilfe.com", "konto-hilfe.com")
    assert found is not None and found.reason == ("look-alike of acmenews.com (brand and country: 'acmenews' beside "
                                                  "'de' in a sub-domain of konto-hilfe.com)")
    assert index.check("acmenews-de.example-shop.com", "example-shop.com") is None  # no service word
    assert index.check("acmepost-uk.refund-desk.com", "refund-desk.com").imitates == "acmepost.co.uk"  # type: ignore[union-attr]
    assert index.check("acmepost-fr.refund-desk.com", "refund-desk.com") is None  # another country than its own
    assert index.check("acmepost.uk-refund.com", "uk-refund.com").imitates == "acmepost.co.uk"  # type: ignore[union-attr]


def test_target_rows_from_lists_under_government_suffixes() -> None:
    from authorag.priors.table import ExtraSource, PriorTable
    from authorag.priors.targets import target_rows
    from authorag.types import SourceValue

    values = {k: SourceValue("x", 0.99, 0.99) for k in ("www.example-agency.gouv.fr", "weather.com", "acmenews.com")}
    prior = PriorTable([], extra=[ExtraSource("x", values, "authority", 0.9)], lookalikes=None)
    listed = {"dvla.gov.uk": "institution", "fire.gov.uk": "institution", "boston.gov": "office-only",
              "irs.gov": "institution", "why.gov": "institution", "nasa.gov": "institution"}
    rows = target_rows(prior, listed)  # type: ignore[arg-type]
    assert [(d, k) for d, _, _, k in rows] == [
        ("irs.gov", "institution"), ("nasa.gov", "institution"),  # names, not words (proper_names.txt.gz)
        ("why.gov", "office-only"),  # only a registry names it, and 'why' is a short dictionary word
        ("boston.gov", "office-only"),  # a city
        ("example-agency.gouv.fr", "institution"),  # a listed host under a national government suffix
        ("dvla.gov.uk", "institution"), ("fire.gov.uk", "office-only"),  # a public body named by a common word
        ("acmenews.com", "trusted"),
        ("weather.com", "office-only")]  # a firm's name that is a dictionary word of four letters or more
    assert [t for d, _, t, _ in rows if d == "dvla.gov.uk"] == [pytest.approx(0.743)]


def test_target_rows_read_public_bodies_from_the_reference_source() -> None:
    from authorag.priors.sources import SOURCES
    from authorag.priors.table import PriorTable
    from authorag.priors.targets import target_rows

    prior = PriorTable([SOURCES["reference"]], rules=(), lookalikes=None)
    kinds = {d: k for d, _, _, k in target_rows(prior, {})}
    # an agency, a central bank, a statutory health insurer: claimed by a service word beside the name
    assert [kinds[d] for d in ("kfw.de", "bundesbank.de", "barmer.de")] == ["institution"] * 3
    # a newsroom and a research society: claimed only by an office word
    assert [kinds[d] for d in ("zdf.de", "mpg.de")] == ["trusted"] * 2


def _phishing_rows() -> list[tuple[str, str]]:
    import csv
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "lookalike" / "phishing_institution_names_v1.csv"
    with open(path, newline="", encoding="utf-8") as f:
        return [(r["domain"], r["imitates"]) for r in csv.DictReader(f)]


def test_phishing_names_of_public_bodies_are_caught_unless_the_name_is_a_common_word() -> None:
    from authorag.domains import parse_host

    rows = _phishing_rows()
    caught = [h for h, imitates in rows if (found := default_index().check(h, parse_host(h).domain)) is not None
              and (found.kind, found.imitates) == ("brand claim", imitates)]
    assert len(caught) == 14 and len(rows) == 20
    # a common word beside a service word cannot be told from a firm's name ('treasury-payment-solutions')
    assert [h for h, _ in rows if h not in caught] == [
        "census-survey-online.com", "treasury-payment.com", "treasury-refund-online.com", "census-verify.com",
        "energy-rebate-payment.com", "labor-payment-verify.com"]


def test_names_stay_claimed_by_a_service_word_and_common_words_only_by_an_office_word() -> None:
    rows = _trust([f"https://{h}/" for h in ("medicare-refund.com", "census-survey-online.com",
                                              "treasury-payment.com", "nasa-login.com", "treasury-gov.com")])
    assert [(t, r, m) for t, r, m, _ in rows] == [
        (pytest.approx(0.039), "low credibility", "medicare.gov"),
        # census and treasury are common words: beside a service word they read as a firm's name
        (pytest.approx(0.300), "unknown", None), (pytest.approx(0.300), "unknown", None),
        (pytest.approx(0.039), "low credibility", "nasa.gov"),
        (pytest.approx(0.039), "low credibility", "treasury.gov")]
    assert [n for *_, n in rows] == [
        "look-alike of medicare.gov (brand claim: 'medicare' beside 'refund')", None, None,
        "look-alike of nasa.gov (brand claim: 'nasa' beside 'login')",
        "look-alike of treasury.gov (brand claim: 'treasury' beside 'gov')"]


def test_a_common_word_body_is_claimed_by_an_office_word_only() -> None:
    index = LookalikeIndex([("census.gov", "gov", "office-only"), ("nasa.gov", "gov", "institution"),
                            ("census.com", "com", "office-only")])
    found = index.check("census-gov.net", "census-gov.net")
    assert found is not None and found.reason == "look-alike of census.gov (brand claim: 'census' beside 'gov')"
    assert index.check("official-census.us", "official-census.us").imitates == "census.gov"  # type: ignore[union-attr]
    assert index.check("nasa-help.com", "nasa-help.com").imitates == "nasa.gov"  # type: ignore[union-attr]
    assert [index.check(h, d) for h, d in [
        ("census-verify-online.com", "census-verify-online.com"),  # a phishing-kind service word
        ("census-help.com", "census-help.com"),  # a generic service word
        ("census-us.com", "census-us.com"),  # its country
        ("censos-verify.com", "censos-verify.com"),  # no edit distance for a common word
    ]] == [None] * 4


def test_proper_names_are_the_words_a_word_list_spells_only_capitalised() -> None:
    import gzip
    from importlib import resources

    from tests._scripts import load_script

    build = load_script("build_proper_names")
    spelled = ["NASA", "Medicare", "census", "Census", "treasury", "FBI's", "Paris", "paris"]
    words = frozenset({"nasa", "medicare", "census", "treasury", "fbi", "paris", "cyber"})
    assert build.proper_names(words, spelled) == ["medicare", "nasa"]  # 'fbi' only with an apostrophe
    shipped = gzip.decompress(resources.files("authorag.data").joinpath("proper_names.txt.gz").read_bytes())
    names = set(shipped.decode("ascii").split())
    assert {"medicare", "nasa", "irs", "fbi"} <= names and not names & {"census", "treasury", "weather", "cancer"}
