"""Protocols for reranking stages and relevance signals."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from authorag.types import Candidate, Ranking


@runtime_checkable
class RelevanceScorer(Protocol):
    """Scores how relevant each candidate's text is to a query.

    ``name`` is the score key written on candidates (e.g. ``"relevance.bm25"``); scores may be
    on any scale, the reranker normalizes them before fusion.
    """

    name: str

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """One relevance score per candidate, in order."""
        ...


@runtime_checkable
class Reranker(Protocol):
    """A stage that orders (and may filter) candidates for a query."""

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> Ranking:
        """Return a new :class:`~authorag.types.Ranking`; the input is never mutated."""
        ...
