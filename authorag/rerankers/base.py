"""Protocols for reranking stages (:class:`RelevanceScorer` lives in :mod:`authorag.relevance.base`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from authorag.relevance.base import RelevanceScorer
from authorag.types import Candidate, Ranking


@runtime_checkable
class Reranker(Protocol):
    """A stage that orders (and may filter) candidates for a query."""

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> Ranking:
        """Return a new :class:`~authorag.types.Ranking`; the input is never mutated."""
        ...


__all__ = ["RelevanceScorer", "Reranker"]
