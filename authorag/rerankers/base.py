"""The protocol of reranking stages (relevance scorers have theirs in :mod:`authorag.relevance.base`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from authorag.types import Candidate, Ranking


@runtime_checkable
class Reranker(Protocol):
    """A stage that orders (and may filter) candidates for a query."""

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> Ranking:
        """Return a new :class:`~authorag.types.Ranking`; the input is never mutated."""
        ...


__all__ = ["Reranker"]
