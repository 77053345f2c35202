"""Known-source lists: host -> source type, from two shipped files.

* ``known_sources.csv``: about 200 well-known hosts, hand-made by the authorag maintainers from
  general knowledge (Apache-2.0, like the code). Checked first.
* ``ut1_source_types.csv.gz``: the UT1 categories press, blog, forums, social_networks,
  audio-video and shopping (47,579 hosts; CC BY-SA 4.0, "UT1 blacklists, Université Toulouse
  Capitole"; made by ``scripts/vendor_source_types.py``; see DATA_LICENSES.md). French sites are
  over-represented and the categories are broad, so its votes weigh less.

Example:
    >>> lists = load_known_sources()
    >>> lists.lookup("en.wikipedia.org", "wikipedia.org")
    ('reference', 'list', 'wikipedia.org in known_sources.csv', 0.8)
"""
from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from authorag.domains import host_keys
from authorag.errors import ConfigError
from authorag.suitability.taxonomy import SOURCE_TYPES, SourceType

CURATED_FILE = "known_sources.csv"
UT1_FILE = "ut1_source_types.csv.gz"
CURATED_WEIGHT = 0.8
UT1_WEIGHT = 0.6


@dataclass(frozen=True, slots=True)
class KnownSources:
    """Host -> type tables; :meth:`lookup` tries the host, then its parents up to the domain.

    Attributes:
        curated: the hand-made table (checked first).
        ut1: the UT1-derived table.
    """

    curated: Mapping[str, SourceType]
    ut1: Mapping[str, tuple[SourceType, str]]

    def lookup(self, host: str, domain: str) -> tuple[SourceType, str, str, float] | None:
        """``(type, "list", reason, weight)`` for the most specific listed key, or None."""
        for key in host_keys(host, domain):
            hit = self.curated.get(key)
            if hit is not None:
                return hit, "list", f"{key} in {CURATED_FILE}", CURATED_WEIGHT
            ut1 = self.ut1.get(key)
            if ut1 is not None:
                return ut1[0], "list", f"{key} in UT1 '{ut1[1]}' (CC BY-SA 4.0)", UT1_WEIGHT
        return None

    def covers(self, host: str, domain: str) -> bool:
        """True when any key of ``host`` is listed (used by the evaluation's overlap report)."""
        return self.lookup(host, domain) is not None


def _check_type(value: str, where: str) -> SourceType:
    if value not in SOURCE_TYPES:
        raise ConfigError(f"{where}: unknown source type {value!r}; allowed: {', '.join(SOURCE_TYPES)}")
    return value  # type: ignore[return-value]


def _read(name: str) -> str:
    raw = resources.files("authorag.suitability").joinpath(name).read_bytes()
    return gzip.decompress(raw).decode("utf-8") if name.endswith(".gz") else raw.decode("utf-8")


@cache
def load_known_sources() -> KnownSources:
    """The shipped lists (read once per process)."""
    curated: dict[str, SourceType] = {}
    for n, row in enumerate(csv.DictReader(io.StringIO(_read(CURATED_FILE))), start=2):
        curated[row["host"]] = _check_type(row["source_type"], f"{CURATED_FILE}:{n}")
    ut1: dict[str, tuple[SourceType, str]] = {}
    for n, row in enumerate(csv.DictReader(io.StringIO(_read(UT1_FILE))), start=2):
        ut1[row["host"]] = (_check_type(row["source_type"], f"{UT1_FILE}:{n}"), row["ut1_category"])
    return KnownSources(curated, ut1)


__all__ = ["KnownSources", "load_known_sources"]
