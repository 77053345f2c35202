"""Reranking stages: authority fusion and the demo (relevance signals live in :mod:`authorag.relevance`)."""
from __future__ import annotations

from authorag.relevance import BM25Relevance, DenseRelevance, load_relevance
from authorag.rerankers.authority import AuthorityReranker, RerankPolicy
from authorag.rerankers.base import RelevanceScorer, Reranker

__all__ = [
    "AuthorityReranker",
    "BM25Relevance",
    "DenseRelevance",
    "RelevanceScorer",
    "RerankPolicy",
    "Reranker",
    "load_relevance",
]
