"""Deprecated location: import from :mod:`authorag.relevance.bm25` (moved in 0.2; this shim goes in 0.3)."""
from __future__ import annotations

import warnings

from authorag.relevance.bm25 import ENGLISH_STOPWORDS, BM25Relevance, tokenize

warnings.warn(
    "authorag.rerankers.bm25 moved to authorag.relevance.bm25; import from there",
    DeprecationWarning, stacklevel=2)

__all__ = ["ENGLISH_STOPWORDS", "BM25Relevance", "tokenize"]
