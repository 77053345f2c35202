"""The audit's input model: a question, an answer, its sources and optional known judgements.

Input JSON (one answer)::

    {"question": "...", "answer": "... [1] ...", "sources": [{"id": "1", "url": "...",
     "text": "...", "title": "..."}],
     "statements": [{"text", "citations": [ids], "relevant"?, "stance"?}],   # optional
     "support": [[0, 1, ...], ...],    # optional: statements x sources, in sources order
     "confidence": 1-5, "debate": true/false, "system": "name", "id": "..."}

The chat-API citation shapes (url citations with character offsets) are read by
:mod:`authorag.audit.structured`; the answer's markers by :mod:`authorag.audit.markers`.

Example:
    >>> item = parse_input({"question": "q", "answer": "Yes [1].",
    ...                     "sources": [{"id": 1, "url": "https://www.cdc.gov/x"}]})
    >>> item.sources[0].id, item.statements is None
    ('1', True)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

from authorag.errors import ConfigError

Stance = Literal["pro", "con", "none"]
STANCES: tuple[str, ...] = get_args(Stance)


@dataclass(frozen=True, slots=True)
class AuditSource:
    """One listed source of an answer (``id`` is what the answer's markers refer to)."""

    id: str
    url: str
    text: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class AuditStatement:
    """One statement of the answer with the ids of the sources it cites.

    Attributes:
        text: the statement (citation markers removed).
        citations: cited source ids, in first-mention order, without duplicates.
        relevant: does the statement address the question (None = not known yet).
        stance: ``pro`` / ``con`` / ``none`` towards the question (None = not known yet).
    """

    text: str
    citations: tuple[str, ...] = ()
    relevant: bool | None = None
    stance: Stance | None = None


@dataclass(frozen=True, slots=True)
class AuditInput:
    """One answer to audit. ``statements``/``support`` are None when they must be derived."""

    question: str
    answer: str
    sources: tuple[AuditSource, ...]
    statements: tuple[AuditStatement, ...] | None = None
    support: tuple[tuple[int, ...], ...] | None = None
    confidence: int | None = None
    debate: bool | None = None
    system: str = ""
    id: str = ""
    raw: Mapping[str, Any] | None = None
    """The original object, for the structured chat-API citation shapes."""


def _str(obj: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> str:
    value = obj.get(key)
    if value is None:
        if required:
            raise ConfigError(f"{where}: missing {key!r}; expected a string")
        return ""
    if not isinstance(value, str | int):
        raise ConfigError(f"{where}: {key!r} must be a string, got {type(value).__name__}")
    return str(value)


def parse_sources(raw: object) -> tuple[AuditSource, ...]:
    """Validate the ``sources`` list; ids become strings and must be unique."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ConfigError(f"'sources' must be a list of objects like {{\"id\": \"1\", \"url\": \"...\"}}, "
                          f"got {type(raw).__name__}")
    out: list[AuditSource] = []
    for i, item in enumerate(cast(list[object], raw)):
        where = f"sources[{i}]"
        if isinstance(item, str):  # a bare URL list (Perplexity's ``citations``): ids 1..n
            out.append(AuditSource(str(i + 1), item))
            continue
        if not isinstance(item, Mapping):
            raise ConfigError(f"{where}: expected an object with 'id' and 'url', got {type(item).__name__}")
        obj = cast(Mapping[str, Any], item)
        ident = _str(obj, "id", where) or str(i + 1)
        out.append(AuditSource(ident, _str(obj, "url", where), _str(obj, "text", where), _str(obj, "title", where)))
    seen: set[str] = set()
    for s in out:
        if s.id in seen:
            raise ConfigError(f"source id {s.id!r} appears twice in 'sources'; ids must be unique")
        seen.add(s.id)
    return tuple(out)


def parse_statements(raw: object, source_ids: Sequence[str]) -> tuple[AuditStatement, ...] | None:
    """Validate user-given statements; a citation to an id not among the sources raises."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise ConfigError(f"'statements' must be a list of objects with 'text' and 'citations', got {type(raw).__name__}")
    known = set(source_ids)
    out: list[AuditStatement] = []
    for i, item in enumerate(cast(list[object], raw)):
        where = f"statements[{i}]"
        if not isinstance(item, Mapping):
            raise ConfigError(f"{where}: expected an object with 'text' and 'citations', got {type(item).__name__}")
        obj = cast(Mapping[str, Any], item)
        raw_cites = obj.get("citations") or []
        if not isinstance(raw_cites, list) or not all(isinstance(c, str | int) and not isinstance(c, bool)
                                                       for c in cast(list[object], raw_cites)):
            raise ConfigError(f"{where}: 'citations' must be a list of source ids like [\"1\", \"2\"], "
                              f"got {raw_cites!r:.80}")
        cites = [str(c) for c in cast(list[object], raw_cites)]
        for c in cites:
            if c not in known:
                raise ConfigError(f"{where} cites source id {c!r}, which is not among the source ids "
                                  f"{sorted(known)}; add the source or fix the id")
        relevant = obj.get("relevant")
        if relevant is not None and not isinstance(relevant, bool):
            raise ConfigError(f"{where}: 'relevant' must be true or false, got {relevant!r}")
        stance = obj.get("stance")
        if stance is not None and stance not in STANCES:
            raise ConfigError(f"{where}: 'stance' must be one of {list(STANCES)}, got {stance!r}")
        out.append(AuditStatement(_str(obj, "text", where, required=True), tuple(dict.fromkeys(cites)),
                                  relevant, cast(Stance | None, stance)))
    return tuple(out)


def parse_support(raw: object, n_statements: int | None, n_sources: int) -> tuple[tuple[int, ...], ...] | None:
    """Validate a 0/1 support matrix: one row per statement, one column per source."""
    if raw is None:
        return None
    if n_statements is None:
        raise ConfigError("'support' needs 'statements' too: its rows are the given statements, in order")
    rows = cast(list[object], raw) if isinstance(raw, list) else None
    if rows is None or len(rows) != n_statements:
        raise ConfigError(f"'support' must have one row per statement ({n_statements}), "
                          f"got {len(rows) if rows is not None else type(raw).__name__}")
    out: list[tuple[int, ...]] = []
    for i, row in enumerate(rows):
        cells = cast(list[object], row) if isinstance(row, list) else None
        if cells is None or len(cells) != n_sources or any(c not in (0, 1) or isinstance(c, float) for c in cells):
            raise ConfigError(f"support[{i}] must be a list of {n_sources} values 0 or 1 (one per source, "
                              f"in sources order), got {row!r}")
        out.append(tuple(int(cast(int, c)) for c in cells))
    return tuple(out)


def parse_input(obj: Mapping[str, Any], *, where: str = "input") -> AuditInput:
    """Validate one answer object; errors name the field and say how to fix it.

    Raises:
        ConfigError: a missing question/answer, a bad field, or a citation of an unknown id.
    """
    if not isinstance(obj, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ConfigError(f"{where}: expected a JSON object with 'question', 'answer' and 'sources'")
    question = _str(obj, "question", where, required=True)
    answer_raw = obj.get("answer", "")
    if answer_raw is not None and not isinstance(answer_raw, str | list):
        raise ConfigError(f"{where}: 'answer' must be a string (or a list of text blocks), "
                          f"got {type(answer_raw).__name__}")
    answer = answer_raw if isinstance(answer_raw, str) else ""  # content-block lists: structured.py
    sources = parse_sources(obj.get("sources"))
    statements = parse_statements(obj.get("statements"), [s.id for s in sources])
    support = parse_support(obj.get("support"), None if statements is None else len(statements), len(sources))
    confidence = obj.get("confidence")
    if confidence is not None and (isinstance(confidence, bool) or confidence not in (1, 2, 3, 4, 5)):
        raise ConfigError(f"{where}: 'confidence' must be an integer 1-5, got {confidence!r}")
    debate = obj.get("debate")
    if debate is not None and not isinstance(debate, bool):
        raise ConfigError(f"{where}: 'debate' must be true or false, got {debate!r}")
    return AuditInput(question, answer, sources, statements, support, cast(int | None, confidence),
                      debate, _str(obj, "system", where), _str(obj, "id", where), obj)


__all__ = ["STANCES", "AuditInput", "AuditSource", "AuditStatement", "Stance", "parse_input",
           "parse_sources", "parse_statements", "parse_support"]
