"""The core types that flow through every stage: :class:`Candidate` and :class:`Ranking`.

Stages never mutate a candidate they were given: they return a new one with their own named
score added (:meth:`Candidate.with_score`). The one exception is :func:`fill_scores`, for a
candidate its caller has just built and shares with no one (the adapters'
:meth:`~authorag.rerankers.authority.AuthorityReranker.rerank_owned`), which writes the same
scores into it in place. A score name is written once; writing it again raises.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.validation import check_positive_int

Tier = Literal["reserved", "hosted", "table", "rule", "learned", "judge", "page", "unknown"]
"""Which authority tier produced a value: a reserved/special name (RFC 2606/6761, IPs,
localhost), user content on a hosting platform, prior table, suffix rule, learned prior, LLM
judge, the page's own evidence (``page``: a credibility estimate from the URL and text of a page
no other tier knew, :mod:`authorag.evidence`), or none (unknown)."""

FusionMode = Literal["window", "prior", "linear", "rrf"]
RerankMode = Literal["rerank", "filter"]
Relevance = Literal["auto", "rank", "upstream", "similarity", "none", "bm25", "dense", "cascade", "cascade-or-bm25"]
"""Where the relevance fused with authority comes from; one vocabulary for the CLI, the server,
LangChain, Haystack and LlamaIndex (:mod:`authorag.adapters`). ``auto``: the caller's scores when
every candidate has one, else the incoming order; ``rank``: the incoming order (first 1.0, last
1/n); ``upstream``: the caller's scores (each candidate needs one); ``similarity``: the caller's
scores, declared to judge meaning (a vector retriever's similarity, a cross-encoder's score), so
they cap the relevance window as dense relevance does
(:class:`~authorag.relevance.similarity.UpstreamSimilarity`); ``none``: no relevance (authority
alone orders); ``bm25``, ``dense``, ``cascade``: a scorer over the candidates' text
(:func:`authorag.relevance.load_relevance`); ``cascade-or-bm25``: ``cascade`` when the ``embeddings``
extra is installed, else ``bm25`` (the default of every surface,
:func:`authorag.relevance.registry.cascade_or_bm25`)."""

SkipCode = Literal["deadline", "circuit_open", "pool_busy", "recent_failure"]
"""Why a judge that was due gave no value (:mod:`authorag.judges.deadline`): the request's judge
deadline passed, the endpoint's circuit is open, every judge worker is busy, or the judge failed
on this domain moments ago."""

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[str, Any]:
    return _EMPTY


@dataclass(frozen=True, slots=True)
class SourceValue:
    """One source's contribution to an authority or credibility value.

    Attributes:
        name: source name (``"ccnews_pagerank"``, ``"majestic"``, ``"rule"``, ``"judge.point"``...).
        value: the source's value normalized to 0–1.
        raw: the source's own value before normalization (a count, a status, a 0–9 score).
    """

    name: str
    value: float
    raw: float | str | None = None


@dataclass(frozen=True, slots=True)
class AuthorityDetail:
    """Authority of one candidate's source, with where it came from.

    Attributes:
        authority: recognition/prestige on 0–1 (link and popularity signals), None when unknown.
        confidence: 0–1; how much the value can be trusted (0 for unknown).
        tier: which tier produced ``authority``.
        sources: per-source authority values that were combined.
        credibility: reporting reliability on 0–1 where known (a separate axis), else None.
        credibility_sources: per-source credibility values.
        matched: the key that matched in the producing table (host or registrable domain).
        note: free text (e.g. why a judge was skipped, in words).
        skipped: why a judge that was due gave no value (a :data:`SkipCode`), else None.
        page_trust: the page-evidence tier's value (:mod:`authorag.evidence`), already on the trust
            scale, which the trust rule takes as the trust value; None when that tier did not speak.
    """

    authority: float | None
    confidence: float
    tier: Tier
    sources: tuple[SourceValue, ...] = ()
    credibility: float | None = None
    credibility_sources: tuple[SourceValue, ...] = ()
    matched: str | None = None
    note: str | None = None
    skipped: SkipCode | None = None
    page_trust: float | None = None

    @property
    def known(self) -> bool:
        """True when an authority value is present."""
        return self.authority is not None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (stable shape used by the CLI and the server)."""
        return {
            "authority": self.authority,
            "confidence": self.confidence,
            "tier": self.tier,
            "credibility": self.credibility,
            "matched": self.matched,
            "sources": {s.name: s.value for s in self.sources},
            "credibility_sources": {s.name: s.value for s in self.credibility_sources},
            "raw": {s.name: s.raw for s in (*self.sources, *self.credibility_sources)},
            "note": self.note,
        }


UNKNOWN_LEVEL = 0.3
"""The authority value that stands for "no tier knows this source": the reranker's default
``unknown_level``, the level the learned prior is calibrated around, the level the hybrid
scorer shrinks uncertain judges towards. Below the median of known domains."""

UNKNOWN_DETAIL = AuthorityDetail(authority=None, confidence=0.0, tier="unknown")
"""The :class:`AuthorityDetail` of a source no tier knows (no value, confidence 0, tier
``unknown``); the reranker fuses :data:`UNKNOWN_LEVEL` for it."""


@dataclass(frozen=True, slots=True)
class TrustValue:
    """A trust value with the branch of the rule that produced it (:mod:`authorag.trust`).

    Attributes:
        value: trust on 0–1 (the unknown level means no evidence either way).
        reason: one of :data:`authorag.trust.TRUST_REASONS`.
    """

    value: float
    reason: str


@dataclass(frozen=True, slots=True)
class Candidate:
    """A retrieved item whose source authority is to be judged.

    Build with :func:`Candidate.create` (which normalizes the URL) or directly when the
    domain is already known.

    Example:
        >>> c = Candidate.create("https://www.NIH.gov/health", text="...", id="d1")
        >>> c.domain, c.host
        ('nih.gov', 'www.nih.gov')
        >>> c.with_score("relevance.bm25", 3.2).scores["relevance.bm25"]
        3.2
    """

    id: str
    url: str
    host: str | None
    domain: str | None
    text: str = ""
    metadata: Mapping[str, Any] = field(default_factory=_empty)
    scores: Mapping[str, float] = field(default_factory=_empty)
    authority: AuthorityDetail | None = None
    trust: TrustValue | None = None
    """The trust value the reranker fused for this candidate and its reason, computed once per
    request (:mod:`authorag.trust`); None before reranking."""

    @classmethod
    def create(
        cls,
        url: str,
        text: str = "",
        *,
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        scores: Mapping[str, float] | None = None,
        strict: bool = False,
    ) -> Candidate:
        """Create a candidate from a URL or bare host.

        Args:
            url: page URL or host; may be empty when the source is unknown.
            text: page text or snippet.
            id: identifier; defaults to the URL.
            metadata: caller data carried through untouched.
            scores: initial scores (e.g. ``{"relevance": 0.8}`` from upstream).
            strict: raise :class:`~authorag.errors.InvalidURLError` on an unreadable URL
                instead of leaving ``domain`` None.
        """
        parsed = parse_host(url, strict=strict) if url else None
        return cls(  # positional: this runs once per document of every request
            url if id is None else id,
            url,
            parsed.host if parsed else None,
            parsed.domain if parsed else None,
            text,
            MappingProxyType(dict(metadata)) if metadata else _EMPTY,
            MappingProxyType(dict(scores)) if scores else _EMPTY,
        )

    def with_score(self, name: str, value: float) -> Candidate:
        """Return a copy with score ``name`` added; raises if that score is already set."""
        return self.with_scores({name: value})

    def with_scores(self, values: Mapping[str, float], authority: AuthorityDetail | None = None,
                    trust: TrustValue | None = None) -> Candidate:
        """Return a copy with several new scores added (and ``authority`` and ``trust`` set, if given).

        Raises:
            ConfigError: a score name is already set; every stage writes its own names once.
        """
        return new_candidate(self.id, self.url, self.host, self.domain, self.text, self.metadata,
                             _merged_scores(self, values, False), self.authority if authority is None else authority,
                             self.trust if trust is None else trust)

    def with_authority(self, detail: AuthorityDetail) -> Candidate:
        """Return a copy carrying ``detail`` (replacing no scores)."""
        return dataclasses.replace(self, authority=detail)


@dataclass(frozen=True, slots=True)
class Ranking:
    """An ordered result of a reranking stage.

    Attributes:
        query: the query the candidates were ranked for.
        candidates: candidates in rank order (best first).
        dropped: candidates removed by a filter or deny list, in input order.
        provenance: how the ranking was made, once per ranking: ``scorer`` (the composition's
            name), ``prior_stores`` (source name → an imported store's provenance: file, date,
            SHA-256, rows, entries), ``relevance``, ``policy``; ``relevance_note`` when the
            relevance could not be calibrated the usual way (all equal, one candidate, NaN...).
    """

    query: str
    candidates: tuple[Candidate, ...]
    dropped: tuple[Candidate, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=_empty)

    def top_k(self, k: int) -> tuple[Candidate, ...]:
        """The first ``k`` candidates; ``k`` must be positive."""
        check_positive_int("k", k)
        return self.candidates[:k]

    def __len__(self) -> int:
        return len(self.candidates)

    def __iter__(self) -> Iterator[Candidate]:
        return iter(self.candidates)

    @property
    def ids(self) -> list[str]:
        """Candidate ids in rank order."""
        return [c.id for c in self.candidates]


_SLOT_SETTERS = tuple(Candidate.__dict__[f.name].__set__ for f in dataclasses.fields(Candidate))


def new_candidate(id: str, url: str, host: str | None, domain: str | None, text: str,
                  metadata: Mapping[str, Any], scores: Mapping[str, float],
                  authority: AuthorityDetail | None, trust: TrustValue | None = None) -> Candidate:
    """A :class:`Candidate` from every field, positionally, at half the cost of ``Candidate(...)``.

    For the per-candidate hot paths (each reranking stage, each adapter call): a frozen
    dataclass's ``__init__`` goes through ``object.__setattr__`` once per field; the slots' own
    setters do the same writes in about half the time (scripts/bench_foundation.py). The result is the
    same frozen candidate; ``metadata`` and ``scores`` must already be read-only mappings.

    Example:
        >>> c = new_candidate("1", "https://nih.gov/x", "nih.gov", "nih.gov", "", _EMPTY, _EMPTY, None)
        >>> c == Candidate("1", "https://nih.gov/x", "nih.gov", "nih.gov")
        True
    """
    c = object.__new__(Candidate)
    s_id, s_url, s_host, s_domain, s_text, s_meta, s_scores, s_auth, s_trust = _SLOT_SETTERS
    s_id(c, id)
    s_url(c, url)
    s_host(c, host)
    s_domain(c, domain)
    s_text(c, text)
    s_meta(c, metadata)
    s_scores(c, scores)
    s_auth(c, authority)
    s_trust(c, trust)
    return c


_SET_SCORES, _SET_AUTHORITY, _SET_TRUST = _SLOT_SETTERS[6], _SLOT_SETTERS[7], _SLOT_SETTERS[8]


def _merged_scores(candidate: Candidate, values: Mapping[str, float], floats: bool) -> Mapping[str, float]:
    """``candidate``'s scores plus ``values`` (read-only), for :meth:`Candidate.with_scores` and
    :func:`fill_scores`; ``floats``: the values are known plain floats (no conversion pass).

    Raises:
        ConfigError: a name in ``values`` is already set.
    """
    scores = candidate.scores
    # mappingproxy.copy() copies the dict behind it at C speed; {**proxy} goes key by key.
    merged = scores.copy() if isinstance(scores, (MappingProxyType, dict)) else dict(scores)
    merged.update(values)
    if len(merged) != len(scores) + len(values):  # a name in both (cheaper than a disjointness test first)
        clash = next(n for n in values if n in scores)
        raise ConfigError(
            f"score {clash!r} is already set on candidate {candidate.id!r}; every stage writes its "
            "own score name once. Use a different name for a second stage of the same kind."
        )
    if not floats:
        for n, v in values.items():
            if type(v) is not float:  # ints, numpy scalars: stored as plain floats
                merged[n] = float(v)
    return MappingProxyType(merged)


def fill_scores(candidate: Candidate, values: Mapping[str, float], authority: AuthorityDetail,
                floats: bool = False, trust: TrustValue | None = None) -> Candidate:
    """:meth:`Candidate.with_scores` written into ``candidate`` itself; returns it.

    Only for a candidate its caller has just built and shares with no one (the adapters build
    one per document and call :meth:`~authorag.rerankers.authority.AuthorityReranker.rerank_owned`):
    it then exists once instead of twice per document. The scores and authority are the ones
    :meth:`~Candidate.with_scores` gives the copy, with the same error on a name set twice.
    ``floats``: every value is already a plain float (the reranker's own stage scores), so the
    pass that converts ints and numpy scalars is skipped. ``trust``: the trust value fused, set
    when given (:attr:`Candidate.trust`).

    Example:
        >>> c = new_candidate("1", "https://nih.gov/x", "nih.gov", "nih.gov", "", _EMPTY, _EMPTY, None)
        >>> fill_scores(c, {"fused": 1}, UNKNOWN_DETAIL) is c, c.scores["fused"]
        (True, 1.0)
    """
    _SET_SCORES(candidate, _merged_scores(candidate, values, floats))
    _SET_AUTHORITY(candidate, authority)
    if trust is not None:
        _SET_TRUST(candidate, trust)
    return candidate


def candidates_from(urls: Iterable[str]) -> list[Candidate]:
    """Candidates for bare URLs/hosts, ids ``"0"``, ``"1"``, ... in input order."""
    return [Candidate.create(u, id=str(i)) for i, u in enumerate(urls)]
