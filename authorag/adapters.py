"""The adapter core: what the CLI, the HTTP and MCP servers, LangChain, Haystack and LlamaIndex share.

Every surface converts its own documents to :class:`~authorag.types.Candidate` once on the way in,
calls the :class:`~authorag.rerankers.authority.AuthorityReranker`, converts once on the way out. It owns:

* the relevance vocabulary, :data:`~authorag.types.Relevance`, and how each mode becomes relevance;
* the reranker over the default composition (:func:`authorag.compose.load_scorer`), its policy from
  plain fields (:mod:`authorag.policy`) and the optional suitability (:func:`resolve_suitability`);
* the one per-candidate breakdown (:func:`breakdown`, :func:`breakdowns`).

Example:
    >>> reranker, mode = build_reranker(relevance="rank", policy={"weight": 0.8})
    >>> cands, source = candidates([("https://someblog.blogspot.com/x", "a", None),
    ...                             ("https://www.nih.gov/y", "b", None)], mode)
    >>> [breakdown(c, source)["domain"] for c in reranker.rerank("q", cands)]
    ['nih.gov', 'someblog.blogspot.com']
"""
from __future__ import annotations

import math
import numbers
import typing
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from authorag.domains import parse_host, parsed_url
from authorag.errors import ConfigError
from authorag.policy import RerankPolicy, make_policy
from authorag.priors.base import AuthorityScorer
from authorag.relevance.base import RelevanceScorer
from authorag.rerankers.authority import AuthorityReranker
from authorag.scores import (
    AUTHORITY_SIGNAL_SCORE,
    ENCODED_SCORE,
    FUSED_SCORE,
    RANK_SCORE,
    RELEVANCE_NORM_SCORE,
    RELEVANCE_SCORE,
    SUITABILITY_SCORE,
    TRUST_SCORE,
    UPSTREAM_SCORE,
)
from authorag.suitability.base import SuitabilityScorer
from authorag.trust import DEFAULT_TRUST_RULE, TrustRule, trust_fields
from authorag.types import AuthorityDetail, Candidate, Ranking, Relevance, new_candidate
from authorag.validation import check_choice, check_positive_int, listed_positions

ORDER_MODES: tuple[str, ...] = ("auto", "rank", "upstream", "similarity", "none")
"""Relevance modes read from the incoming documents (the others name a relevance scorer)."""

_SCORED_MODES = frozenset({"upstream", "similarity"})  # the modes that need a score on every document

DEFAULT_URL_KEYS: tuple[str, ...] = ("url", "source", "link", "href", "source_url")
"""Keys searched, in this order, for a document's source URL on every surface: LangChain
``metadata``, Haystack ``meta``, CLI ``rerank`` lines, the server's document objects and the
header block of its string documents (:func:`url_from_metadata`)."""

BREAKDOWN_VERSION = 1
"""Version of the :func:`breakdown` shape."""

# ---- relevance -------------------------------------------------------------------------------

def resolve_relevance(relevance: Relevance | str | RelevanceScorer | None) -> tuple[str, RelevanceScorer | None]:
    """Split a relevance choice into (mode, scorer): an order mode has no scorer.

    Raises:
        ConfigError: an unknown name (``relevance must be one of 'auto', 'rank', ..., got 'x'``).

    Example:
        >>> resolve_relevance("rank")
        ('rank', None)
        >>> resolve_relevance("bm25")[0]
        'relevance.bm25'
    """
    if relevance is None:
        return "auto", None
    if not isinstance(relevance, str):
        return relevance.name, relevance
    from authorag.relevance.registry import CASCADE_OR_BM25, RELEVANCE_REGISTRY, load_relevance

    if relevance in ORDER_MODES:
        return relevance, None
    check_choice("relevance", relevance, (*ORDER_MODES, *RELEVANCE_REGISTRY, CASCADE_OR_BM25))
    scorer = load_relevance(relevance)
    assert scorer is not None  # only "none" gives no scorer, handled above
    return scorer.name, scorer


def rank_relevance(n: int) -> list[float]:
    """Relevance from the incoming order: ``(n - i) / n`` for position ``i`` (best first).

    Example:
        >>> rank_relevance(4)
        [1.0, 0.75, 0.5, 0.25]
    """
    return [(n - i) / n for i in range(n)]


def choose_relevance(mode: str, upstream: Sequence[float | None]) -> tuple[list[float] | None, str]:
    """Per-document input relevance for an order ``mode``, and where it came from: ``(None, mode)`` for
    ``none`` and for a scorer mode (the reranker scores relevance itself, or every candidate gets 0.5).

    Raises:
        ConfigError: ``mode`` is ``"upstream"`` or ``"similarity"`` and a document has no usable score.

    Example:
        >>> choose_relevance("auto", [0.2, None])
        ([1.0, 0.5], 'rank')
    """
    if mode not in ORDER_MODES or mode == "none":
        return None, mode
    if mode == "rank":
        return rank_relevance(len(upstream)), "rank"
    if None not in upstream and upstream:
        return list(typing.cast(Sequence[float], upstream)), "similarity" if mode == "similarity" else "upstream"
    if mode in _SCORED_MODES:
        shown = listed_positions([i + 1 for i, v in enumerate(upstream) if v is None])
        raise ConfigError(f"relevance {mode!r} needs a score on every document; document(s) {shown} (counting "
                          "from 1) have none (or one that is not a finite number). Give every document a score, or "
                          "use relevance 'auto' (the incoming order when a score is missing) or 'rank'")
    return rank_relevance(len(upstream)), "rank"


def as_float(value: object) -> float | None:
    """``value`` as a finite float, or None (bools and non-numbers are not scores). Any real number
    counts, numpy's included: a FAISS store's relevance scores are ``float32``.

    Example:
        >>> import numpy as np
        >>> as_float(np.float32(0.5)), as_float(2), as_float(True), as_float(float("nan")), as_float("0.5")
        (0.5, 2.0, None, None, None)
    """
    if type(value) is float:  # the common cases first: this runs once per document
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    out = float(value)
    return out if math.isfinite(out) else None


def upstream_scores(mode: str, values: list[object]) -> list[float | None] | None:
    """The documents' own scores (:func:`as_float` of ``values``), or None when none has one (and
    the mode needs none): order modes may fuse them, every mode keeps them (``upstream_score``).

    Example:
        >>> upstream_scores("auto", [0.5, 1]), upstream_scores("dense", [0.5, None]), upstream_scores("rank", [None])
        ([0.5, 1.0], [0.5, None], None)
    """
    if mode in _SCORED_MODES or values.count(None) < len(values):  # a C-level scan (once per call)
        return [as_float(v) for v in values]
    return None


def url_from_metadata(metadata: Mapping[str, Any], keys: Sequence[str] = DEFAULT_URL_KEYS) -> str:
    """A document's source URL: the first value under ``keys`` (in order) that is a string
    with something other than white space, stripped; ``""`` when none. Missing keys, nulls,
    non-strings and blank strings are skipped, so ``{"source": " ", "url": u}`` gives ``u``. The
    one lookup of every surface (see :data:`DEFAULT_URL_KEYS`).

    Example:
        >>> url_from_metadata({"source": "Reuters", "url": " https://www.nih.gov/ "})
        'https://www.nih.gov/'
        >>> url_from_metadata({"url": None, "source": " ", "link": "https://cdc.gov/flu"})
        'https://cdc.gov/flu'
    """
    for key in keys:
        value = metadata.get(key)
        if isinstance(value, str):
            value = value.strip()
            if value:
                return value
    return ""


def candidates(items: Iterable[tuple[str, str, float | None]], mode: str) -> tuple[list[Candidate], str]:
    """Candidates (ids ``"0"``, ``"1"``, ...) for ``(url, text, upstream score)`` items, and the
    relevance source (``upstream``, ``rank``, ``none`` or a scorer's name).

    Raises:
        ConfigError: ``mode`` is ``"upstream"`` or ``"similarity"`` and an item has no score.
    """
    rows = items if isinstance(items, list) else list(items)
    return candidates_of([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], mode)


def candidates_of(urls: Sequence[str], texts: Sequence[str], upstream: Sequence[float | None] | None,
                  mode: str) -> tuple[list[Candidate], str]:
    """:func:`candidates` from columns (what the adapters pass: no tuple per document). ``upstream``
    None means no document has a score (the modes that read none need no list).

    Raises:
        ConfigError: ``mode`` is ``"upstream"`` or ``"similarity"`` and a document has no score.
    """
    n = len(urls)
    rel, source = choose_relevance(mode, (None,) * n if upstream is None else upstream)
    scores: Sequence[Mapping[str, float]] = (
        (_NO_SCORES,) * n if rel is None else _rank_scores(n) if source == "rank"
        else [MappingProxyType({RELEVANCE_SCORE: r, UPSTREAM_SCORE: r}) for r in rel])
    if upstream is not None and (rel is None or source == "rank"):  # kept, though not fused
        scores = [s if u is None else MappingProxyType({**s, UPSTREAM_SCORE: u}) for s, u in zip(scores, upstream)]
    out: list[Candidate] = []
    append, cached, parse, make, none = out.append, parsed_url, parse_host, new_candidate, _NO_SCORES
    for cid, url, text, score in zip(_IDS if n <= len(_IDS) else map(str, range(n)), urls, texts, scores):
        if url:  # runs once per document of every adapter call
            host = cached(url) or parse(url, strict=False)
            append(make(cid, url, host.host, host.domain, text, none, score, None))
        else:
            append(make(cid, url, None, None, text, none, score, None))
    return out, source


@lru_cache(maxsize=16)
def _rank_scores(n: int) -> tuple[Mapping[str, float], ...]:
    """The read-only ``{"relevance": (n - i) / n}`` maps, shared by every call with ``n`` items."""
    return tuple(MappingProxyType({RANK_SCORE: r}) for r in rank_relevance(n))


_IDS = tuple(map(str, range(1024)))  # candidate ids "0", "1", ... shared by every call
_NO_SCORES: Mapping[str, float] = MappingProxyType({})


# ---- the reranker and the breakdown ----------------------------------------------------------

def build_reranker(scorer: AuthorityScorer | None = None,
                   relevance: Relevance | str | RelevanceScorer | None = "cascade-or-bm25",
                   policy: Mapping[str, Any] | RerankPolicy | None = None,
                   suitability: bool | str | SuitabilityScorer | None = None) -> tuple[AuthorityReranker, str]:
    """An :class:`AuthorityReranker` and its relevance mode, for any surface.

    ``scorer`` None uses the default composition (:func:`authorag.compose.load_scorer` with
    the environment's settings), the same scorer every surface uses. ``suitability`` as in
    :func:`resolve_suitability`.

    Raises:
        ConfigError: an invalid relevance choice or policy field, or a malformed suitability matrix.
    """
    pol = policy if isinstance(policy, RerankPolicy) else make_policy(policy or {})
    mode, rel = resolve_relevance(relevance)
    if mode == "similarity":  # the incoming scores, declared to judge meaning
        from authorag.relevance.similarity import UpstreamSimilarity

        rel = UpstreamSimilarity()
    if scorer is None:
        from authorag.compose import load_scorer

        scorer = load_scorer()
    return AuthorityReranker(scorer, relevance=rel, policy=pol, suitability=resolve_suitability(suitability)), mode


def resolve_suitability(value: bool | str | SuitabilityScorer | None) -> SuitabilityScorer | None:
    """The surfaces' ``suitability`` setting: False/None off, True the shipped matrix, a str a
    matrix YAML path, or a ready :class:`~authorag.suitability.base.SuitabilityScorer`.

    Raises:
        ConfigError: a malformed matrix file (file, line and problem in the message).

    Example:
        >>> resolve_suitability(False) is None
        True
    """
    if value is None or value is False:
        return None
    if value is True or isinstance(value, str):
        from authorag.suitability import load_suitability

        return load_suitability(None if value is True else value)
    return value


def source_type_of(ranking: Ranking, candidate: Candidate) -> Mapping[str, Any] | None:
    """The candidate's source-type record when the ranking ran with suitability, else None."""
    suit = ranking.provenance.get("suitability")
    return None if suit is None else suit["candidates"].get(candidate.id)


_BASES: dict[int, tuple[AuthorityDetail | None, dict[str, Any]]] = {}  # id(detail) -> (detail, template)


def _base(detail: AuthorityDetail | None) -> dict[str, Any]:
    """The breakdown template of ``detail``, once per detail (scorers share one per source): ``{"version": 1,
    **detail.to_dict(), "trust", "trust_reason"}`` (trust is per candidate: :attr:`Candidate.trust`), then every
    per-candidate key in the breakdown's order with the values of a candidate without URL or scores."""
    base = {"version": BREAKDOWN_VERSION,
            **({"trust_reason": None} if detail is None else {**detail.to_dict(), "trust": None, "trust_reason": None})}
    # "trust" keeps its place when the detail gave one, else it follows "has_url"
    template = {**base, "url": None, "host": None, "domain": None, "has_url": False, "trust": base.get("trust"),
                "signal": None, "relevance": None, "relevance_source": None, "upstream_score": None,
                "relevance_norm": None, "fused": None, "relevance_note": None, "relevance_decided_by": None}
    if len(_BASES) >= 4096:
        _BASES.clear()
    _BASES[id(detail)] = (detail, template)  # the detail is kept alive, so its id is not reused
    return template


def _rows(cands: Iterable[Candidate], source: str) -> list[dict[str, Any]]:
    """The breakdowns without suitability fields; one loop, no call per candidate (hot path). Scores
    are read with ``in`` and ``[]`` (C slots of the read-only mapping), not a ``.get`` call through it."""
    out: list[dict[str, Any]] = []
    append, bases = out.append, _BASES
    for c in cands:
        detail, scores, url = c.authority, c.scores, c.url
        hit = bases.get(id(detail))
        row = (hit[1] if hit is not None and hit[0] is detail else _base(detail)).copy()
        if url:
            row["url"], row["has_url"] = url, True
        row["host"], row["domain"] = c.host, c.domain
        trust = c.trust if c.trust is not None or detail is None else DEFAULT_TRUST_RULE.of(detail)  # unranked
        if trust is not None:
            row["trust"], row["trust_reason"] = trust.value, trust.reason
        if TRUST_SCORE in scores:  # the value as fused (a plain float)
            row["trust"] = scores[TRUST_SCORE]
        if AUTHORITY_SIGNAL_SCORE in scores:
            row["signal"] = scores[AUTHORITY_SIGNAL_SCORE]
        row["relevance"] = (scores[source] if source in scores else scores[RELEVANCE_SCORE]
                            if RELEVANCE_SCORE in scores else scores.get(RANK_SCORE))
        row["relevance_source"] = source
        if UPSTREAM_SCORE in scores:
            row["upstream_score"] = scores[UPSTREAM_SCORE]
        if RELEVANCE_NORM_SCORE in scores:
            row["relevance_norm"] = scores[RELEVANCE_NORM_SCORE]
        if FUSED_SCORE in scores:
            row["fused"] = scores[FUSED_SCORE]
        row["relevance_decided_by"] = None if ENCODED_SCORE not in scores else "encoded" if scores[ENCODED_SCORE] else "lexical"
        append(row)
    return out


def source_authority(raw: str, candidate: Candidate, detail: AuthorityDetail, source_type: Mapping[str, Any],
                     rule: TrustRule = DEFAULT_TRUST_RULE) -> dict[str, Any]:
    """The authority of one URL or domain, in the one JSON shape every surface writes.

    Keys: ``input`` (as given), ``host``, ``domain``; the :meth:`~authorag.types.AuthorityDetail.to_dict`
    fields (``authority``, ``confidence``, ``tier``, ``credibility``, ``matched``, ``sources``,
    ``credibility_sources``, ``raw``, ``note``); ``trust`` and ``trust_reason`` (``rule``,
    :mod:`authorag.trust`); the source-type fields (``source_type``, ``source_type_confidence``, ...).
    ``authorag score --json`` adds ``version``, ``scorer`` and ``provenance``; the server's
    ``/v1/authority`` item and the MCP ``score_sources`` result add ``error``. :func:`breakdown`
    carries the same detail and trust fields for a ranked candidate (``url`` where this has ``input``).
    """
    return {"input": raw, "host": candidate.host, "domain": candidate.domain, **detail.to_dict(), **trust_fields(detail, rule), **source_type}


def breakdown(candidate: Candidate, relevance_source: str,
              source_type: Mapping[str, Any] | None = None, relevance_note: str | None = None) -> dict[str, Any]:
    """The per-candidate explanation written next to the fused score (one stable JSON shape).

    Keys: ``version``; the :meth:`~authorag.types.AuthorityDetail.to_dict` fields (``authority``,
    ``confidence``, ``tier``, ``credibility``, ``matched``, ``sources``, ``credibility_sources``, ``raw``,
    ``note``); ``url``, ``host``, ``domain``, ``has_url``; ``trust`` (:mod:`authorag.trust`) and
    ``trust_reason`` (the rule's branch), ``signal`` (the value fused: trust unless the policy's ``signal``
    says otherwise), ``relevance`` (the input relevance), ``relevance_source`` (``upstream``, ``rank``,
    ``none`` or the scorer's name), ``upstream_score`` (the score the document came with, kept whatever
    relevance was fused; None when it had none), ``relevance_norm`` (the relevance as fused: for the window fusion,
    relative to the best candidate; with a relevance that judges meaning, the lower of the words' window
    and the meaning on the words' scale), ``fused``, ``relevance_decided_by`` (cascade relevance: ``encoded`` or ``lexical``)
    and ``relevance_note`` (why relevance was calibrated otherwise, e.g. all equal; else None: ``provenance["relevance_note"]``,
    which :func:`breakdowns` fills in); with suitability on, ``suitability`` and the fields of
    ``source_type`` (the ranking's ``provenance["suitability"]["candidates"][id]``, see :func:`source_type_of`).

    The nested ``sources``, ``credibility_sources`` and ``raw`` dicts are shared by every result from the
    same source: read them, do not change them. The scorer, prior stores and policy are in ``Ranking.provenance``.
    """
    out = _rows((candidate,), relevance_source)[0]
    out["relevance_note"] = relevance_note
    if source_type is not None:
        out.update(source_type, suitability=candidate.scores.get(SUITABILITY_SCORE))
    return out


def breakdowns(ranking: Ranking, relevance_source: str) -> list[dict[str, Any]]:
    """:func:`breakdown` of every ranked candidate, in rank order (what the adapters write).

    Example:
        >>> cands, source = candidates([("https://www.nih.gov/y", "b", None)], "rank")
        >>> [b["tier"] for b in breakdowns(build_reranker()[0].rerank("q", cands), source)]
        ['table']
    """
    rows = _rows(ranking.candidates, ranking.provenance.get("relevance_stand_in", relevance_source))  # who scored
    note = ranking.provenance.get("relevance_note")
    if note is not None:
        for row in rows:
            row["relevance_note"] = note
    if ranking.provenance.get("suitability") is not None:
        for c, row in zip(ranking.candidates, rows):
            source_type = source_type_of(ranking, c)
            if source_type is not None:
                row.update(source_type, suitability=c.scores.get(SUITABILITY_SCORE))
    return rows


def check_top(name: str, value: int | None) -> int | None:
    """A result count: None or a positive int (``top_n must be a positive integer or None, got 0``)."""
    return check_positive_int(name, value, optional=True)


__all__ = ["BREAKDOWN_VERSION", "DEFAULT_URL_KEYS", "ORDER_MODES", "as_float", "breakdown", "breakdowns", "build_reranker",
           "candidates", "candidates_of", "check_top", "choose_relevance", "rank_relevance", "resolve_relevance",
           "resolve_suitability", "source_authority", "source_type_of", "upstream_scores", "url_from_metadata"]
