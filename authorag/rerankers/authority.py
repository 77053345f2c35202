"""AuthorityReranker: fuse source authority with relevance, or filter by authority."""
from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from authorag.errors import ConfigError
from authorag.policy import RerankPolicy
from authorag.priors.base import AuthorityScorer, copy_json, prior_stores_of
from authorag.relevance.base import EncodesSome, ReadsLanguages, RelevanceScorer, SemanticScorer, WarmsUp
from authorag.relevance.words import WordsReading
from authorag.rerankers.calibration import join_notes
from authorag.rerankers.domain_lists import DomainList
from authorag.rerankers.fusion import fuse
from authorag.rerankers.restated import read_without_restated, restated_note
from authorag.rerankers.suitability import blend_suitability
from authorag.rerankers.window_text import read_window_text
from authorag.scores import (
    AUTHORITY_SCORE,
    AUTHORITY_SIGNAL_SCORE,
    CREDIBILITY_SCORE,
    ENCODED_SCORE,
    FUSED_SCORE,
    ON_TOPIC_SCORE,
    RANK_SCORE,
    RELEVANCE_NORM_SCORE,
    RELEVANCE_SCORE,
    TRUST_SCORE,
)
from authorag.suitability.base import SuitabilityScorer
from authorag.trust import trust_rule_for
from authorag.types import (
    UNKNOWN_DETAIL,
    AuthorityDetail,
    Candidate,
    Ranking,
    SourceValue,
    fill_scores,
)


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
        chosen = self._relevance_for(query, kept)
        scored, suit, note = self._score(query, kept, policy, allow, owned, chosen)
        ranking = self._order(query, scored, dropped, policy)
        # the score name of the relevance that stood in for the configured one (the breakdowns read it)
        stand_in = chosen[0].name if chosen[0] is not None and chosen[0] is not self.relevance else None
        if suit is None and note is None and stand_in is None:
            return ranking
        extra = {k: v for k, v in (("suitability", suit), ("relevance_note", note), ("relevance_stand_in", stand_in))
                 if v is not None}
        return dataclasses.replace(ranking, provenance={**ranking.provenance, **extra})

    async def arerank(self, query: str, candidates: Sequence[Candidate], **overrides: Any) -> Ranking:
        """Async twin of :meth:`rerank` (runs in a worker thread; scorers may block on I/O)."""
        return await asyncio.to_thread(self.rerank, query, candidates, **overrides)

    async def arerank_owned(self, query: str, candidates: Sequence[Candidate], **overrides: Any) -> Ranking:
        """Async twin of :meth:`rerank_owned` (runs in a worker thread)."""
        return await asyncio.to_thread(self.rerank_owned, query, candidates, **overrides)

    def _score(self, query: str, cands: list[Candidate], policy: RerankPolicy, allow: DomainList, owned: bool,
               chosen: tuple[RelevanceScorer | None, bool, str | None]
               ) -> tuple[list[Candidate], dict[str, Any] | None, str | None]:
        details = self.scorer.score(cands)
        if len(details) != len(cands):
            raise ConfigError(f"scorer {self.scorer.name!r} returned {len(details)} results for {len(cands)} candidates")
        details = [_resolve_detail(d, bool(allow) and allow.matches_candidate(c)) for c, d in zip(cands, details)]
        rule = trust_rule_for(policy.unknown_level)
        values = [rule.of(d) for d in details]  # the one trust computation per candidate, carried on it
        trusts = [v.value for v in values]
        signals = trusts if policy.signal == "trust" else [blend_signal(d, policy) for d in details]
        suit: dict[str, Any] | None = None
        extra: list[dict[str, float]] | None = None
        if self.suitability is not None:
            signals, extra, suit = blend_suitability(self.suitability, query, cands, signals,
                                                     policy.suitability_weight)
        relevance, words, lang_note = chosen
        rel_name = None if relevance is None else relevance.name
        # relevance reads a user post that restates the question without the restatement
        read, restated = read_without_restated(query, cands)
        if restated is not None:
            lang_note = join_notes(lang_note, restated_note(restated, [c.url for c in cands]))
        encoded: list[bool] | None = None
        reading = WordsReading(query, read)  # read when first asked, then shared by the cascade and the window
        if isinstance(relevance, EncodesSome):  # which candidates the encoder read: a score each
            scores, encoded, encoder_note = relevance.score_encoded(query, read, reading)
            rel = [float(r) for r in scores]
            lang_note = join_notes(lang_note, encoder_note)
        elif relevance is not None:
            rel = [float(r) for r in relevance.score(query, read)]
        else:
            rel = [_input_relevance(c) for c in cands]
        window, window_note = read_window_text(query, read, relevance is None, words, reading) \
            if policy.fusion in ("window", "prior") else (None, None)
        lang_note = join_notes(lang_note, window_note)
        on_topic = None if window is None else window.coverage
        low = np.fromiter((rule.low_credibility(v) for v in values), dtype=np.bool_, count=len(values))
        fusion = fuse(policy, np.asarray(rel, dtype=np.float64), np.asarray(signals, dtype=np.float64), window, low)
        rel_norm, fused = fusion.relevance, fusion.fused
        # One copy per candidate with every score of this stage: this loop is the hot path of
        # the HTTP service (100 candidates per request), so no intermediate candidates.
        stage = [_stage_scores(d, t, s, rel_name, r, n, f)
                 for d, t, s, r, n, f in zip(details, trusts, signals, rel, rel_norm.tolist(), fused.tolist())]
        if on_topic is not None:
            for st, ot in zip(stage, on_topic):
                st[ON_TOPIC_SCORE] = float(ot)
        for st, enc in zip(stage, encoded or ()):
            st[ENCODED_SCORE] = 1.0 if enc else 0.0
        if extra is not None:  # the suitability scores go into the same copy
            stage = [{**st, **e} for st, e in zip(stage, extra)]
        if not owned:
            return ([c.with_scores(st, authority=d, trust=v) for c, st, d, v in zip(cands, stage, details, values)],
                    suit, join_notes(fusion.note, lang_note))
        floats = extra is None  # _stage_scores gives plain floats; the suitability scores may not be
        scored = [fill_scores(c, st, d, floats, v) for c, st, d, v in zip(cands, stage, details, values)]
        return scored, suit, join_notes(fusion.note, lang_note)

    def _relevance_for(self, query: str, cands: list[Candidate]
                       ) -> tuple[RelevanceScorer | None, bool, str | None]:
        """The relevance scorer for this query, whether it judges meaning, and the note when the
        configured one does not read the query's language and names another
        (:class:`~authorag.relevance.base.ReadsLanguages`: dense relevance stands aside for BM25)."""
        if isinstance(self.relevance, ReadsLanguages) and query:
            instead = self.relevance.stand_in(query, cands)
            if instead is not None:
                return instead[0], _judges_meaning(instead[0]), instead[1]
        return self.relevance, self._words, None

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
        d = dataclasses.replace(d, authority=1.0, confidence=1.0, credibility=1.0, page_trust=None,
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


def blend_signal(detail: AuthorityDetail, policy: RerankPolicy) -> float:
    """The ``signal="blend"`` value: authority blended with credibility where known (``credibility_weight``
    sharing; ``unknown_level`` for an unknown authority). The default signal is trust (:mod:`authorag.trust`)."""
    base = policy.unknown_level if detail.authority is None else detail.authority
    if detail.credibility is None or policy.credibility_weight == 0.0:
        return base
    return (1.0 - policy.credibility_weight) * base + policy.credibility_weight * detail.credibility
