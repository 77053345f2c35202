"""The brands phishing imitates most: look-alike targets that give no trust."""
from __future__ import annotations

import csv
import gzip
from importlib import resources

import pytest

from authorag.compose import ScorerSettings, load_scorer
from authorag.domains import parse_host
from authorag.priors.brands import home_country, impersonated_brands
from authorag.priors.claims import countries
from authorag.priors.lookalike import IMPERSONATION, LookalikeIndex
from authorag.priors.targets import dictionary_words, listed_domains
from authorag.trust import DEFAULT_TRUST_RULE
from authorag.types import UNKNOWN_LEVEL, candidates_from


def _scored(urls: list[str]) -> list[tuple[float, bool, str | None]]:
    """(trust, flagged as impersonation, note) for each URL, with the default scorer."""
    details = load_scorer(ScorerSettings()).score(candidates_from(urls))
    return [(round(DEFAULT_TRUST_RULE.value(d), 3), any(s.name == IMPERSONATION for s in d.credibility_sources),
             d.note) for d in details]


def test_spoof_of_a_postal_operator_ends_below_unknown_naming_it_and_the_real_one_does_not() -> None:
    spoof, real, sister = _scored(["https://correos-es.envio-pendiente.com/seguimiento",
                                   "https://www.correos.es/es/es/herramientas/localizador/envios",
                                   "https://www.correosexpress.com/web/correosexpress/home"])
    assert spoof == (pytest.approx(0.039), True, "look-alike of correos.es (brand claim: 'correos' beside 'es')")
    assert spoof[0] < UNKNOWN_LEVEL
    assert real == (pytest.approx(UNKNOWN_LEVEL), False, None)  # listed: no trust from the list
    assert sister == (pytest.approx(UNKNOWN_LEVEL), False, None)


@pytest.mark.parametrize(("url", "note"), [
    ("https://bbva-acceso.com/login", "look-alike of bbva.es (brand claim: 'bbva' beside 'acceso')"),
    ("https://natwest-secure.co.uk/", "look-alike of natwest.com (brand claim: 'natwest' beside 'secure')"),
    ("https://royalmail-uk.xyz/", "look-alike of royalmail.com (brand claim: 'royalmail' beside 'uk')"),
    ("https://paypal-login.com/", "look-alike of paypal.com (brand claim: 'paypal' beside 'login')"),
    ("https://ups-us.top/", "look-alike of ups.com (brand claim: 'ups' beside 'us')"),
    ("https://id.canadapost-ca.info/", "look-alike of canadapost-postescanada.ca (brand claim: 'canadapost' beside "
                                       "'ca')"),
])
def test_spoofs_of_banks_carriers_and_payments_end_below_unknown_naming_the_brand(url: str, note: str) -> None:
    [(trust, flagged, got)] = _scored([url])
    assert (trust, flagged, got) == (pytest.approx(0.039), True, note)


@pytest.mark.parametrize("url", [
    "https://bbva.com/", "https://www.sparkasse-hannover.de/", "https://berliner-sparkasse.de/",
    "https://theupsstore.com/", "https://paypal-community.com/", "https://hermes.com/",
    # a brand's name of three letters beside a service word reads as a firm's name: not claimed
    "https://att-tax-services.com/", "https://tim-consulting-services.com/", "https://ups-and-downs-support.org/",
])
def test_legitimate_sister_domains_and_firms_sharing_a_word_are_not_flagged(url: str) -> None:
    [(trust, flagged, note)] = _scored([url])
    assert not flagged, note
    assert trust >= UNKNOWN_LEVEL


def test_a_short_brand_name_is_claimed_by_its_country_or_an_office_word_but_not_a_service_word() -> None:
    index = LookalikeIndex([("ups.com", "com", "brand"), ("paypal.com", "com", "brand")])
    assert index.check("ups-delivery.com", "ups-delivery.com") is None
    assert index.brand_claim("ups-us") is not None and index.brand_claim("ups-official") is not None
    found = index.check("paypal-delivery.com", "paypal-delivery.com")
    assert found is not None and found.reason == "look-alike of paypal.com (brand claim: 'paypal' beside 'delivery')"


def test_a_brand_name_is_claimed_by_its_home_country_only() -> None:
    assert home_country("royalmail.com") == "uk" and home_country("binance.com") is None
    assert countries("royalmail.com") == frozenset({"uk", "gb", "ukgov"})
    assert countries("usps.com") == frozenset({"us", "usa", "america", "usgov"})
    assert countries("paypal.com") == frozenset({"us", "usa", "america", "usgov"})
    assert countries("example.com") == frozenset()
    index = LookalikeIndex([("royalmail.com", "com", "brand")])
    assert index.brand_claim("royalmail-uk") is not None
    assert index.brand_claim("royalmail-fr") is None


def test_other_names_are_claimed_even_when_the_label_is_a_common_word() -> None:
    index = LookalikeIndex([("post.ch", "ch", "office-only")])
    assert index.brand_claim("post-tracking") is None
    named = LookalikeIndex([])
    named.add("post.ch", "ch", "office-only", ("swisspost",))
    found = named.brand_claim("swisspost-tracking")
    assert found is not None and found.reason == "look-alike of post.ch (brand claim: 'swisspost' beside 'tracking')"
    assert named.brand_claim("post-tracking") is None


def test_every_listed_brand_is_a_registrable_domain_with_names_that_are_not_words() -> None:
    brands = impersonated_brands()
    assert len(brands) == 208
    assert [d for d in brands if parse_host(d).domain != d] == []
    assert sorted(n for names in brands.values() for n in names if n in dictionary_words()) == ["amazon", "google"]
    assert brands["google.com"] == ("google", "gmail")


def test_brands_are_targets_of_kind_brand_or_office_only_in_the_shipped_file() -> None:
    listed = listed_domains()
    assert listed["correos.es"] == "brand" and listed["paypal.com"] == "brand"
    assert listed["indiapost.gov.in"] == "brand"  # no registry lists it as a national body
    with resources.files("authorag.data").joinpath("lookalike_targets.csv.gz").open("rb") as raw:
        rows = {r["domain"]: r["kind"] for r in csv.DictReader(gzip.decompress(raw.read()).decode().splitlines())}
    kinds = {d: rows.get(d) for d in impersonated_brands()}
    assert {k for k in kinds.values()} == {"brand", "office-only"}
    assert sorted(d for d, k in kinds.items() if k == "office-only") == [
        "adobe.com", "amazon.com", "apple.com", "battle.net", "bell.ca", "cash.app", "chase.com", "free.fr",
        "google.com", "ledger.com", "mps.it", "nationwide.co.uk", "orange.fr", "post.at", "post.ch", "rogers.com",
        "stripe.com", "visa.com", "wise.com"]
