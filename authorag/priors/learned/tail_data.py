"""Tail training rows for the learned prior: domains no authority table knows, with targets.

The head of the training set (CC-News PageRank, Majestic, Moz; :mod:`authorag.priors.learned.train`)
only shows what *known* domains look like. A RAG system mostly meets domains no table knows, so
the learned prior also trains on lists of such domains, each row with a target on the table's
0–1 scale:

==========  ================================================  ======================================
source      rows (vendored, ``authorag/data``)                target
==========  ================================================  ======================================
``ut1``     UT1 categories (``tail_ut1.csv.gz``, CC BY-SA     ``fakenews``, ``shortener``,
            4.0, "UT1 blacklists, Université Toulouse         ``gambling``, ``dating``, ``publicite``,
            Capitole"), ≤ 2,000 per category                  ``download``, ``sect``, ``astrology``:
                                                              0.05 (the value the prior gives a listed
                                                              misinformation domain); ``press``,
                                                              ``blog``: 0.3, the unknown level
``cred1``   CRED-1 (``tail_cred1.csv.gz``, CC BY 4.0,         its composite credibility score (0–1;
            "CRED-1 (Loth, Kappes, Pahl 2026)")               mostly 0.04–0.27)
==========  ================================================  ======================================

A tail row is used only when none of the *active* head sources knows its domain (so leaving a
head source out never leaks it through the tail). A domain in several tail lists takes the
lowest target: negative evidence wins.

Leakage: CRED-1 derives from OpenSources and MBFC (via Iffy.news), so :data:`DERIVED_FROM` marks
it ``mbfc``; :func:`tail_sources_without` drops every tail source derived from an evaluation's
label origin (CredAuth MBFC and Baly are MBFC-derived).

Example:
    >>> tail_sources_without(("ut1", "cred1"), origin="mbfc")
    ('ut1',)
    >>> rows = tail_rows(("ut1",), known=set())
    >>> rows["19thnews.org"]  # UT1 fakenews
    0.05
"""
from __future__ import annotations

import csv
import gzip
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from importlib import resources
from types import MappingProxyType

from authorag.errors import ConfigError, PriorUnavailable
from authorag.types import UNKNOWN_LEVEL

TAIL_SOURCES: Mapping[str, str] = MappingProxyType({"ut1": "tail_ut1.csv.gz", "cred1": "tail_cred1.csv.gz"})
"""Tail source name → vendored file under ``authorag/data``."""
DEFAULT_TAIL: tuple[str, ...] = ("ut1", "cred1")
DERIVED_FROM: Mapping[str, frozenset[str]] = MappingProxyType({
    "ut1": frozenset({"ut1"}), "cred1": frozenset({"cred1", "mbfc", "opensources"})})
"""Label origins each tail source derives from (leave-source-out drops a source on a match)."""
LOW_TARGET = 0.05
UT1_TARGETS: Mapping[str, float] = MappingProxyType({
    **{c: LOW_TARGET for c in ("fakenews", "shortener", "gambling", "dating", "publicite", "download",
                               "sect", "astrology")},
    "press": UNKNOWN_LEVEL, "blog": UNKNOWN_LEVEL})


def validate_tail(sources: Sequence[str]) -> tuple[str, ...]:
    """``sources`` as a tuple, each checked against :data:`TAIL_SOURCES`.

    Raises:
        ConfigError: an unknown tail source.
    """
    bad = [s for s in sources if s not in TAIL_SOURCES]
    if bad:
        raise ConfigError(f"unknown tail source(s) {bad}; known: {', '.join(TAIL_SOURCES)} (or none)")
    return tuple(sources)


def tail_sources_without(sources: Sequence[str], origin: str | None) -> tuple[str, ...]:
    """``sources`` minus those derived from the label ``origin`` (None: unchanged)."""
    validate_tail(sources)
    return tuple(s for s in sources if origin is None or origin not in DERIVED_FROM[s])


def _rows(file: str) -> list[dict[str, str]]:
    try:
        with resources.files("authorag.data").joinpath(file).open("rb") as raw:
            text = gzip.decompress(raw.read()).decode("utf-8")
    except OSError as exc:
        raise PriorUnavailable(f"cannot read tail data {file} ({exc}); reinstall authorag or run "
                               "scripts/vendor_tail_data.py") from exc
    return list(csv.DictReader(text.splitlines()))


@cache
def source_targets(name: str) -> Mapping[str, float]:
    """One tail source's target per registrable domain (read-only, cached)."""
    validate_tail([name])
    out: dict[str, float] = {}
    for r in _rows(TAIL_SOURCES[name]):
        value = UT1_TARGETS[r["category"]] if name == "ut1" else float(r["credibility_score"])
        out[r["domain"]] = min(value, out.get(r["domain"], 1.0))
    return MappingProxyType(out)


def tail_rows(sources: Sequence[str], known: Collection[str]) -> dict[str, float]:
    """Target per tail domain from ``sources``, skipping domains in ``known`` (the active head).

    Example:
        >>> "19thnews.org" in tail_rows(("ut1",), known={"19thnews.org"})
        False
    """
    out: dict[str, float] = {}
    for name in validate_tail(sources):
        for domain, value in source_targets(name).items():
            if domain not in known:
                out[domain] = min(value, out.get(domain, 1.0))
    return out


__all__ = ["DEFAULT_TAIL", "DERIVED_FROM", "TAIL_SOURCES", "source_targets", "tail_rows",
           "tail_sources_without", "validate_tail"]
