"""The relevance signal protocol: what BM25, dense and your own scorers implement."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from authorag.types import Candidate


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
class OnTopicScorer(Protocol):
    """A relevance scorer that can also say how on-topic each candidate is, on 0–1, in a way
    repetition cannot inflate (BM25's query-term coverage). Optional: the reranker's relevance
    window uses it when present, else the relevance scores themselves."""

    def on_topic(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """One on-topic share per candidate, in order."""
        ...


__all__ = ["OnTopicScorer", "RelevanceScorer"]
