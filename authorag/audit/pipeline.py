"""``audit()``: one answer and its sources in, an :class:`~authorag.audit.report.AuditReport` out.

Steps: read the statements (given, or parsed from the answer's markers / the chat-API citation
shapes); build the citation matrix; fill what is unknown with the LLM judge when one is given
(relevance, stance and confidence for debate questions, support per statement, CiteTrace checks
per citation, SourceBench rubrics with ``rubrics=True``); mark the support the lexical rule finds
(:mod:`authorag.audit.lexical`: a source that repeats a statement supports it, judge or not);
score each source's domain with the one composition; compute the metrics. Values the user
supplied are never re-asked. Nothing is fetched: sources without text are judged from their URL
and title.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from authorag.audit.lexical import lexical_matrix
from authorag.audit.llm import PROMPT_VERSION, AuditJudge
from authorag.audit.markers import parse_answer
from authorag.audit.matrices import SupportMatrix, citation_matrix
from authorag.audit.metrics import compute_metrics
from authorag.audit.model import (
    NO_LIMITS,
    AuditInput,
    AuditLimits,
    AuditSource,
    AuditStatement,
    Stance,
    parse_input,
    parse_sources,
)
from authorag.audit.report import AuditReport, CitationCheck, Lexical, support_reason
from authorag.audit.rubrics import weighted_score
from authorag.audit.sources import assess_sources
from authorag.audit.structured import citation_spans
from authorag.audit.suitability import MISSING_NOTE, SuitabilityVerdict, source_suitability
from authorag.judges.backends.base import LLMBackend
from authorag.priors.base import AuthorityScorer

logger = logging.getLogger(__name__)


def _statements(item: AuditInput, judge: AuditJudge | None, decompose: bool, limits: AuditLimits) -> tuple[
        tuple[AuditStatement, ...], tuple[AuditSource, ...], list[str]]:
    if item.statements is not None:
        limits.check("sources", len(item.sources), "send fewer sources (server setting --max-sources)")
        limits.check("statements", len(item.statements), "send fewer statements (server setting --max-statements)")
        limits.check("citations", sum(len(s.citations) for s in item.statements),
                     "send fewer citations (server setting --max-citations)")
        return item.statements, item.sources, []
    raw: Mapping[str, Any] = item.raw or {"answer": item.answer}
    sources = item.sources
    if not sources and isinstance(raw.get("citations"), list):
        sources = parse_sources(raw["citations"])
    text, spans = citation_spans(raw)
    parsed = parse_answer(text, sources, spans, limits)
    statements = parsed.statements
    if decompose and judge is not None:
        judge.expect(len(statements))
        statements = tuple(AuditStatement(claim, st.citations) for st in statements
                           for claim in judge.decompose(st.text))
    return statements, parsed.sources, parsed.notes


def planned_calls(item: AuditInput, statements: Sequence[AuditStatement], sources: Sequence[AuditSource],
                  rubrics: bool) -> int:
    """The LLM calls :func:`audit` makes for these statements (decomposition not counted).

    One for relevance (when a statement's is unknown), stance and confidence on debate
    questions, one support call per statement (unless ``support`` is given), one intent call
    per cited source, one fidelity call per citation and one rubrics call per source.

    Example:
        >>> item = parse_input({"question": "q", "answer": "A [1]. B [1][2].",
        ...                     "sources": [{"id": "1", "url": "https://a.org"}, {"id": "2", "url": "https://b.org"}]})
        >>> sts = (AuditStatement("A", ("1",)), AuditStatement("B", ("1", "2")))
        >>> planned_calls(item, sts, item.sources, rubrics=False)  # relevance 1 + support 2 + intent 2 + fidelity 3
        8
    """
    calls = int(any(s.relevant is None for s in statements))
    if item.debate is True:
        calls += int(any(s.stance is None for s in statements)) + int(item.confidence is None)
    if item.support is None and sources:
        calls += len(statements)
    calls += len({c for s in statements for c in s.citations}) + sum(len(s.citations) for s in statements)
    return calls + (len(sources) if rubrics else 0)


def _fill_judgements(item: AuditInput, statements: tuple[AuditStatement, ...], judge: AuditJudge
                     ) -> tuple[tuple[AuditStatement, ...], int | None]:
    texts = [s.text for s in statements]
    relevant = [s.relevant for s in statements]
    if any(r is None for r in relevant):
        asked = judge.relevance(item.question, texts)
        relevant = [r if r is not None else a for r, a in zip(relevant, asked, strict=True)]
    stances: list[Stance | None] = [s.stance for s in statements]
    confidence = item.confidence
    if item.debate is True:
        if any(s is None for s in stances):
            asked_st = judge.stance(item.question, texts)
            stances = [s if s is not None else a for s, a in zip(stances, asked_st, strict=True)]
        if confidence is None:
            confidence = judge.confidence(item.question, item.answer or " ".join(texts))
    filled = tuple(AuditStatement(s.text, s.citations, r, st)
                   for s, r, st in zip(statements, relevant, stances, strict=True))
    return filled, confidence


def _citation_checks(question: str, statements: Sequence[AuditStatement], sources: Sequence[AuditSource],
                     judge: AuditJudge | None) -> tuple[list[CitationCheck], list[str]]:
    by_id = {s.id: s for s in sources}
    cited = [by_id[sid] for sid in dict.fromkeys(c for st in statements for c in st.citations)]
    verdicts = source_suitability(question, cited)
    suit = {s.id: v for s, v in zip(cited, verdicts or [SuitabilityVerdict(None)] * len(cited), strict=True)}
    intent = {s.id: judge.intent(question, s) if judge is not None else None for s in cited}
    checks: list[CitationCheck] = []
    for i, st in enumerate(statements):
        for sid in st.citations:
            fidelity = judge.fidelity(st.text, by_id[sid]) if judge is not None else None
            v = suit[sid]
            checks.append(CitationCheck(i, sid, intent[sid], v.suitable, v.score, v.source_type, fidelity))
    return checks, [MISSING_NOTE] if verdicts is None and cited else []


def _support(item: AuditInput, statements: Sequence[AuditStatement], sources: Sequence[AuditSource],
             judge: AuditJudge | None) -> tuple[SupportMatrix | None, Lexical, list[str]]:
    """S, the lexical rule's coverage matrix and one reason per statement.

    Given support is used as it is. Otherwise a cell is 1 when the judge says so or when the
    lexical rule fires; a row the judge could not decide (no judge, or a failed call) is known
    only when the rule fires in it, with its other cells 0.
    """
    if item.support is not None:
        return item.support, (), [support_reason(row, (None,) * len(row), sources, "given") for row in item.support]
    lexical = lexical_matrix(statements, sources)
    rows: list[tuple[int, ...] | None] = []
    reasons: list[str] = []
    for st, lex in zip(statements, lexical, strict=True):
        judged = judge.support(st.text, sources) if judge is not None else None
        hits = tuple(int(c is not None) for c in lex)
        if judged is None and not any(hits):
            rows.append(None)
            reasons.append("unknown: the judge call failed (see notes)" if judge is not None else
                           "unknown: no judge (--judge local|openai) and no source repeats the statement")
            continue
        row = hits if judged is None else tuple(max(a, b) for a, b in zip(judged, hits, strict=True))
        rows.append(row)
        reasons.append(support_reason(row, lex, sources, "judge" if judged is not None else None))
    if judge is None and all(r is None for r in rows):
        return None, lexical, reasons
    return tuple(rows), lexical, reasons


def _lexical_notes(lexical: Lexical, judged: bool) -> list[str]:
    fired = sum(any(c is not None for c in row) for row in lexical)
    if not fired:
        return []
    note = (f"the lexical rule (a source repeats the statement) found support for {fired} of "
            f"{len(lexical)} statements")
    if not judged:
        note += ("; with no judge, only the sources that repeat a statement count as supporting it, and "
                 "the support of the other statements is unknown")
    return [note]


def _rubrics(question: str, sources: Sequence[AuditSource], judge: AuditJudge) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for src in sources:
        scores = judge.rubrics(question, src)
        out[src.id] = {"scores": scores, "weighted": weighted_score(scores)}
    return out


def audit(
    item: AuditInput | Mapping[str, Any],
    *,
    judge: AuditJudge | LLMBackend | None = None,
    scorer: AuthorityScorer | None = None,
    rubrics: bool = False,
    decompose: bool = False,
    limits: AuditLimits = NO_LIMITS,
) -> AuditReport:
    """Audit one answer's citations: matrices, credibility, support, quality, suitability.

    Args:
        item: an :class:`AuditInput` or the input JSON object (see :mod:`authorag.audit.model`).
        judge: an :class:`AuditJudge` or a backend for the LLM steps; None runs no LLM (support
            is then known only where given or where the lexical rule finds it).
        scorer: authority scorer for each source's domain (default: the one composition,
            :func:`authorag.compose.load_scorer` with the ``AUTHORAG_*`` settings, as
            ``authorag score`` uses).
        rubrics: also rate each source on the eight SourceBench rubrics (needs a judge).
        decompose: split each sentence into atomic claims with the judge first.
        limits: size limits of the answer, its statements, citations and sources (default none;
            the server sets its own).

    Returns:
        AuditReport; ``report.to_dict()`` is the JSON shape.

    Raises:
        ConfigError: invalid input, e.g. a marker citing an id that is not a source (the
            message names the id).
        LimitExceeded: the input is over one of ``limits``.

    Example:
        >>> report = audit({"question": "Do flu shots work?",
        ...                 "answer": "They cut the risk [1]. They are popular [2].",
        ...                 "sources": [{"id": "1", "url": "https://www.cdc.gov/flu"},
        ...                             {"id": "2", "url": "https://example.org/blog"}],
        ...                 "support": None})
        >>> report.citation_matrix, report.metrics["uncited_sources_ratio"]
        (((1, 0), (0, 1)), 0.0)
    """
    inp = item if isinstance(item, AuditInput) else parse_input(item)
    aj = judge.fork() if isinstance(judge, AuditJudge) else AuditJudge(judge) if judge is not None else None
    statements, sources, notes = _statements(inp, aj, decompose, limits)
    confidence = inp.confidence
    if aj is not None:
        aj.expect(planned_calls(inp, statements, sources, rubrics))
        statements, confidence = _fill_judgements(inp, statements, aj)
    C = citation_matrix(statements, [s.id for s in sources])
    S, lexical, reasons = _support(inp, statements, sources, aj)
    notes += _lexical_notes(lexical, aj is not None)
    if scorer is None:
        from authorag.compose import load_scorer

        scorer = load_scorer()
    assessed = assess_sources(sources, scorer)
    result = compute_metrics(C, S, relevant=[s.relevant for s in statements], stances=[s.stance for s in statements],
                             credible=[a.credible for a in assessed], debate=inp.debate, confidence=confidence)
    checks, suit_notes = _citation_checks(inp.question, statements, sources, aj)
    rubric_out = _rubrics(inp.question, sources, aj) if rubrics and aj is not None else None
    if rubrics and aj is None:
        notes.append("rubrics need an LLM judge (--judge local|openai); none was given")
    if aj is not None and sources and not any(s.text for s in sources):
        notes.append("no source text given: the judge saw URLs and titles only (authorag never fetches pages)")
    return AuditReport(
        question=inp.question, statements=statements, sources=tuple(assessed), citation_matrix=C,
        support_matrix=S, metrics=result.metrics, counts=result.counts, intervals=result.intervals,
        citations=tuple(checks), rubrics=rubric_out, confidence=confidence, debate=inp.debate, id=inp.id,
        system=inp.system, support_reasons=tuple(reasons), lexical=lexical,
        judge=None if aj is None else {"backend": aj.backend.name, "model": aj.backend.model,
                                       "prompt_version": PROMPT_VERSION},
        cost={**aj.meter.to_dict(), "uncached": aj.usage.to_dict()} if aj is not None else {},
        notes=(*notes, *result.notes, *suit_notes, *(aj.failures if aj is not None else ())),
    )


__all__ = ["audit", "planned_calls"]
