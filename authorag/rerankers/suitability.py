"""The reranker's suitability hook: a :class:`SuitabilityScorer` protocol and how its values are fused.

A suitability scorer says, per candidate, how fit its *kind* of source is for the query's topic
(0–1; :class:`authorag.suitability.MatrixSuitability` is the shipped implementation). The
reranker blends it into the source signal it fuses with relevance::

    source signal = (1 - suitability_weight) * authority signal + suitability_weight * suitability

so ``suitability_weight = 0`` is authority alone, 1 is suitability alone, and the filter mode keeps
the top-k by the blend. Each candidate gets ``scores["suitability"]`` and
``scores["source_type.confidence"]``; the ranking's provenance carries the query topic and each
candidate's source type under ``"suitability"``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from authorag.errors import ConfigError
from authorag.scores import SOURCE_TYPE_CONFIDENCE_SCORE, SUITABILITY_SCORE
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


def blend_suitability(scorer: SuitabilityScorer, query: str, candidates: Sequence[Candidate],
                      signals: Sequence[float], weight: float
                      ) -> tuple[list[float], list[dict[str, float]], dict[str, Any]]:
    """Blend ``scorer``'s values into the authority ``signals``.

    Returns:
        (blended signals, per-candidate scores to add, provenance entry).

    Raises:
        ConfigError: the scorer returned the wrong number of values or a value outside [0, 1].
    """
    out = scorer.score(query, candidates)
    if len(out.values) != len(candidates) or len(out.source_types) != len(candidates):
        raise ConfigError(f"suitability scorer {scorer.name!r} returned {len(out.values)} values for "
                          f"{len(candidates)} candidates")
    blended: list[float] = []
    extra: list[dict[str, float]] = []
    for sig, value, st in zip(signals, out.values, out.source_types):
        if not 0.0 <= value <= 1.0:
            raise ConfigError(f"suitability scorer {scorer.name!r} returned {value!r}; values must be in [0, 1]")
        blended.append((1.0 - weight) * sig + weight * value)
        extra.append({SUITABILITY_SCORE: value,
                      SOURCE_TYPE_CONFIDENCE_SCORE: float(st.get("source_type_confidence", 0.0))})
    provenance = {"scorer": scorer.name, "weight": weight, "query": dict(out.query),
                  "candidates": {c.id: dict(st) for c, st in zip(candidates, out.source_types)}}
    return blended, extra, provenance


__all__ = ["SuitabilityScorer", "SuitabilityScores",
           "blend_suitability"]
