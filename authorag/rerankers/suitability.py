"""The reranker's suitability hook: how a :class:`~authorag.suitability.base.SuitabilityScorer`'s values are fused.

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

from collections.abc import Sequence
from typing import Any

from authorag.errors import ConfigError
from authorag.scores import SOURCE_TYPE_CONFIDENCE_SCORE, SUITABILITY_SCORE
from authorag.suitability.base import SuitabilityScorer
from authorag.types import Candidate


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


__all__ = ["blend_suitability"]
