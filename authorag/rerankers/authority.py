"""AuthorityReranker: fuse source authority with relevance, or filter by authority."""
from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import numpy as np

from authorag.errors import ConfigError
from authorag.priors.base import AuthorityScorer, copy_json, prior_stores_of
from authorag.relevance.base import RelevanceScorer, SemanticScorer, WarmsUp
from authorag.rerankers.domain_lists import DomainList
from authorag.rerankers.calibration import join_notes
from authorag.rerankers.fusion import fuse
from authorag.rerankers.window_text import read_window_text
from authorag.rerankers.suitability import SuitabilityScorer, blend_suitability
from authorag.scores import (
    AUTHORITY_SCORE,
    AUTHORITY_SIGNAL_SCORE,
    CREDIBILITY_SCORE,
    FUSED_SCORE,
    ON_TOPIC_SCORE,
    RANK_SCORE,
    RELEVANCE_NORM_SCORE,
    RELEVANCE_SCORE,
    TRUST_SCORE,
)
from authorag.settings import flag
from authorag.trust import trust_rule_for
from authorag.types import (
    UNKNOWN_DETAIL,
    UNKNOWN_LEVEL,
    AuthorityDetail,
    Candidate,
    FusionMode,
    Ranking,
    RerankMode,
    SourceValue,
    fill_scores,
)
from authorag.validation import check_choice, check_positive_int, check_unit

Normalize = Literal["minmax", "none"]
Signal = Literal["trust", "blend"]
"""The source value fused with relevance: ``trust`` (:mod:`authorag.trust`: known low credibility
dominates recognition) or ``blend`` (the earlier signal: recognition averaged with credibility
where known, ``credibility_weight`` sharing; kept as an option)."""

DEFAULT_WEIGHT = 0.5
"""Default share of the source signal in the fused score (for ``fusion="window"``, within the
on-topic and the off-topic group). The earlier linear default was 0.3."""

DEFAULT_ON_TOPIC = 0.55
"""Default share of the best candidate's relevance a candidate needs to be on topic."""

DEFAULT_CREDIBILITY_WEIGHT = 0.5
"""Default share of credibility in the authority signal where credibility is known.

Chosen from measurement (the ``prior`` and ``prior-cred`` rows of benchmarks/results/report.md,
made by benchmarks/results/reproduce.sh): on CredAuth-MBFC the prior's credibility beats its
authority, on CredAuth-Baly they tie, and RAGAuth-open cannot tell the settings apart (few of its
pages have a credibility entry). 0.5 uses credibility where it exists without discarding
recognition."""

DEFAULT_SUITABILITY_WEIGHT = 0.5
"""Share of suitability in the source signal when a suitability scorer is given (docs/suitability.md)."""


@dataclass(frozen=True, slots=True)
class RerankPolicy:
    """How authority and relevance are combined. Validated on construction.

    Attributes:
        mode: ``"rerank"`` fuses and sorts; ``"filter"`` keeps candidates by authority alone
            (top-k by authority, as the paper's authority filter, and/or ``min_authority``),
            then orders the kept ones by fused score.
        fusion: ``"window"`` (relevance relative to the best candidate decides who is on topic;
            the signal orders within the on-topic and the off-topic group, and no off-topic
            candidate ends above an on-topic one: :mod:`authorag.rerankers.calibration`),
            ``"prior"`` (the same calibrated relevance times the signal as a document prior:
            ``relevance^(1 - weight) · signal^weight``),
            ``"linear"`` (a weighted sum with min-max normalized relevance; two candidates
            become 1 and 0) or ``"rrf"`` (weighted reciprocal ranks).
        weight: share of the source signal in the fused score, in [0, 1].
        signal: the source value fused: ``"trust"`` (:mod:`authorag.trust`) or ``"blend"``
            (recognition averaged with credibility where known; the earlier signal).
        on_topic: for ``fusion="window"``, the share of the best candidate's relevance (in
            [0, 1]) a candidate needs to count as on topic.
        meaning_on_topic: for ``fusion="window"`` with a relevance that judges meaning (dense, or
            scores declared ``similarity``), the share of the best meaning score (in [0, 1]) a
            candidate also needs; None (default) is the square root of ``on_topic``.
        credibility_weight: for ``signal="blend"``, the share of credibility in the signal
            where credibility is known, in [0, 1]; 0 uses recognition only.
        unknown_level: the level of a source nothing is known about (the trust rule's
            unknown level; the blend's value for unknown sources), in [0, 1].
        top_k: keep at most this many (None keeps all).
        min_authority: drop candidates whose authority signal is below this (unknown ones are
            dropped too), None disables.
        rrf_k: the RRF constant.
        normalize: how relevance is scaled before linear fusion: ``"minmax"`` over the
            candidates (any scale; note that two candidates become 1 and 0), or ``"none"``
            for scores already calibrated to [0, 1] (e.g. a Cohere-style relevance_score).
        allow: domain patterns always kept, with recognition and credibility set to 1 (so trust
            1: ``*.gov``, ``who.int``).
        deny: domain patterns always dropped.
        suitability_weight: share of suitability in the source signal, in [0, 1]; used only when
            the reranker has a suitability scorer (1 = suitability alone).
    """

    mode: RerankMode = "rerank"
    fusion: FusionMode = "window"
    weight: float = DEFAULT_WEIGHT
    signal: Signal = "trust"
    on_topic: float = DEFAULT_ON_TOPIC
    meaning_on_topic: float | None = None
    credibility_weight: float = DEFAULT_CREDIBILITY_WEIGHT
    unknown_level: float = UNKNOWN_LEVEL
    top_k: int | None = None
    min_authority: float | None = None
    rrf_k: float = 60.0
    normalize: Normalize = "minmax"
    allow: tuple[str, ...] = field(default=(), metadata=flag(metavar="PATTERN"))
    deny: tuple[str, ...] = field(default=(), metadata=flag(metavar="PATTERN"))
    suitability_weight: float = DEFAULT_SUITABILITY_WEIGHT

    def __post_init__(self) -> None:
        check_choice("mode", self.mode, get_args(RerankMode))
        check_choice("fusion", self.fusion, get_args(FusionMode))
        check_choice("normalize", self.normalize, get_args(Normalize))
        check_choice("signal", self.signal, get_args(Signal))
        for name in ("weight", "credibility_weight", "unknown_level", "suitability_weight", "on_topic"):
            check_unit(name, getattr(self, name))
        check_unit("min_authority", self.min_authority, optional=True)
        check_unit("meaning_on_topic", self.meaning_on_topic, optional=True)
        check_positive_int("top_k", self.top_k, optional=True)
        if self.rrf_k <= 0:
            raise ConfigError(f"rrf_k must be > 0, got {self.rrf_k}")

    def replace(self, **changes: Any) -> RerankPolicy:
        """A copy with ``changes`` applied (None values are ignored: keep the instance default)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view, recorded in every Ranking's provenance.

        Example:
            >>> RerankPolicy(weight=0.5).to_dict()["weight"]
            0.5
        """
        # Every field is a scalar or a tuple of strings: no deep copy needed (asdict would make one).
        return {f.name: getattr(self, f.name) for f in _POLICY_FIELDS}


_POLICY_FIELDS = dataclasses.fields(RerankPolicy)


def _judges_meaning(relevance: RelevanceScorer | None) -> bool:
    """Whether ``relevance`` judges meaning (a :class:`~authorag.relevance.base.SemanticScorer`):
    the window then computes BM25 of the candidates' text as the words' evidence, which those
    scores cap. Any other relevance is mixed with coverage directly."""
    return isinstance(relevance, SemanticScorer) and relevance.semantic


class AuthorityReranker:
    """Rerank or filter candidates by source authority fused with relevance.

    Scores written on each output candidate: ``authority`` (0–1, when known),
    ``credibility`` (when known), ``authority.signal`` (the blend used in fusion, with
    ``unknown_level`` for unknown sources), the relevance scorer's own name (if one is
    configured), ``relevance.norm`` and ``fused``. Upstream relevance is read from
    ``scores["relevance"]``; without any relevance every candidate gets 0.5.

    Example:
        >>> from authorag.priors import load_prior
        >>> rr = AuthorityReranker(load_prior(), weight=0.5, normalize="none")
        >>> cands = [Candidate.create("https://someblog.blogspot.com/x", scores={"relevance": 0.9}),
        ...          Candidate.create("https://www.nih.gov/y", scores={"relevance": 0.8})]
        >>> [c.domain for c in rr.rerank("q", cands)]
        ['nih.gov', 'someblog.blogspot.com']
    """

    def __init__(
        self,
        scorer: AuthorityScorer,
        *,
        relevance: RelevanceScorer | None = None,
        policy: RerankPolicy | None = None,
        suitability: SuitabilityScorer | None = None,
        **policy_fields: Any,
    ) -> None:
        self.scorer = scorer
        self.relevance = relevance
        self.suitability = suitability
        base = RerankPolicy() if policy is None else policy
        self.policy = base.replace(**policy_fields) if policy_fields else base
        self._allow = DomainList.compile(self.policy.allow)
        self._deny = DomainList.compile(self.policy.deny)
        # Per-scorer invariants, read once: the stores' provenance opens no file per call.
        self._stores = prior_stores_of(scorer)
        self._policy_view = self.policy.to_dict()
        # Whether the window computes the words' evidence a relevance that judges meaning caps (decided once).
        self._words = _judges_meaning(relevance)

    def warm_up(self) -> None:
        """Load what the relevance scorer loads on first use (the dense model), so the first
        :meth:`rerank` does not pay for it; nothing for scorers that load nothing
        (:class:`~authorag.relevance.base.WarmsUp`). The server and the Haystack ranker call it
        when they start."""
        if isinstance(self.relevance, WarmsUp):
            self.relevance.warm_up()

    def rerank(self, query: str, candidates: Sequence[Candidate], **overrides: Any) -> Ranking:
        """Rank ``candidates`` for ``query``; ``overrides`` replace policy fields for this call.

        Raises:
            ConfigError: on an invalid override (``weight must be in [0, 1], got 1.5``).
        """
        return self._rerank(query, candidates, False, overrides)

    def rerank_owned(self, query: str, candidates: Sequence[Candidate], **overrides: Any) -> Ranking:
        """:meth:`rerank` for candidates the caller has just built and shares with no one.

        The adapters' path: each candidate's scores and authority are written into it
        (:func:`~authorag.types.fill_scores`) instead of into a copy, so a document costs one
        candidate instead of two. The ranking equals :meth:`rerank`'s; the candidates passed
        in are the ones it holds, changed.
        """
        return self._rerank(query, candidates, True, overrides)

    def _rerank(self, query: str, candidates: Sequence[Candidate], owned: bool, overrides: dict[str, Any]) -> Ranking:
        # Adapters pass their per-call caps as None when unset: no new (re-validated) policy then.
        changes = {k: v for k, v in overrides.items() if v is not None} if overrides else overrides
        policy = self.policy.replace(**changes) if changes else self.policy
        allow = self._allow if "allow" not in changes else DomainList.compile(policy.allow)
        deny = self._deny if "deny" not in changes else DomainList.compile(policy.deny)
        kept = [c for c in candidates if not deny.matches_candidate(c)] if deny else list(candidates)
        dropped = [c for c in candidates if deny.matches_candidate(c)] if deny else []
        if not kept:
            return Ranking(query, (), tuple(dropped), self._provenance(policy))
        scored, suit, note = self._score(query, kept, policy, allow, owned)
        ranking = self._order(query, scored, dropped, policy)
        if suit is None and note is None:
            return ranking
        extra = {k: v for k, v in (("suitability", suit), ("relevance_note", note)) if v is not None}
        return dataclasses.replace(ranking, provenance={**ranking.provenance, **extra})

    async def arerank(self, query: str, candidates: Sequence[Candidate], **overrides: Any) -> Ranking:
        """Async twin of :meth:`rerank` (runs in a worker thread; scorers may block on I/O)."""
        return await asyncio.to_thread(self.rerank, query, candidates, **overrides)

    async def arerank_owned(self, query: str, candidates: Sequence[Candidate], **overrides: Any) -> Ranking:
        """Async twin of :meth:`rerank_owned` (runs in a worker thread)."""
        return await asyncio.to_thread(self.rerank_owned, query, candidates, **overrides)

    def _score(self, query: str, cands: list[Candidate], policy: RerankPolicy,
               allow: DomainList, owned: bool = False
               ) -> tuple[list[Candidate], dict[str, Any] | None, str | None]:
        details = self.scorer.score(cands)
        if len(details) != len(cands):
            raise ConfigError(f"scorer {self.scorer.name!r} returned {len(details)} results for {len(cands)} candidates")
        details = [_resolve_detail(d, bool(allow) and allow.matches_candidate(c)) for c, d in zip(cands, details)]
        rule = trust_rule_for(policy.unknown_level)
        trusts = [rule.value(d) for d in details]
        signals = trusts if policy.signal == "trust" else [authority_signal(d, policy) for d in details]
        suit: dict[str, Any] | None = None
        extra: list[dict[str, float]] | None = None
        if self.suitability is not None:
            signals, extra, suit = blend_suitability(self.suitability, query, cands, signals,
                                                     policy.suitability_weight)
        rel_name = None if self.relevance is None else self.relevance.name
        if self.relevance is not None:
            rel = [float(r) for r in self.relevance.score(query, cands)]
        else:
            rel = [_input_relevance(c) for c in cands]
        window, lang_note = read_window_text(query, cands, self.relevance is None, self._words) \
            if policy.fusion in ("window", "prior") else (None, None)
        on_topic = None if window is None else window.coverage
        low = np.fromiter((rule.low_credibility(t) for t in trusts), dtype=np.bool_, count=len(trusts))
        fusion = fuse(policy.fusion, policy.normalize, policy.weight, policy.on_topic, policy.rrf_k,
                      np.asarray(rel, dtype=np.float64), np.asarray(signals, dtype=np.float64), window,
                      policy.meaning_on_topic, low)
        rel_norm, fused = fusion.relevance, fusion.fused
        # One copy per candidate with every score of this stage: this loop is the hot path of
        # the HTTP service (100 candidates per request), so no intermediate candidates.
        stage = [_stage_scores(d, t, s, rel_name, r, n, f)
                 for d, t, s, r, n, f in zip(details, trusts, signals, rel, rel_norm.tolist(), fused.tolist())]
        if on_topic is not None:
            for st, ot in zip(stage, on_topic):
                st[ON_TOPIC_SCORE] = float(ot)
        if extra is not None:  # the suitability scores go into the same copy
            stage = [{**st, **e} for st, e in zip(stage, extra)]
        if not owned:
            return ([c.with_scores(st, authority=d) for c, st, d in zip(cands, stage, details)], suit,
                    join_notes(fusion.note, lang_note))
        floats = extra is None  # _stage_scores gives plain floats; the suitability scores may not be
        scored = [fill_scores(c, st, d, floats) for c, st, d in zip(cands, stage, details)]
        return scored, suit, join_notes(fusion.note, lang_note)

    def _order(self, query: str, scored: list[Candidate], dropped: list[Candidate],
               policy: RerankPolicy) -> Ranking:
        keep = scored
        if policy.min_authority is not None:
            floor = policy.min_authority
            keep = [c for c in keep if _authority_known(c) and c.scores[AUTHORITY_SIGNAL_SCORE] >= floor]
        if policy.mode == "filter" and policy.top_k is not None:
            by_auth = sorted(keep, key=lambda c: -c.scores[AUTHORITY_SIGNAL_SCORE])
            keep = by_auth[: policy.top_k]
        if keep is scored:  # no filter ran
            removed: list[Candidate] = []
        else:
            keep_ids = {id(c) for c in keep}
            removed = [c for c in scored if id(c) not in keep_ids]
        ordered = sorted(keep, key=lambda c: -c.scores[FUSED_SCORE])
        if policy.top_k is not None:
            removed += ordered[policy.top_k:]
            ordered = ordered[: policy.top_k]
        return Ranking(query, tuple(ordered), tuple(dropped + removed), self._provenance(policy))

    def _provenance(self, policy: RerankPolicy) -> dict[str, Any]:
        """Once per ranking (never per candidate): the scorer's name, the prior stores it reads
        (file, date, SHA-256, rows, format, entries), the relevance signal and the policy."""
        return {"reranker": "authority", "scorer": self.scorer.name,
                "prior_stores": copy_json(self._stores) if self._stores else {},
                "relevance": None if self.relevance is None else self.relevance.name,
                "policy": dict(self._policy_view) if policy is self.policy else policy.to_dict()}


def _input_relevance(c: Candidate) -> float:
    """The relevance a candidate came with: its upstream score, else its incoming-order score, else 0.5."""
    scores = c.scores
    value = scores.get(RELEVANCE_SCORE)
    if value is None:
        value = scores.get(RANK_SCORE, 0.5)
    return value


def _authority_known(c: Candidate) -> bool:
    return c.authority is not None and c.authority.authority is not None


def _resolve_detail(detail: AuthorityDetail | None, allowed: bool) -> AuthorityDetail:
    d = UNKNOWN_DETAIL if detail is None else detail
    if allowed:
        # the caller vouches for the source: full recognition and credibility, so full trust
        d = dataclasses.replace(d, authority=1.0, confidence=1.0, credibility=1.0,
                                credibility_sources=(SourceValue("allow_list", 1.0, "allow-listed"),),
                                note="allow-listed" if d.note is None else f"{d.note}; allow-listed")
    return d


def _stage_scores(d: AuthorityDetail, trust: float, signal: float, rel_name: str | None, rel: float,
                  norm: float, fused: float) -> dict[str, float]:
    # Every value a plain float (a scorer may give an int): stored as Candidate.with_scores stores it.
    scores: dict[str, float] = {}
    if d.authority is not None:
        scores[AUTHORITY_SCORE] = d.authority if type(d.authority) is float else float(d.authority)
    if d.credibility is not None:
        scores[CREDIBILITY_SCORE] = d.credibility if type(d.credibility) is float else float(d.credibility)
    scores[TRUST_SCORE] = trust if type(trust) is float else float(trust)
    scores[AUTHORITY_SIGNAL_SCORE] = signal if type(signal) is float else float(signal)
    if rel_name is not None:
        scores[rel_name] = rel
    scores[RELEVANCE_NORM_SCORE] = norm
    scores[FUSED_SCORE] = fused
    return scores


def authority_signal(detail: AuthorityDetail, policy: RerankPolicy) -> float:
    """The value fused with relevance: authority blended with credibility where known."""
    base = policy.unknown_level if detail.authority is None else detail.authority
    if detail.credibility is None or policy.credibility_weight == 0.0:
        return base
    return (1.0 - policy.credibility_weight) * base + policy.credibility_weight * detail.credibility
