"""Reranking stages: authority fusion and the demo (relevance signals live in :mod:`authorag.relevance`)."""
from __future__ import annotations

from authorag.policy import RerankPolicy
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.base import Reranker

__all__ = [
    "AuthorityReranker",
    "RerankPolicy",
    "Reranker",
]
