"""The source-type and query-topic vocabularies and the result types of their classifiers.

The identifiers are a stable contract: they appear in JSON output, in the suitability matrix
YAML and in cached LLM answers. Add new ones only with a new matrix version.

Source types (what kind of publisher a page comes from):

=================  ====================================================================
``government``     national/local government, intergovernmental bodies (``.gov``, ``who.int``)
``academic``       universities, research institutes, journals, paper indexes (PubMed, arXiv)
``professional``   professional, medical and standards bodies, hospitals, charities of experts
``news``           news and media outlets, magazines, wire services
``reference``      encyclopedias, dictionaries, reference works
``commercial``     vendors, shops, product and pricing pages, affiliate "best X" reviews
``forum``          discussion forums and Q&A sites (Stack Overflow, Reddit threads, Quora)
``social``         social networks and video platforms (posts, profiles, videos)
``blog``           personal or small-team blogs (self-hosted or on a blog platform)
``docs_code``      software documentation and code hosting
``content_farm``   SEO content mills, how-to farms and answer farms
``unknown``        no layer had enough evidence
=================  ====================================================================
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

SourceType = Literal["government", "academic", "professional", "news", "reference", "commercial",
                     "forum", "social", "blog", "docs_code", "content_farm", "unknown"]
SOURCE_TYPES: tuple[SourceType, ...] = get_args(SourceType)

Topic = Literal["health", "finance", "legal", "safety", "news_politics", "science", "technology",
                "shopping", "entertainment", "other"]
TOPICS: tuple[Topic, ...] = get_args(Topic)

DEFAULT_YMYL: frozenset[Topic] = frozenset({"health", "finance", "legal", "safety", "news_politics"})
""""Your money or your life" topics: where an unsuitable source can do real harm."""

Layer = Literal["suffix", "list", "platform", "path", "text", "llm", "keywords", "prototypes", "none"]
"""Which classifier layer decided a result (``none``: nothing matched, the answer is unknown/other)."""


@dataclass(frozen=True, slots=True)
class SourceTypeResult:
    """What kind of source a candidate is.

    Attributes:
        source_type: one of :data:`SOURCE_TYPES`.
        confidence: 0–1 (0 for ``unknown``).
        layer: the layer that contributed most to the decision.
        reason: a short human-readable reason (the rule, list or cue that matched).
    """

    source_type: SourceType
    confidence: float
    layer: Layer
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view (keys ``source_type``, ``source_type_confidence``, ...)."""
        return {"source_type": self.source_type, "source_type_confidence": round(self.confidence, 4),
                "source_type_layer": self.layer, "source_type_reason": self.reason}


@dataclass(frozen=True, slots=True)
class TopicResult:
    """The topic of a query.

    Attributes:
        topic: one of :data:`TOPICS`.
        confidence: 0–1.
        ymyl: True for a "your money or your life" topic.
        layer: ``keywords``, ``prototypes``, ``llm`` or ``none``.
        reason: what matched.
    """

    topic: Topic
    confidence: float
    ymyl: bool
    layer: Layer
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {"topic": self.topic, "topic_confidence": round(self.confidence, 4), "ymyl": self.ymyl,
                "topic_layer": self.layer, "topic_reason": self.reason}


def unknown_source(reason: str) -> SourceTypeResult:
    """The ``unknown`` result with ``reason``."""
    return SourceTypeResult("unknown", 0.0, "none", reason)


__all__ = ["DEFAULT_YMYL", "SOURCE_TYPES", "TOPICS", "Layer", "SourceType", "SourceTypeResult", "Topic",
           "TopicResult", "unknown_source"]
