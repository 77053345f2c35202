"""MatrixSuitability: source type x query topic -> suitability, the reranker's ``suitability`` signal.

Example:
    >>> from authorag.types import Candidate
    >>> suit = MatrixSuitability()
    >>> out = suit.score("Can vitamin C cure the common cold?", [
    ...     Candidate.create("https://www.nih.gov/news/x"),
    ...     Candidate.create("https://www.reddit.com/r/health/comments/abc/vitamin_c")])
    >>> [round(v, 3) for v in out.values], out.query["topic"]
    ([0.778, 0.003], 'health')
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from authorag.suitability.base import SuitabilityScores
from authorag.suitability.classifier import SourceTypeClassifier
from authorag.suitability.matrix import SuitabilityMatrix, load_matrix
from authorag.suitability.taxonomy import SourceTypeResult, TopicResult
from authorag.suitability.topic import TopicClassifier
from authorag.types import Candidate


class MatrixSuitability:
    """Classify the query's topic and each candidate's source type, then read the matrix.

    A candidate's value is the matrix cell on 0–1, shrunk toward the topic's ``unknown`` cell by
    the source-type confidence (so a guess moves a candidate less than a ``.gov`` suffix does).

    Args:
        classifier: source-type classifier (default: all rule layers, no LLM).
        topics: topic classifier (default: keywords only, built with the matrix's YMYL topics).
        matrix: the matrix (default: the shipped ``matrix_v1.yaml``).
    """

    name = "suitability.matrix"

    def __init__(self, *, classifier: SourceTypeClassifier | None = None, topics: TopicClassifier | None = None,
                 matrix: SuitabilityMatrix | None = None) -> None:
        self.matrix = load_matrix() if matrix is None else matrix
        self.classifier = SourceTypeClassifier() if classifier is None else classifier
        self.topics = TopicClassifier(ymyl=self.matrix.ymyl) if topics is None else topics

    def score(self, query: str, candidates: Sequence[Candidate]) -> SuitabilityScores:
        """Values in input order; ``source_types`` and ``query`` carry the classifications."""
        topic = self.topics.classify(query)
        types = self.classifier.classify_many(candidates)
        values = [self.value(topic, t) for t in types]
        return SuitabilityScores(values, [t.to_dict() for t in types], self.query_info(topic))

    def value(self, topic: TopicResult, source: SourceTypeResult) -> float:
        """Suitability of one classified source for one classified query."""
        return self.matrix.value(topic.topic, source.source_type, source.confidence)

    def query_info(self, topic: TopicResult) -> dict[str, Any]:
        """The query facts recorded in provenance."""
        return {**topic.to_dict(), "matrix_version": self.matrix.version, "matrix_source": self.matrix.source}

    def __repr__(self) -> str:
        return f"MatrixSuitability(matrix={self.matrix.source!r}, topics={self.topics!r})"


def load_suitability(matrix_path: str | Path | None = None, *, prototypes: bool = False,
                     llm: Any = None) -> MatrixSuitability:
    """The suitability scorer used by the CLI, the server and the integrations.

    Args:
        matrix_path: a user matrix YAML (None: the shipped default).
        prototypes: add the MiniLM prototype layer to the topic classifier (needs the
            ``embeddings`` extra; raises MissingDependencyError with the install hint otherwise).
        llm: an LLM backend for the optional LLM layers (source type and topic), or None.

    Raises:
        ConfigError: a malformed matrix file (file, line and problem in the message).
        MissingDependencyError: ``prototypes=True`` without the ``embeddings`` extra.
    """
    matrix = load_matrix(matrix_path)
    encoder = None
    if prototypes:
        from authorag.relevance.dense import DenseEncoder

        encoder = DenseEncoder()
    source_llm = topic_llm = None
    if llm is not None:
        from authorag.suitability.llm import LLMSourceTypeLayer, LLMTopicLayer

        source_llm, topic_llm = LLMSourceTypeLayer(llm), LLMTopicLayer(llm)
    return MatrixSuitability(classifier=SourceTypeClassifier(llm=source_llm),
                             topics=TopicClassifier(encoder=encoder, ymyl=matrix.ymyl, llm=topic_llm),
                             matrix=matrix)


__all__ = ["MatrixSuitability", "load_suitability"]
