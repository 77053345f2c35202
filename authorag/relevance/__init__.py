"""Relevance signals: tokenization, BM25, dense embeddings, upstream similarity and the name -> scorer registry.

Used by the rerankers (relevance fused with authority) and by the retrievers (the same
tokenizer, Okapi parameters and encoder build the indexes).

Example:
    >>> load_relevance("bm25").name
    'relevance.bm25'
"""
from __future__ import annotations

from authorag.relevance.base import RelevanceScorer
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.dense import DenseEncoder, DenseRelevance
from authorag.relevance.registry import RELEVANCE_REGISTRY, RelevanceEntry, load_relevance
from authorag.relevance.similarity import UpstreamSimilarity
from authorag.relevance.tokens import ENGLISH_STOPWORDS, tokenize

__all__ = [
    "ENGLISH_STOPWORDS",
    "RELEVANCE_REGISTRY",
    "BM25Relevance",
    "DenseEncoder",
    "DenseRelevance",
    "RelevanceEntry",
    "RelevanceScorer",
    "UpstreamSimilarity",
    "load_relevance",
    "tokenize",
]
