"""Reranking stages: authority fusion (relevance signals live in :mod:`authorag.relevance`)."""
from __future__ import annotations

from authorag.rerankers.authority import AuthorityReranker, RerankPolicy
from authorag.rerankers.base import Reranker

__all__ = [
    "AuthorityReranker",
    "RerankPolicy",
    "Reranker",
]
