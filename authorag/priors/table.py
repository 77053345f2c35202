"""PriorTable: the multi-source domain prior (tiers ``table`` and ``rule``) with rule fallback, leave-source-out."""
from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from authorag.bounded import BoundedDict
from authorag.domains import host_keys, parse_host
from authorag.errors import ConfigError
from authorag.priors.lookalike import (
    IMPERSONATION,
    LOOKALIKE_CREDIBILITY,
    LookalikeIndex,
    default_index,
    index_from_rows,
)
from authorag.priors.registry import refusal, registry_credibility
from authorag.priors.rules import DEFAULT_RULES, SuffixRule, match_rule
from authorag.priors.sources import SOURCES, Axis, SourceSpec, load_source, source_spec
from authorag.priors.store.mapped import PriorStore
from authorag.types import UNKNOWN_DETAIL, AuthorityDetail, Candidate, SourceValue

log = logging.getLogger(__name__)

RULE_CREDIBILITY_CONFIDENCE = 0.5
RULE_CREDIBILITY = "suffix_rule"
"""Name of the credibility value a suffix rule gives (``.gov``, ``.int``, ``nhs.uk``...)."""


LOOKUP_CACHE_ENTRIES = 50_000
"""Hosts whose lookup a :class:`PriorTable` keeps (about 20 MB); when full the oldest leave first."""


def invalid_url_detail(error: str | None) -> AuthorityDetail:
    """The explicit unknown result for an input with no readable domain."""
    return AuthorityDetail(None, 0.0, "unknown", note=f"invalid URL: {error}")


@dataclass(frozen=True, slots=True)
class ExtraSource:
    """A user-supplied prior source (e.g. a PageRank prior built with ``authorag priors build``).

    Attributes:
        name: source name shown in breakdowns; must not clash with a shipped source.
        values: table key (host or registrable domain) → value on 0–1.
        axis: ``authority`` or ``credibility``.
        confidence: weight when combined with other sources, in [0, 1].
    """

    name: str
    values: Mapping[str, SourceValue]
    axis: Axis = "authority"
    confidence: float = 0.7

    def __post_init__(self) -> None:
        if self.name in SOURCES:
            raise ConfigError(f"extra source name {self.name!r} clashes with a shipped source; pick another name")
        if not 0.0 <= self.confidence <= 1.0:
            raise ConfigError(f"extra source {self.name!r}: confidence must be in [0, 1], got {self.confidence}")
        if self.axis not in ("authority", "credibility"):
            raise ConfigError(f"extra source {self.name!r}: axis must be 'authority' or 'credibility', got {self.axis!r}")

    @classmethod
    def from_pagerank_file(cls, path: str, name: str = "pagerank", confidence: float = 0.7) -> ExtraSource:
        """Load a prior file written by ``authorag priors build``."""
        from authorag.priors.pagerank import load_pagerank_prior

        return cls(name, load_pagerank_prior(path, name), "authority", confidence)

    @classmethod
    def from_store(cls, path: str | Path, name: str | None = None, confidence: float | None = None) -> ExtraSource:
        """Open a prior store (``authorag priors import``) as a source, memory-mapped.

        The store's own name, axis and confidence apply unless ``name`` or ``confidence`` is given.

        Example:
            >>> table = load_prior(extra=[ExtraSource.from_store("tranco.store", "tranco")])  # doctest: +SKIP
        """
        store = PriorStore(path, name=name)
        conf = store.confidence if confidence is None else confidence
        axis: Axis = "credibility" if store.axis == "credibility" else "authority"
        return cls(store.name, store, axis, conf)


_OWN_INDEXES: dict[tuple[tuple[str, ...], tuple[SuffixRule, ...]], LookalikeIndex] = {}
"""Indexes built for leave-source-out tables, by their sources and rules (a few per process)."""


def _own_index(table: PriorTable) -> LookalikeIndex:
    """The look-alike index over what ``table`` itself trusts (its shipped sources only)."""
    from authorag.priors.targets import listed_domains, target_rows

    key = (tuple(s.name for s in table.specs), table.rules)
    if key not in _OWN_INDEXES:
        bare = PriorTable(table.specs, table.rules, (), lookalikes=None)
        _OWN_INDEXES[key] = index_from_rows((d, s, k) for d, s, _, k in target_rows(bare, listed_domains()))
    return _OWN_INDEXES[key]


def _combine(values: Sequence[SourceValue], weights: Mapping[str, float]) -> tuple[float | None, float]:
    """Confidence-weighted mean of source values, and the combined confidence 1 − Π(1 − c)."""
    if not values:
        return None, 0.0
    conf = [weights.get(v.name, 0.5) for v in values]
    total = sum(conf)
    value = (sum(v.value * c for v, c in zip(values, conf)) / total if total > 0
             else sum(v.value for v in values) / len(values))
    miss = 1.0
    for c in conf:
        miss *= 1.0 - c
    return value, 1.0 - miss


class PriorTable:
    """Domain authority and credibility from shipped sources, as an ``AuthorityScorer``.

    Lookup walks the host from most to least specific (``en.wikipedia.org`` then
    ``wikipedia.org``); each source contributes its most specific match. Authority sources
    and credibility sources are combined separately (two axes). With no table entry, a suffix
    rule may apply (tier ``rule``); otherwise the result is explicitly unknown.

    Example:
        >>> prior = load_prior()
        >>> prior.lookup("https://www.nih.gov/news").tier
        'table'
        >>> prior.lookup("someone.blogspot.com").authority is None
        True
        >>> "majestic" in load_prior(exclude=["majestic"]).source_names
        False
    """

    name = "prior"

    def __init__(self, sources: Iterable[SourceSpec], rules: Iterable[SuffixRule] = DEFAULT_RULES,
                 extra: Iterable[ExtraSource] = (), lookalikes: LookalikeIndex | None | Literal["default"] = "default",
                 ) -> None:
        self.specs: tuple[SourceSpec, ...] = tuple(sources)
        self._lookalikes: LookalikeIndex | None | Literal["default"] = lookalikes
        self._custom_index = not isinstance(lookalikes, str)
        self.rules: tuple[SuffixRule, ...] = tuple(rules)
        self.extra: tuple[ExtraSource, ...] = tuple(extra)
        self._tables: dict[str, Mapping[str, SourceValue]] = {s.name: load_source(s.name) for s in self.specs}
        self._tables.update({e.name: e.values for e in self.extra})
        self._weight = ({s.name: s.confidence for s in self.specs} | {e.name: e.confidence for e in self.extra}
                        | {RULE_CREDIBILITY: RULE_CREDIBILITY_CONFIDENCE})
        self._axis: dict[str, Axis] = {s.name: s.axis for s in self.specs}
        self._axis.update({e.name: e.axis for e in self.extra})
        self._cache: BoundedDict[tuple[str | None, str | None], AuthorityDetail] = BoundedDict(LOOKUP_CACHE_ENTRIES)
        self._len: int | None = None

    @property
    def lookalikes(self) -> LookalikeIndex | None:
        """The look-alike index hosts no table knows are checked against (built on first use).

        With every default source, the shipped one; with a source left out, one built from the
        sources this table keeps (:mod:`authorag.priors.targets`), so the excluded source's
        labels do not reach the check through the target list.
        """
        if isinstance(self._lookalikes, str):
            kept = set(self._tables)
            default = all(s.name in kept for s in SOURCES.values() if not s.optin)
            self._lookalikes = default_index() if default else _own_index(self)
        return self._lookalikes

    @property
    def source_axes(self) -> Mapping[str, Axis]:
        """Source name → its axis (``authority`` or ``credibility``), shipped then extra."""
        return MappingProxyType(self._axis)

    @property
    def source_tables(self) -> Mapping[str, Mapping[str, SourceValue]]:
        """Source name → its table (key → value), shipped then extra (read-only view)."""
        return MappingProxyType(self._tables)

    @property
    def source_names(self) -> tuple[str, ...]:
        """Names of the active sources (shipped, then extra)."""
        return tuple(self._tables)

    def without(self, *names: str) -> PriorTable:
        """A new table with ``names`` excluded (leave-source-out)."""
        extra_names = {e.name for e in self.extra}
        for n in names:
            if n not in extra_names:
                source_spec(n)
        own = self._lookalikes if self._custom_index else "default"
        return PriorTable([s for s in self.specs if s.name not in names], self.rules,
                          [e for e in self.extra if e.name not in names], own)

    @property
    def prior_stores(self) -> dict[str, dict[str, Any]]:
        """Source name → provenance of each extra source that is a prior store
        (``authorag priors import``): its header provenance plus ``entries``."""
        return {e.name: {**e.values.provenance, "entries": len(e.values)}
                for e in self.extra if isinstance(e.values, PriorStore)}

    def __len__(self) -> int:
        """Number of distinct keys any active source knows."""
        if self._len is None:
            self._len = len(self.keys())
        return self._len

    def __bool__(self) -> bool:
        return True  # a table without sources still answers (rules, explicit unknowns)

    def keys(self) -> set[str]:
        """Every key any active source knows."""
        return {k for t in self._tables.values() for k in t}

    def lookup(self, url: str) -> AuthorityDetail:
        """Authority detail for a URL or host; unreadable input gives an unknown result with a note."""
        parsed = parse_host(url, strict=False)
        if parsed.kind == "invalid":
            return invalid_url_detail(parsed.error)
        return self.lookup_host(parsed.host, parsed.domain)

    def lookup_host(self, host: str | None, domain: str | None) -> AuthorityDetail:
        """Authority detail for a normalized host and its registrable domain (cached)."""
        key = (host, domain)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._lookup(host, domain)
            self._cache.put(key, hit)
        return hit

    def _lookup(self, host: str | None, domain: str | None) -> AuthorityDetail:
        keys = list(host_keys(host, domain))
        found: list[SourceValue] = []
        matched: str | None = None
        for table in self._tables.values():
            for k in keys:
                sv = table.get(k)
                if sv is not None:
                    found.append(sv)
                    matched = k if matched is None or len(k) > len(matched) else matched
                    break
        if not found and host is not None and host == domain:
            found, matched = self._www_fallback(host)  # nhs.uk is www.nhs.uk; www.notaires.fr is notaires.fr
        rule = match_rule(host, self.rules)
        refused = None if rule is None else refusal(rule, host, domain)
        if refused is not None:
            rule = None
        auth_sv = tuple(v for v in found if self._axis[v.name] == "authority")
        cred_sv = tuple(v for v in found if self._axis[v.name] == "credibility")
        rule_cred = None if rule is None else registry_credibility(rule, domain)
        if rule is not None and rule_cred is not None:
            cred_sv += (SourceValue(RULE_CREDIBILITY, rule_cred, f".{rule.suffix}"),)
        authority, a_conf = _combine(auth_sv, self._weight)
        credibility, _ = _combine(cred_sv, self._weight)
        if authority is not None:
            return AuthorityDetail(authority, a_conf, "table", auth_sv, credibility, cred_sv, matched)
        if credibility is None:
            suspect = self._suspect(host, domain, refused)
            if suspect is not None:
                return suspect
        if rule is not None:
            sv = SourceValue("rule", rule.authority, f".{rule.suffix}")
            note = f"suffix rule .{rule.suffix} ({rule.label})" if rule.label else f"suffix rule .{rule.suffix}"
            return AuthorityDetail(rule.authority, rule.confidence, "rule", (sv,), credibility, cred_sv,
                                   matched, note)
        if credibility is not None:
            return AuthorityDetail(None, 0.0, "table", (), credibility, cred_sv, matched,
                                   "credibility known, recognition unknown")
        return UNKNOWN_DETAIL if refused is None else AuthorityDetail(None, 0.0, "unknown", note=refused)

    def _suspect(self, host: str | None, domain: str | None, refused: str | None) -> AuthorityDetail | None:
        """The detail of a look-alike host, or of an internationalized name under a closed suffix
        (below the unknown level, the reason in the note); None for an ordinary unknown host."""
        found = None if self.lookalikes is None else self.lookalikes.check(host, domain)
        if found is None and (refused is None or "xn--" not in (host or "")):
            return None
        why = found.reason if found is not None else refused
        cred = (SourceValue(IMPERSONATION, LOOKALIKE_CREDIBILITY, found.imitates if found and found.imitates else why),)
        note = "; ".join(n for n in (why, refused if found is not None else None) if n)
        return AuthorityDetail(None, 0.0, "unknown", (), LOOKALIKE_CREDIBILITY, cred,
                               found.imitates if found is not None else None, note)

    def host_credibility(self, host: str | None, domain: str | None) -> tuple[SourceValue, ...]:
        """Credibility values listed for ``host`` itself or a parent below ``domain`` (never for
        ``domain``): what a source says about one site on a hosting platform
        (``someone.wordpress.com``), for the ``hosted`` tier, which never reads the platform's.

        Example:
            >>> [s.name for s in load_prior().host_credibility("70news.wordpress.com", "wordpress.com")]
            ['cred1', 'decodex']
        """
        out: list[SourceValue] = []
        for name, table in self._tables.items():
            if self._axis[name] != "credibility":
                continue
            for k in host_keys(host, domain):
                if k == domain:
                    break
                sv = table.get(k)
                if sv is not None:
                    out.append(sv)
                    break
        return tuple(out)

    def _www_fallback(self, host: str) -> tuple[list[SourceValue], str | None]:
        """The entries of the same site under its other name, when a public suffix is itself a site:
        a source lists ``www.nhs.uk`` (the registrable domain under the suffix ``nhs.uk``) or the
        bare suffix ``notaires.fr``, whose site is the registrable domain ``www.notaires.fr``."""
        other = host[4:] if host.startswith("www.") else "www." + host
        found = [sv for t in self._tables.values() if (sv := t.get(other)) is not None]
        return found, other if found else None

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """One detail per candidate (``AuthorityScorer`` protocol)."""
        return [self.lookup_host(c.host, c.domain) if c.domain else self.lookup(c.url) for c in candidates]

    def lookup_many(self, urls: Sequence[str]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Vectorized view for batches: (authority with NaN for unknown, confidence) arrays."""
        details = [self.lookup(u) for u in urls]
        auth = np.array([np.nan if d.authority is None else d.authority for d in details], dtype=np.float64)
        conf = np.array([d.confidence for d in details], dtype=np.float64)
        return auth, conf


def load_prior(
    exclude: Iterable[str] = (),
    optin: Iterable[str] = (),
    rules: Iterable[SuffixRule] = DEFAULT_RULES,
    extra: Iterable[ExtraSource] = (),
) -> PriorTable:
    """Load the shipped prior table.

    Args:
        exclude: source names to leave out (leave-source-out evaluation).
        optin: opt-in sources to add (``averitec_misinfo``, ``grinberg2019``; check their licences).
        rules: suffix rules for domains the table does not know; ``()`` disables them.
        extra: your own sources, e.g. ``ExtraSource.from_pagerank_file("prior.csv.gz")``.

    Raises:
        ConfigError: an unknown source name, or a name both excluded and opted in.

    Example:
        >>> load_prior(exclude=["majestic"]).source_names
        ('ccnews_pagerank', 'moz', 'wikipedia_perennial', 'cred1', 'ut1_fakenews', 'universities', 'government', 'municipalities', 'wikiproject', 'decodex', 'legitphish', 'predatory', 'hijacked', 'reference')
    """
    excluded = set(exclude)
    wanted = set(optin)
    for n in excluded | wanted:
        source_spec(n)
    if excluded & wanted:
        raise ConfigError(f"sources {sorted(excluded & wanted)} are both excluded and opted in; pick one")
    not_optin = [n for n in wanted if not SOURCES[n].optin]
    if not_optin:
        log.debug("sources %s are on by default; optin has no effect for them", not_optin)
    specs = [s for s in SOURCES.values() if s.name not in excluded and (not s.optin or s.name in wanted)]
    return PriorTable(specs, rules, extra)
