"""Reranking stages: authority fusion, relevance signals (BM25, dense) and the demo."""
from __future__ import annotations

from authorag.rerankers.authority import AuthorityReranker, RerankPolicy
from authorag.rerankers.base import RelevanceScorer, Reranker
from authorag.rerankers.bm25 import BM25Relevance
from authorag.rerankers.dense import DenseRelevance
from authorag.rerankers.relevance import load_relevance

__all__ = [
    "AuthorityReranker",
    "BM25Relevance",
    "DenseRelevance",
    "RelevanceScorer",
    "RerankPolicy",
    "Reranker",
    "load_relevance",
]
