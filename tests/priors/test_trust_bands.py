"""The calibration table: ~100 well-known domains across kinds, each in the trust band the team
considers right (tests/priors/trust_bands_v1.csv; the stance is in docs/priors.md)."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from authorag.compose import ScorerSettings, load_scorer
from authorag.trust import DEFAULT_TRUST_RULE
from authorag.types import candidates_from

BANDS = Path(__file__).with_name("trust_bands_v1.csv")
ROWS = list(csv.DictReader(BANDS.open(encoding="utf-8")))


def _trust(domains: list[str]) -> dict[str, tuple[float, str]]:
    details = load_scorer(ScorerSettings()).score(candidates_from(domains))
    return {d: (DEFAULT_TRUST_RULE.value(x), DEFAULT_TRUST_RULE.of(x).reason) for d, x in zip(domains, details)}


def test_the_table_covers_every_kind_and_several_countries() -> None:
    assert len(ROWS) >= 95
    assert {r["band"] for r in ROWS} == {"institution", "news of record", "news, no open list", "reference",
                                         "university", "local government", "community", "low"}
    assert {"us", "uk", "de", "fr", "es"} <= {r["country"] for r in ROWS if r["band"] == "institution"}
    assert all(r["why"] for r in ROWS)


def test_every_domain_sits_in_its_band() -> None:
    trust = _trust([r["domain"] for r in ROWS])
    outside = [(r["domain"], round(trust[r["domain"]][0], 3), r["low"], r["high"]) for r in ROWS
               if not float(r["low"]) <= trust[r["domain"]][0] <= float(r["high"])]
    assert outside == []


def test_the_orders_the_stance_names() -> None:
    trust = _trust(["irs.gov", "nytimes.com", "python.org", "docs.python.org", "geeksforgeeks.org",
                    "wikipedia.org", "arxiv.org", "stackoverflow.com"])
    assert trust["irs.gov"][0] > trust["nytimes.com"][0]  # a federal agency on its own programmes
    assert trust["python.org"][0] - trust["geeksforgeeks.org"][0] >= 0.1
    assert trust["docs.python.org"][0] > trust["stackoverflow.com"][0]
    assert (trust["wikipedia.org"][1], trust["arxiv.org"][1]) == ("credible", "credible")


def test_no_community_site_outranks_an_institution_or_newsroom_of_record() -> None:
    by_band: dict[str, list[str]] = {}
    for r in ROWS:
        by_band.setdefault(r["band"], []).append(r["domain"])
    trust = _trust([r["domain"] for r in ROWS])
    top_community = max(trust[d][0] for d in by_band["community"])
    assert min(trust[d][0] for d in by_band["institution"] + by_band["news of record"]) > top_community
    assert max(trust[d][0] for d in by_band["low"]) <= 0.3


@pytest.mark.parametrize("domain", ["elmundo.es", "faz.net", "zeit.de"])
def test_the_known_gap_is_recognition_only(domain: str) -> None:
    assert _trust([domain])[domain][1] == "recognition only"
