"""CiteTrace source suitability: a thin hook onto the ``authorag.suitability`` package.

The source-type × question-topic suitability matrix is built by its own package
(``authorag/suitability/``, the suitability issue). The audit does not classify sources itself:
:func:`source_suitability` imports that package when it is there and returns an unknown verdict
with a note when it is not.

Contract expected from the package (the one place to adapt when it lands)::

    authorag.suitability.suitability_for(question: str, url: str, *, title: str = "",
                                         text: str = "") -> object with
        .score: float | None   # 1-5 from the matrix
        .source_type: str      # "government", "forum", ... ("unknown" when unclassified)
        .topic: str            # the question's topic

A score of at least :data:`SUITABLE_AT` counts as suitable.

Example:
    >>> verdict = source_suitability("Do flu shots work?", "https://www.cdc.gov/flu")
    >>> verdict.suitable is None or isinstance(verdict.suitable, bool)
    True
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

SUITABLE_AT = 3.0
"""Matrix score (1–5) at or above which a source type suits the question's topic."""

MISSING_NOTE = ("source suitability is null: the authorag.suitability package (source type x topic "
                "matrix) is not available in this installation")


@dataclass(frozen=True, slots=True)
class SuitabilityVerdict:
    """Suitability of one source for one question (all None when unknown, with a note)."""

    suitable: bool | None
    score: float | None = None
    source_type: str | None = None
    topic: str | None = None
    note: str | None = None


def source_suitability(question: str, url: str, *, title: str = "", text: str = "") -> SuitabilityVerdict:
    """Ask ``authorag.suitability`` for this source's fit to the question, if it is installed.

    Only the package itself being absent yields the unknown verdict; an ImportError raised
    inside the package propagates (it is a bug there, not a missing feature).
    """
    try:
        module: Any = importlib.import_module("authorag.suitability")
    except ModuleNotFoundError as exc:
        if exc.name != "authorag.suitability":
            raise
        return SuitabilityVerdict(None, note=MISSING_NOTE)
    result: Any = module.suitability_for(question, url, title=title, text=text)
    score = None if result.score is None else float(result.score)
    return SuitabilityVerdict(None if score is None else score >= SUITABLE_AT, score,
                              str(result.source_type), str(result.topic))


__all__ = ["MISSING_NOTE", "SUITABLE_AT", "SuitabilityVerdict", "source_suitability"]
