"""CiteTrace source suitability: a thin hook onto the ``authorag.suitability`` package.

The source-type × question-topic suitability matrix is built by its own package
(``authorag/suitability/``, the suitability issue). The audit does not classify sources itself:
:func:`source_suitability` imports that package when it is installed and otherwise returns
unknown verdicts with a note.

Contract used (the one place to adapt if the package changes)::

    authorag.suitability.load_suitability() -> scorer
    scorer.score(question, [Candidate, ...]) -> .values (0-1 per candidate, in order),
        .source_types ([{"source_type": ..., ...}]), .query ({"topic": ..., ...})

A value of at least :data:`SUITABLE_AT` (matrix cell 3 of 5, i.e. (3 − 1) / 4) counts as suitable.

Example:
    >>> verdict = SuitabilityVerdict(0.7782 >= SUITABLE_AT, 0.7782, "government", "health")
    >>> verdict.suitable
    True
"""
from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from authorag.audit.model import AuditSource
from authorag.types import Candidate

SUITABLE_AT = 0.5
"""Suitability (0–1) at or above which a source type suits the question's topic."""

MISSING_NOTE = ("source suitability is null: the authorag.suitability package (source type x topic "
                "matrix) is not available in this installation")


@dataclass(frozen=True, slots=True)
class SuitabilityVerdict:
    """Suitability of one source for one question (None when unknown)."""

    suitable: bool | None
    score: float | None = None
    source_type: str | None = None
    topic: str | None = None


@cache
def _scorer() -> Any | None:
    try:
        module: Any = importlib.import_module("authorag.suitability")
    except ModuleNotFoundError as exc:
        if exc.name != "authorag.suitability":
            raise  # an import failing inside the package is a bug there, not a missing feature
        return None
    return module.load_suitability()


def source_suitability(question: str, sources: Sequence[AuditSource]) -> list[SuitabilityVerdict] | None:
    """One verdict per source (in order), or None when ``authorag.suitability`` is not installed."""
    scorer = _scorer()
    if scorer is None:
        return None
    if not sources:
        return []
    cands = [Candidate.create(s.url, s.text, id=s.id, metadata={"title": s.title}) for s in sources]
    out: Any = scorer.score(question, cands)
    topic = str(out.query.get("topic")) if out.query.get("topic") is not None else None
    return [SuitabilityVerdict(float(v) >= SUITABLE_AT, round(float(v), 4), str(t.get("source_type")), topic)
            for v, t in zip(out.values, out.source_types, strict=True)]


__all__ = ["MISSING_NOTE", "SUITABLE_AT", "SuitabilityVerdict", "source_suitability"]
