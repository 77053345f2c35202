"""SourceBench's eight source-quality rubrics and their weighted score (0–100).

SourceBench (Jin et al. 2026) rates each cited page on content quality (content relevance,
factual accuracy, objectivity) and page-level metadata (freshness, ownership accountability,
author accountability, domain authority, layout clarity). Each rubric is 1–5 here. The weighted
score gives the content group weight 3 and the metadata group weight 2 (3 : 2), each group's
mean rescaled from 1–5 to 0–1, and maps to 0–100::

    weighted = 100 × (3 × mean_content' + 2 × mean_metadata') / 5,   x' = (x − 1) / 4

A rubric the model did not answer is left out of its group's mean; a group with no answer makes
the weighted score None.

Example:
    >>> weighted_score({name: 5 for name in RUBRICS})
    100.0
    >>> weighted_score({"content_relevance": 3, "factual_accuracy": 3, "objectivity": 3,
    ...                 "freshness": 1, "ownership_accountability": 1, "author_accountability": 1,
    ...                 "domain_authority": 1, "layout_clarity": 1})
    30.0
"""
from __future__ import annotations

from collections.abc import Mapping

CONTENT_RUBRICS: tuple[str, ...] = ("content_relevance", "factual_accuracy", "objectivity")
METADATA_RUBRICS: tuple[str, ...] = ("freshness", "ownership_accountability", "author_accountability",
                                     "domain_authority", "layout_clarity")
RUBRICS: tuple[str, ...] = CONTENT_RUBRICS + METADATA_RUBRICS
CONTENT_WEIGHT = 3
METADATA_WEIGHT = 2


def _group_mean(scores: Mapping[str, int | None], names: tuple[str, ...]) -> float | None:
    vals = [(v - 1) / 4 for n in names if (v := scores.get(n)) is not None]
    return sum(vals) / len(vals) if vals else None


def weighted_score(scores: Mapping[str, int | None]) -> float | None:
    """The 0–100 weighted SourceBench score of one source (None when a group is empty)."""
    content = _group_mean(scores, CONTENT_RUBRICS)
    meta = _group_mean(scores, METADATA_RUBRICS)
    if content is None or meta is None:
        return None
    total = CONTENT_WEIGHT * content + METADATA_WEIGHT * meta
    return round(100 * total / (CONTENT_WEIGHT + METADATA_WEIGHT), 4)


__all__ = ["CONTENT_RUBRICS", "CONTENT_WEIGHT", "METADATA_RUBRICS", "METADATA_WEIGHT", "RUBRICS",
           "weighted_score"]
