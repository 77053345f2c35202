"""Shared pieces of the framework adapters (LangChain, Haystack, HTTP server).

Adapters convert foreign documents to :class:`~authorag.types.Candidate` once on the way in,
call :class:`~authorag.rerankers.authority.AuthorityReranker`, and convert once on the way out.
This module holds what all of them need: the relevance choice, rank-based relevance, the default
authority scorer and the per-document breakdown written next to the fused score.

Relevance modes (``relevance=`` on every adapter):

* ``"auto"``: the upstream score when *every* document carries one, else rank-based relevance.
* ``"rank"``: relevance from the incoming order only (first = 1.0, last = 1/n). Retrievers
  return documents best first, so the order is a relevance signal even without scores (LangChain
  documents rarely carry one).
* ``"upstream"``: the upstream score; a document without one is an error.
* any other string: a registered relevance scorer (``"bm25"``, ``"dense"``) from
  ``authorag.rerankers.relevance.load_relevance``, scored against the query.
"""
from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any

from authorag.errors import ConfigError
from authorag.priors.base import AuthorityScorer
from authorag.rerankers.authority import RELEVANCE_SCORE, AuthorityReranker, RerankPolicy
from authorag.rerankers.base import RelevanceScorer
from authorag.rerankers.suitability import SuitabilityScorer
from authorag.types import Candidate, Ranking

log = logging.getLogger(__name__)

BUILTIN_RELEVANCE: tuple[str, ...] = ("auto", "rank", "upstream")
"""Relevance modes handled by the adapters themselves (others name a relevance scorer)."""

DEFAULT_URL_KEYS: tuple[str, ...] = ("source", "url", "link", "href", "source_url")
"""Metadata keys searched, in order, for a document's source URL."""


def default_scorer() -> AuthorityScorer:
    """The default composition (:func:`authorag.compose.load_scorer` with the environment's
    settings; cached per settings), the same scorer the CLI and the server use.

    Example:
        >>> default_scorer().name
        'reserved>hosted>prior'
    """
    from authorag.compose import load_scorer

    return load_scorer()


def load_relevance_scorer(name: str) -> RelevanceScorer:
    """A registered relevance scorer by name (``"bm25"``, ``"dense"``).

    Raises:
        ConfigError: ``name`` is neither a builtin mode nor a registered scorer.
    """
    from authorag.rerankers.relevance import load_relevance

    if name == "none":
        raise ConfigError(f"relevance 'none' is not a scorer here; use one of {', '.join(BUILTIN_RELEVANCE)}")
    scorer = load_relevance(name)  # type: ignore[arg-type]  # validated by the registry
    if scorer is None:
        raise ConfigError(f"relevance {name!r} gives no scorer; use one of {', '.join(BUILTIN_RELEVANCE)}")
    return scorer


def resolve_relevance(relevance: str | RelevanceScorer | None) -> tuple[str, RelevanceScorer | None]:
    """Split a relevance choice into (mode, scorer): a builtin mode has no scorer.

    Example:
        >>> resolve_relevance("rank")
        ('rank', None)
    """
    if relevance is None:
        return "auto", None
    if isinstance(relevance, str):
        if relevance in BUILTIN_RELEVANCE:
            return relevance, None
        scorer = load_relevance_scorer(relevance)
        return scorer.name, scorer
    return relevance.name, relevance


def rank_relevance(n: int) -> list[float]:
    """Relevance from the incoming order: ``(n - i) / n`` for position ``i`` (best first).

    Example:
        >>> rank_relevance(4)
        [1.0, 0.75, 0.5, 0.25]
    """
    return [(n - i) / n for i in range(n)]


def choose_relevance(mode: str, upstream: Sequence[float | None]) -> tuple[list[float] | None, str]:
    """Per-document input relevance for a builtin ``mode``, and where it came from.

    Returns ``(None, mode)`` for a scorer mode (the reranker scores relevance itself).

    Raises:
        ConfigError: ``mode == "upstream"`` and a document has no usable score.
    """
    if mode not in BUILTIN_RELEVANCE:
        return None, mode
    usable = [v is not None and math.isfinite(v) for v in upstream]
    if mode == "upstream" and not all(usable):
        missing = [i for i, ok in enumerate(usable) if not ok][:10]
        raise ConfigError(
            f"relevance='upstream' needs a score on every document; documents at positions {missing} "
            "have none. Use relevance='auto' (falls back to the incoming order) or 'rank'."
        )
    if mode != "rank" and upstream and all(usable):
        return [float(v) for v in upstream if v is not None], "upstream"
    return rank_relevance(len(upstream)), "rank"


def as_float(value: object) -> float | None:
    """``value`` as a finite float, or None (bools and non-numbers are not scores)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    out = float(value)
    return out if math.isfinite(out) else None


def url_from_metadata(metadata: Mapping[str, Any], keys: Sequence[str]) -> str:
    """The first non-empty string under one of ``keys`` (``""`` when none).

    Example:
        >>> url_from_metadata({"title": "t", "url": "https://nih.gov"}, ("source", "url"))
        'https://nih.gov'
    """
    for key in keys:
        value = metadata.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def make_candidate(index: int, url: str, text: str, relevance: float | None) -> Candidate:
    """A candidate with id ``str(index)`` and, when given, its input relevance score."""
    scores = {RELEVANCE_SCORE: relevance} if relevance is not None else None
    return Candidate.create(url, text, id=str(index), scores=scores)


def build_reranker(
    scorer: AuthorityScorer | None,
    relevance: RelevanceScorer | None,
    policy: Mapping[str, Any],
    suitability: SuitabilityScorer | None = None,
) -> AuthorityReranker:
    """An :class:`AuthorityReranker` over ``scorer`` (default: the shipped prior).

    Raises:
        ConfigError: an invalid policy field (``weight must be in [0, 1], got 1.5``).
    """
    return AuthorityReranker(
        default_scorer() if scorer is None else scorer,
        relevance=relevance,
        policy=make_policy(policy),
        suitability=suitability,
    )


def resolve_suitability(value: bool | str | SuitabilityScorer | None) -> SuitabilityScorer | None:
    """The adapters' ``suitability`` parameter: False/None off, True the shipped matrix, a str a
    matrix YAML path, or a ready :class:`~authorag.rerankers.suitability.SuitabilityScorer`.

    Raises:
        ConfigError: a malformed matrix file (file, line and problem in the message).
    """
    if value is None or value is False:
        return None
    if value is True or isinstance(value, str):
        from authorag.suitability import load_suitability

        return load_suitability(None if value is True else value)
    return value


def make_policy(policy: Mapping[str, Any]) -> RerankPolicy:
    """A validated :class:`RerankPolicy` from adapter fields (None keeps the default).

    Raises:
        ConfigError: an invalid field (``weight must be in [0, 1], got 1.5``).
    """
    fields = {k: v for k, v in policy.items() if v is not None}
    for key in ("allow", "deny"):
        if key in fields:
            fields[key] = tuple(fields[key])
    return RerankPolicy(**fields)


def breakdown(candidate: Candidate, relevance_source: str,
              source_type: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The per-document explanation written next to the fused score (stable JSON shape).

    Keys: the :meth:`~authorag.types.AuthorityDetail.to_dict` fields (``authority``,
    ``confidence``, ``tier``, ``credibility``, ``matched``, ``sources``, ...), plus ``url``,
    ``domain``, ``has_url``, ``signal`` (the value fused), ``relevance`` (the input relevance),
    ``relevance_source`` (``upstream``, ``rank`` or the scorer's name), ``relevance_norm`` and
    ``fused``; with suitability on, ``suitability`` and the ``source_type`` fields of
    ``source_type`` (the ranking's ``provenance["suitability"]["candidates"][id]``).
    """
    detail = candidate.authority
    out: dict[str, Any] = detail.to_dict() if detail is not None else {}
    scores = candidate.scores
    rel = scores.get(relevance_source, scores.get(RELEVANCE_SCORE))
    out.update(
        url=candidate.url or None,
        domain=candidate.domain,
        has_url=bool(candidate.url),
        signal=scores.get("authority.signal"),
        relevance=rel,
        relevance_source=relevance_source,
        relevance_norm=scores.get("relevance.norm"),
        fused=scores.get("fused"),
    )
    if source_type is not None:
        out.update(source_type, suitability=scores.get("suitability"))
    return out


def source_type_of(ranking: Ranking, candidate: Candidate) -> Mapping[str, Any] | None:
    """The candidate's source-type record when the ranking ran with suitability, else None."""
    suit = ranking.provenance.get("suitability")
    return None if suit is None else suit["candidates"].get(candidate.id)


def ordered_indices(ranking: Ranking) -> list[int]:
    """Input positions of the ranked candidates (ids are ``str(index)``), best first."""
    return [int(c.id) for c in ranking.candidates]


def check_top(name: str, value: object) -> int | None:
    """Validate a result-count parameter: None or a positive int.

    Raises:
        ConfigError: ``value`` is zero, negative or not an int (``top_n must be > 0, got 0``).
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{name} must be a positive integer or None, got {value!r}")
    return value
