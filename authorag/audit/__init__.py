"""Citation audit: grade an AI answer's cited sources for credibility, support, quality and fit.

``audit(item)`` takes ``{"question", "answer", "sources": [{"id", "url", "text"?, "title"?}]}``
(plus optional ``statements``, ``support``, ``confidence``, ``debate``, or a chat API's URL
citations with offsets) and returns an :class:`AuditReport` with the citation and support
matrices, per-source authority and credibility, the DeepTRACE / credibility metrics, CiteTrace
checks per citation and, on request, SourceBench rubric scores.

``authorag.audit`` is this subpackage; the function is ``authorag.audit.audit``
(``from authorag.audit import audit``), and its parts import as usual
(``import authorag.audit.metrics``).

Modules: ``model`` (input), ``markers`` / ``structured`` (citation parsing), ``matrices``, ``metrics``,
``stats``, ``sources`` (credibility), ``llm`` (judge steps), ``rubrics``, ``suitability``
(hook), ``lexical`` (the support rule without an LLM), ``report``, ``pipeline``, ``batch``
(JSONL, aggregates, plot), ``charts``, ``html_page`` (the HTML page); the command is
:mod:`authorag.cli.audit`.

Example:
    >>> from authorag.audit import audit
    >>> r = audit({"question": "q", "answer": "A fact [1].",
    ...            "sources": [{"id": "1", "url": "https://www.bbc.co.uk/news/x"}]})
    >>> r.metrics["credibility_rate"], r.counts["cited_sources"]
    (1.0, 1)
"""
from __future__ import annotations

from authorag.audit.llm import AuditJudge
from authorag.audit.model import AuditInput, AuditLimits, AuditSource, AuditStatement, parse_input
from authorag.audit.pipeline import audit
from authorag.audit.report import AuditReport

__all__ = ["AuditInput", "AuditJudge", "AuditLimits", "AuditReport", "AuditSource", "AuditStatement", "audit", "parse_input"]
