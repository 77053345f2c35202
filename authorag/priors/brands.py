"""The brands phishing imitates most: look-alike targets that give no trust.

Phishing and smishing borrow the names of postal operators, parcel carriers, banks, payment
services, telecoms, shops, streaming and software brands more than any agency's
(``correos-es.envio-pendiente.com``, ``paypal-login.com``). :data:`BRANDS_FILE` lists their
official domains, hand-written (``authorag/data/impersonated_brands.csv``, with a one-line why for
each row). The list feeds :func:`authorag.priors.targets.listed_domains` only: a domain on it is a
look-alike target of kind ``brand`` (every check, like a public body), and nothing else. Being on
the list gives no trust: a bank is no authority on health, and a parcel carrier's page is ranked
by what the prior tables say of it, as before.

Example:
    >>> impersonated_brands()["correos.es"]
    ()
    >>> impersonated_brands()["canadapost-postescanada.ca"]
    ('canadapost', 'postescanada')
"""
from __future__ import annotations

import csv
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType

from authorag.errors import PriorUnavailable

BRANDS_FILE = "impersonated_brands.csv"
"""Official domains of often-imitated brands (hand-listed): look-alike targets, not a trust source."""
BRAND_KINDS = frozenset({"postal", "parcel", "bank", "payment", "telecom", "retail", "streaming", "software"})
"""What a listed brand is (the ``kind`` column)."""


@cache
def _rows() -> dict[str, tuple[tuple[str, ...], str]]:
    text = resources.files("authorag.data").joinpath(BRANDS_FILE).read_text(encoding="utf-8")
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    for row in csv.DictReader(ln for ln in text.splitlines() if not ln.startswith("#")):
        if row["kind"] not in BRAND_KINDS or row["domain"] in out:
            raise PriorUnavailable(f"{BRANDS_FILE}: row {row['domain']!r} has kind {row['kind']!r} or repeats a "
                                   f"domain; kinds are {sorted(BRAND_KINDS)}: fix the row and reinstall authorag")
        out[row["domain"]] = (tuple(row["brands"].split()), row["country"])
    return out


@cache
def impersonated_brands() -> Mapping[str, tuple[str, ...]]:
    """The domains of :data:`BRANDS_FILE`, each with the other names of its brand a host may
    carry (``canadapost`` for ``canadapost-postescanada.ca``), claimed like a brand's label; a
    label that is a common word (``apple``, ``orange``) is claimed only beside an office word
    unless it is listed again as a name (``amazon``). Read once per process."""
    return MappingProxyType({d: names for d, (names, _) in _rows().items()})


def home_country(domain: str) -> str | None:
    """The home market of a listed brand (``royalmail.com``: ``uk``), or None for any other domain
    or a brand with none (``global``): a country code beside the brand's name claims it only when
    it is this one.

    Example:
        >>> home_country("royalmail.com"), home_country("binance.com"), home_country("nih.gov")
        ('uk', None, None)
    """
    row = _rows().get(domain)
    return row[1] if row is not None and len(row[1]) == 2 else None


__all__ = ["BRANDS_FILE", "BRAND_KINDS", "home_country", "impersonated_brands"]
