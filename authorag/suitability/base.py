"""What a suitability scorer is: the :class:`SuitabilityScorer` protocol and its output,
:class:`SuitabilityScores`. The reranker's hook (:mod:`authorag.rerankers.suitability`) blends
the values into the source signal; :class:`~authorag.suitability.scorer.MatrixSuitability` is the
shipped implementation."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from authorag.types import Candidate


@dataclass(frozen=True, slots=True)
class SuitabilityScores:
    """One scorer call's output.

    Attributes:
        values: suitability per candidate on 0–1, in input order.
        source_types: per candidate a JSON-ready dict with at least ``source_type`` and
            ``source_type_confidence``.
        query: JSON-ready facts about the query (topic, YMYL flag, matrix version).
    """

    values: Sequence[float]
    source_types: Sequence[Mapping[str, Any]]
    query: Mapping[str, Any] = field(default_factory=dict[str, Any])


@runtime_checkable
class SuitabilityScorer(Protocol):
    """Scores how suitable each candidate's kind of source is for a query (0–1 per candidate)."""

    name: str

    def score(self, query: str, candidates: Sequence[Candidate]) -> SuitabilityScores:
        """One value and one source-type record per candidate, in order."""
        ...


__all__ = ["SuitabilityScorer", "SuitabilityScores"]
