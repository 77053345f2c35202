"""The result of auditing one answer, and its stable JSON shape (``version`` 1)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from authorag.audit.model import AuditSource, AuditStatement
from authorag.audit.sources import SourceAssessment

REPORT_VERSION = 1
"""Version of the audit report's JSON shape."""

Lexical = tuple[tuple[float | None, ...], ...]
"""Per statement and source: the lexical rule's coverage where it fired, else None."""


def support_reason(row: Sequence[int], lexical: Sequence[float | None], sources: Sequence[AuditSource],
                   basis: str | None) -> str:
    """Why a support row reads as it does: the lexical rule's hits, then the other supporters.

    ``basis`` is who decided the other cells: ``"judge"``, ``"given"``, or None when only the
    lexical rule did (no judge, or its call failed).

    Example:
        >>> src = [AuditSource("1", "https://a.org"), AuditSource("2", "https://b.org")]
        >>> support_reason((1, 1), (None, 1.0), src, "judge")
        "supported by [2]: 100 % of the statement's words are in the source's text (lexical rule); [1] (judge)"
        >>> support_reason((0, 0), (None, None), src, "judge")
        'supported by no source (judge)'
    """
    parts = [f"[{s.id}]: {100 * c:.0f} % of the statement's words are in the source's text (lexical rule)"
             for s, c in zip(sources, lexical, strict=True) if c is not None]
    others = [f"[{s.id}]" for s, v, c in zip(sources, row, lexical, strict=True) if v and c is None]
    if others:
        parts.append(f"{', '.join(others)} ({basis})")
    if basis is None and any(c is None for c in lexical):
        parts.append("the other sources were not judged")
    return "supported by " + "; ".join(parts) if parts else f"supported by no source ({basis})"


def misguidance(alignment: bool | None, suitable: bool | None, fidelity: bool | None) -> bool | None:
    """CiteTrace Verified Misguidance: all three checks fail (three-valued).

    True when all three are False; False as soon as one passes; None otherwise.

    Example:
        >>> misguidance(False, False, False), misguidance(False, None, True), misguidance(False, None, False)
        (True, False, None)
    """
    checks = (alignment, suitable, fidelity)
    if any(c is True for c in checks):
        return False
    return True if all(c is False for c in checks) else None


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """CiteTrace fields for one citation (statement ``statement`` cites source ``source``).

    ``suitability_score`` is the suitability matrix value on 0–1 and ``source_type`` the
    classified type, both from ``authorag.suitability`` (None while it is not installed).
    """

    statement: int
    source: str
    intent_purpose_alignment: bool | None
    source_suitability: bool | None
    suitability_score: float | None
    source_type: str | None
    answer_source_fidelity: bool | None

    @property
    def verified_misguidance(self) -> bool | None:
        """All three CiteTrace checks failed (see :func:`misguidance`)."""
        return misguidance(self.intent_purpose_alignment, self.source_suitability, self.answer_source_fidelity)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {"statement": self.statement, "source": self.source,
                "intent_purpose_alignment": self.intent_purpose_alignment,
                "source_suitability": self.source_suitability, "suitability_score": self.suitability_score,
                "source_type": self.source_type,
                "answer_source_fidelity": self.answer_source_fidelity,
                "verified_misguidance": self.verified_misguidance}


@dataclass(frozen=True, slots=True)
class AuditReport:
    """One audited answer: statements, matrices, per-source credibility, metrics, cost.

    ``to_dict()`` is the JSON shape of the CLI, the server and the batch JSONL.
    """

    question: str
    statements: tuple[AuditStatement, ...]
    sources: tuple[SourceAssessment, ...]
    citation_matrix: tuple[tuple[int, ...], ...]
    support_matrix: tuple[tuple[int, ...] | None, ...] | None
    metrics: dict[str, bool | float | None]
    counts: dict[str, int]
    intervals: dict[str, tuple[float | None, float | None]]
    citations: tuple[CitationCheck, ...] = ()
    rubrics: dict[str, dict[str, Any]] | None = None
    confidence: int | None = None
    debate: bool | None = None
    id: str = ""
    system: str = ""
    judge: dict[str, str] | None = None
    cost: dict[str, Any] = field(default_factory=dict[str, Any])
    notes: tuple[str, ...] = ()
    support_reasons: tuple[str, ...] = ()
    """Per statement: why its support row reads as it does (:func:`support_reason`)."""
    lexical: Lexical = ()
    """Per statement and source: the lexical rule's coverage where it fired (empty: not run)."""

    def _reason(self, i: int) -> str | None:
        return self.support_reasons[i] if i < len(self.support_reasons) else None

    def _lexical(self, i: int) -> dict[str, float]:
        if i >= len(self.lexical):
            return {}
        return {s.id: c for s, c in zip(self.sources, self.lexical[i], strict=True) if c is not None}

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON shape (sources and matrix columns in input order)."""
        sources: list[dict[str, Any]] = []
        for s in self.sources:
            row = s.to_dict()
            if self.rubrics is not None:
                row["rubrics"] = self.rubrics.get(s.id, {}).get("scores")
                row["rubric_score"] = self.rubrics.get(s.id, {}).get("weighted")
            sources.append(row)
        return {
            "version": REPORT_VERSION, "id": self.id, "system": self.system, "question": self.question,
            "statements": [{"text": st.text, "citations": list(st.citations), "relevant": st.relevant,
                            "stance": st.stance, "support_reason": self._reason(i),
                            "lexical_support": self._lexical(i)} for i, st in enumerate(self.statements)],
            "sources": sources,
            "citation_matrix": [list(r) for r in self.citation_matrix],
            "support_matrix": None if self.support_matrix is None else
            [None if r is None else list(r) for r in self.support_matrix],
            "metrics": dict(self.metrics), "counts": dict(self.counts),
            "intervals": {k: list(v) for k, v in self.intervals.items()},
            "citations": [c.to_dict() for c in self.citations],
            "confidence": self.confidence, "debate": self.debate,
            "judge": self.judge, "cost": self.cost, "notes": list(self.notes),
        }


__all__ = ["REPORT_VERSION", "AuditReport", "CitationCheck", "Lexical", "misguidance", "support_reason"]
