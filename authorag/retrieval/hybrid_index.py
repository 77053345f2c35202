"""HybridRetriever: BM25 + dense retrieval, fused, then an authority rerank, in one call.

1. Each retriever returns its best ``depth`` candidates.
2. Every candidate in the union gets both scores (a candidate found by one retriever is scored
   by the other with ``score_ids``), so ``relevance.bm25`` and ``relevance.dense`` are always set.
3. The two are fused into ``relevance``: a linear blend of min-max normalized scores (default)
   or weighted reciprocal rank fusion, with ``dense_weight`` as the dense share. Linear is the
   default because the authority stage min-max normalizes ``relevance`` again: RRF values are
   rank-based, so after that normalization an off-topic candidate ranked 4th of 12 still looks
   60 % relevant, and authority lifts it above on-topic pages (see docs/relevance.md).
4. :class:`~authorag.rerankers.authority.AuthorityReranker` fuses that ``relevance`` with source
   authority and orders the result (``authority``, ``authority.signal``, ``relevance.norm``,
   ``fused`` are added).
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args

import numpy as np

from authorag.errors import ConfigError
from authorag.policy import RerankPolicy
from authorag.priors.base import AuthorityScorer
from authorag.relevance.dense import DenseEncoder
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.fusion import linear_fusion, minmax, rrf_fusion
from authorag.retrieval.base import Retriever
from authorag.retrieval.bm25_index import BM25Retriever
from authorag.retrieval.dense_index import DenseRetriever
from authorag.retrieval.faiss_index import IndexOptions
from authorag.scores import RELEVANCE_SCORE
from authorag.types import Candidate, Ranking
from authorag.validation import check_choice, check_positive_int, check_unit

logger = logging.getLogger(__name__)

RelevanceFusion = Literal["rrf", "linear"]


class HybridRetriever:
    """Retrieve with BM25 and dense search, fuse the two, and rerank by source authority.

    Args:
        bm25: the lexical retriever (usually a :class:`BM25Retriever`).
        dense: the dense retriever (usually a :class:`DenseRetriever`).
        scorer: the authority scorer (``authorag.priors.load_prior()`` or any AuthorityScorer).
        depth: candidates taken from each retriever before fusion.
        fusion: ``"linear"`` (default) or ``"rrf"`` for combining the two relevance signals.
        dense_weight: share of the dense signal in [0, 1] (0.5 weighs both equally).
        rrf_k: the RRF constant.
        policy, **policy_fields: the :class:`RerankPolicy` of the authority stage (``weight=0.3``...).

    Raises:
        ConfigError: on a bad parameter, or two retrievers writing the same score name.

    Example:
        >>> from authorag.priors import load_prior
        >>> corpus = [Candidate.create("https://www.nih.gov/c", text="Cranberry and urinary tract infection", id="nih"),
        ...           Candidate.create("https://cures.example.com/c", text="Cranberry cures urinary infections", id="blog"),
        ...           Candidate.create("https://cars.example.com/t", text="How to change a tyre", id="cars")]
        >>> hybrid = HybridRetriever.from_corpus(corpus, load_prior(), weight=0.5)
        >>> hybrid.rank("cranberries urinary tract infection", top_k=2).ids
        ['nih', 'blog']
    """

    def __init__(self, bm25: Retriever, dense: Retriever, scorer: AuthorityScorer, *,
                 depth: int = 50, fusion: RelevanceFusion = "linear", dense_weight: float = 0.5,
                 rrf_k: float = 60.0, policy: RerankPolicy | None = None,
                 **policy_fields: Any) -> None:
        _validate(depth, fusion, dense_weight, rrf_k)
        if bm25.name == dense.name:
            raise ConfigError(f"the two retrievers write the same score name {bm25.name!r}; "
                              "HybridRetriever needs two different signals")
        self.bm25, self.dense = bm25, dense
        self.depth, self.fusion, self.dense_weight, self.rrf_k = depth, fusion, float(dense_weight), float(rrf_k)
        self.reranker = AuthorityReranker(scorer, policy=policy, **policy_fields)

    @classmethod
    def from_corpus(cls, corpus: Iterable[Candidate], scorer: AuthorityScorer, *,
                    encoder: DenseEncoder | None = None, index: IndexOptions | None = None,
                    bm25_options: Mapping[str, Any] | None = None, **kw: Any) -> HybridRetriever:
        """Build a :class:`BM25Retriever` and a :class:`DenseRetriever` over ``corpus``.

        ``index`` sets the FAISS options (flat by default), ``bm25_options`` the BM25 ones
        (``{"k1": 1.2, "stopwords": ENGLISH_STOPWORDS}``); other keywords go to ``__init__``.
        """
        items = list(corpus)
        bm25 = BM25Retriever(items, **dict(bm25_options or {}))
        dense = DenseRetriever(items, encoder, options=index)
        return cls(bm25, dense, scorer, **kw)

    def candidates(self, query: str) -> list[Candidate]:
        """The fused union of both retrievers (before authority), best fused relevance first."""
        by_id: dict[str, Candidate] = {}
        for c in [*self.bm25.retrieve(query, self.depth), *self.dense.retrieve(query, self.depth)]:
            by_id.setdefault(c.id, c)
        if not by_id:
            return []
        cands = list(by_id.values())
        for r in (self.bm25, self.dense):  # score each candidate with the signal it lacks
            missing = [c.id for c in cands if r.name not in c.scores]
            if missing:
                found = dict(zip(missing, r.score_ids(query, missing)))
                cands = [c.with_score(r.name, found[c.id]) if c.id in found else c for c in cands]
        lex = np.asarray([c.scores[self.bm25.name] for c in cands], dtype=np.float64)
        sem = np.asarray([c.scores[self.dense.name] for c in cands], dtype=np.float64)
        if self.fusion == "rrf":
            fused = rrf_fusion(lex, sem, self.dense_weight, self.rrf_k)
        else:
            fused = linear_fusion(minmax(lex), minmax(sem), self.dense_weight)
        out = [c.with_score(RELEVANCE_SCORE, float(f)) for c, f in zip(cands, fused)]
        return sorted(out, key=lambda c: -c.scores[RELEVANCE_SCORE])

    def rank(self, query: str, top_k: int | None = 10, **overrides: Any) -> Ranking:
        """Retrieve, fuse and rerank by authority; ``overrides`` replace rerank policy fields.

        Returns a :class:`Ranking` of at most ``top_k`` candidates (None: the policy's
        ``top_k``, by default the whole fused union); its provenance adds a ``"retrieval"``
        entry describing this stage.
        """
        check_positive_int("top_k", top_k, optional=True)
        cands = self.candidates(query)
        ranking = self.reranker.rerank(query, cands, top_k=top_k, **overrides)
        info = {"retriever": "hybrid", "signals": [self.bm25.name, self.dense.name], "depth": self.depth,
                "fusion": self.fusion, "dense_weight": self.dense_weight, "rrf_k": self.rrf_k,
                "fused_candidates": len(cands)}
        return dataclasses.replace(ranking, provenance={**ranking.provenance, "retrieval": info})

    async def arank(self, query: str, top_k: int | None = 10, **overrides: Any) -> Ranking:
        """Async twin of :meth:`rank` (runs in a worker thread: encoding and search block)."""
        return await asyncio.to_thread(self.rank, query, top_k, **overrides)

    def retrieve(self, query: str, top_k: int = 10) -> list[Candidate]:
        """The candidates of :meth:`rank`, as a list."""
        return list(self.rank(query, top_k).candidates)

    def __repr__(self) -> str:
        return (f"HybridRetriever({self.bm25!r}, {self.dense!r}, fusion={self.fusion!r}, "
                f"dense_weight={self.dense_weight}, depth={self.depth})")


def _validate(depth: int, fusion: str, dense_weight: float, rrf_k: float) -> None:
    check_positive_int("depth", depth)
    check_choice("fusion", fusion, get_args(RelevanceFusion))
    check_unit("dense_weight", dense_weight)
    if isinstance(rrf_k, bool) or not rrf_k > 0:
        raise ConfigError(f"rrf_k must be > 0, got {rrf_k!r}")
