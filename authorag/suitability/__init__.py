"""Source-type and query-topic suitability: is this kind of source fit for this question?

* :mod:`~authorag.suitability.taxonomy`: the stable type and topic identifiers, result types.
* :mod:`~authorag.suitability.classifier`: :class:`SourceTypeClassifier` (suffix, list, platform,
  path, text rule layers; optional LLM layer from :mod:`~authorag.suitability.llm`).
* :mod:`~authorag.suitability.topic`: :class:`TopicClassifier` (keywords, MiniLM prototypes, LLM).
* :mod:`~authorag.suitability.matrix`: the topic x type matrix (``matrix_v1.yaml``, user files).
* :mod:`~authorag.suitability.base`: the :class:`~authorag.suitability.base.SuitabilityScorer`
  protocol and its output, :class:`~authorag.suitability.base.SuitabilityScores`.
* :mod:`~authorag.suitability.scorer`: :class:`MatrixSuitability`, the reranker's ``suitability`` signal.
"""
from __future__ import annotations

from authorag.suitability.classifier import SourceTypeClassifier
from authorag.suitability.matrix import SuitabilityMatrix, load_matrix
from authorag.suitability.scorer import MatrixSuitability, load_suitability
from authorag.suitability.taxonomy import (
    SOURCE_TYPES,
    TOPICS,
    SourceType,
    SourceTypeResult,
    Topic,
    TopicResult,
)
from authorag.suitability.topic import TopicClassifier

__all__ = [
    "SOURCE_TYPES",
    "TOPICS",
    "MatrixSuitability",
    "SourceType",
    "SourceTypeClassifier",
    "SourceTypeResult",
    "SuitabilityMatrix",
    "Topic",
    "TopicClassifier",
    "TopicResult",
    "load_matrix",
    "load_suitability",
]
