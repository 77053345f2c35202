"""The municipalities source: names by each country's rules, districts and ambiguous names left out."""
from __future__ import annotations

import pytest

from authorag.priors.institutions import OWNERSHIP_CAP
from authorag.priors.sources import load_source
from tests._scripts import load_script

vendor = load_script("vendor_municipalities")


def test_labels_fold_accents_umlauts_and_qualifiers() -> None:
    assert vendor.labels("Saint-Étienne", "FR") == ("saintetienne", "saint-etienne")
    assert vendor.labels("Rothenburg ob der Tauber", "DE") == ("rothenburg", "rothenburg")
    assert vendor.labels("Halle (Saale)", "DE") == ("halle", "halle")
    assert vendor.labels("München", "DE") == ("muenchen", "muenchen")
    assert vendor.labels("Vélez-Málaga", "ES") == ("velezmalaga", "velez-malaga")
    assert vendor.labels("Ulm", "DE") is None  # too short to be read as a town's name
    assert vendor.labels("Zell am See", "AT") == ("zell", "zell")
    assert vendor.labels("Biel/Bienne", "CH") == ("bielbienne", "biel-bienne")  # both names, as the town writes them


def test_districts_of_a_big_city_are_not_towns() -> None:
    places = [("Madrid", "ES", 40.4165, -3.70256, 3_255_944), ("Carabanchel", "ES", 40.3833, -3.7333, 243_998),
              ("Ronda", "ES", 36.74231, -5.16709, 36_827), ("Getafe", "FR", 40.3057, -3.7329, 170_115),
              ("Ronda", "ES", 36.7500, -5.1600, 1_200),  # the same town listed twice
              ("Horgen / Allmend", "CH", 47.26, 8.60, 3_809)]  # a part of a Swiss municipality
    assert [(p.name, p.country) for p in vendor.towns(places)] == [("Getafe", "FR"), ("Madrid", "ES"), ("Ronda", "ES")]


def _place(name: str, country: str, population: int = 10_000, canton: str = "") -> object:
    return vendor.Place(name, country, 0.0, 0.0, population, canton)


def test_rows_leave_out_known_and_shared_names() -> None:
    places = [_place("Ronda", "ES"), _place("Orange", "FR"), _place("Rothenburg", "DE"),
              _place("Rothenburg ob der Tauber", "DE"), _place("Saint-Saulve", "FR"),
              _place("Essen", "DE", 593_085), _place("Essen", "DE", 8_185),  # a city 72 times its namesake's size
              _place("Lingen", "DE", 55_000), _place("Lingen", "DE", 9_000)]  # 6 times: no one stands out
    rows = vendor.municipality_rows(places, known={"orange.fr"})
    assert rows == [["ayto-ronda.es", "ES", "Ronda"], ["essen.de", "DE", "Essen"], ["gemeinde-essen.de", "DE", "Essen"],
                    ["mairie-orange.fr", "FR", "Orange"],
                    ["mairie-saint-saulve.fr", "FR", "Saint-Saulve"], ["ronda.es", "ES", "Ronda"],
                    ["saint-saulve.fr", "FR", "Saint-Saulve"], ["saintsaulve.fr", "FR", "Saint-Saulve"],
                    ["stadt-essen.de", "DE", "Essen"], ["ville-orange.fr", "FR", "Orange"],
                    ["ville-saint-saulve.fr", "FR", "Saint-Saulve"]]


def test_a_small_town_gets_only_its_institution_words_in_its_language() -> None:
    rows = vendor.municipality_rows([_place("Adnet", "AT", 3_500), _place("Täuffelen", "CH", 3_000, "BE"),
                                     _place("Chancy", "CH", 1_200, "GE"), _place("Wädenswil", "CH", 24_000, "ZH"),
                                     _place("Ascona", "CH", 5_500, "TI")], known=set())
    assert [r[0] for r in rows] == ["ascona.ch", "commune-chancy.ch", "commune-taeuffelen.ch", "gemeinde-adnet.at",
                                    "gemeinde-taeuffelen.ch", "gemeinde-waedenswil.ch", "marktgemeinde-adnet.at",
                                    "stadt-adnet.at", "stadt-taeuffelen.ch", "stadt-waedenswil.ch",
                                    "ville-chancy.ch", "ville-taeuffelen.ch", "waedenswil.ch"]


@pytest.mark.parametrize(("domain", "listed"), [("ronda.es", True), ("herrenberg.de", True), ("nice.fr", True),
                                                ("graz.at", True), ("stadt-luzern.ch", True),
                                                ("ville-fribourg.ch", True), ("biel-bienne.ch", True),
                                                ("gemeinde-adnet.at", True), ("commune-chancy.ch", True), ("essen.de", True),
                                                ("orange.fr", False), ("carabanchel.es", False),
                                                ("rothenburg.de", False), ("adnet.at", False),
                                                ("chancy.ch", False), ("linz.gv.at", False),
                                                ("zuerich-kreis-11.ch", False), ("geneva.ch", False)])
def test_shipped_source(domain: str, listed: bool) -> None:
    source = load_source("municipalities")
    assert (domain in source) is listed
    if listed:
        assert source[domain].value == OWNERSHIP_CAP


def test_a_town_site_is_credible_and_its_name_spelled_elsewhere_is_a_lookalike() -> None:
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.trust import DEFAULT_TRUST_RULE
    from authorag.types import candidates_from

    town, spoof = load_scorer(ScorerSettings()).score(candidates_from(
        ["https://www.ronda.es/cultura/biblioteca-municipal", "https://ronda-es.multas-pendientes.com/pago"]))
    assert [s.name for s in town.credibility_sources] == ["municipalities"]
    assert DEFAULT_TRUST_RULE.of(town).reason == "credible"
    assert spoof.matched == "ronda.es"
    assert DEFAULT_TRUST_RULE.of(spoof).reason == "low credibility"
