"""Reranking stages: authority fusion (relevance signals live in :mod:`authorag.relevance`,
the policy the reranker applies in :mod:`authorag.policy`)."""
from __future__ import annotations

from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.base import Reranker

__all__ = [
    "AuthorityReranker",
    "Reranker",
]
