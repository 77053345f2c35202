"""Audit what a LangChain chain or a Haystack pipeline answered, with the documents it used.

The answer's markers (``[1]``, ``[2]`` ...) are read as 1-based positions in the document list
(the usual numbering of a RAG prompt), so source ids are ``"1"``..``"n"`` in document order. A
document's URL comes from its metadata (``url``, ``source``, ``link``, ``href``, ``source_url``);
its text is the page content. No langchain or haystack import is needed: the objects are read by
their public attributes (``page_content``/``metadata``, ``content``/``meta``).

Example:
    >>> from types import SimpleNamespace as Doc
    >>> out = {"input": "Do flu shots work?", "answer": "Yes [1].",
    ...        "context": [Doc(page_content="They cut risk.", metadata={"source": "https://www.bbc.co.uk/x"})]}
    >>> audit_langchain(out).citation_matrix
    ((1,),)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from authorag.adapters import DEFAULT_URL_KEYS, url_from_metadata
from authorag.audit.pipeline import audit
from authorag.audit.report import AuditReport
from authorag.errors import ConfigError

_QUESTION_KEYS = ("input", "question", "query")
_ANSWER_KEYS = ("answer", "result", "output", "text")
_DOC_KEYS = ("context", "source_documents", "documents", "docs")


def _source(i: int, text: str, meta: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": str(i + 1), "url": url_from_metadata(meta, DEFAULT_URL_KEYS), "text": text,
            "title": str(meta.get("title") or "")}


def _pick(output: Mapping[str, Any], keys: Sequence[str], what: str) -> Any:
    for key in keys:
        if key in output:
            return output[key]
    raise ConfigError(f"cannot find the {what} in the chain output (keys {sorted(output)}); expected one of "
                      f"{list(keys)}, or pass it explicitly")


def audit_langchain(output: Mapping[str, Any], *, question: str | None = None, **kwargs: Any) -> AuditReport:
    """Audit a LangChain retrieval chain's output.

    Reads ``create_retrieval_chain`` output (``input``, ``context``, ``answer``) and
    ``RetrievalQA(return_source_documents=True)`` output (``query``, ``source_documents``,
    ``result``). ``kwargs`` go to :func:`authorag.audit.audit` (``judge``, ``rubrics``, ...).

    Raises:
        ConfigError: a field cannot be found, or a marker cites a document number out of range.
    """
    q = question if question is not None else str(_pick(output, _QUESTION_KEYS, "question"))
    answer = _pick(output, _ANSWER_KEYS, "answer")
    docs: list[Any] = list(_pick(output, _DOC_KEYS, "documents"))
    sources = [_source(i, str(getattr(d, "page_content", "")), dict(getattr(d, "metadata", {}) or {}))
               for i, d in enumerate(docs)]
    return audit({"question": q, "answer": str(getattr(answer, "content", answer)), "sources": sources}, **kwargs)


def _haystack_parts(result: Mapping[str, Any]) -> tuple[str | None, str | None, list[Any]]:
    """(question, answer, documents) found in a pipeline result, component by component."""
    question = answer = None
    docs: list[Any] = []
    for component in result.values():
        if not isinstance(component, Mapping):
            continue
        comp: Mapping[str, Any] = component
        for ans in comp.get("answers", []) or []:  # AnswerBuilder: GeneratedAnswer objects
            answer, question = str(getattr(ans, "data", "")), getattr(ans, "query", None)
            docs = list(getattr(ans, "documents", []) or []) or docs
        replies = comp.get("replies")
        if answer is None and replies:
            first = replies[0]
            answer = str(getattr(first, "text", None) or getattr(first, "content", None) or first)
        if not docs and comp.get("documents"):
            docs = list(comp["documents"])
    return question, answer, docs


def audit_haystack(result: Mapping[str, Any], *, question: str | None = None, **kwargs: Any) -> AuditReport:
    """Audit a Haystack pipeline's result (``pipeline.run(...)`` output).

    Uses an AnswerBuilder's ``GeneratedAnswer`` (answer, query, documents) when present, else
    the first generator reply and the first ``documents`` list of any component (include the
    retriever's output with ``include_outputs_from``). ``kwargs`` go to
    :func:`authorag.audit.audit`.

    Raises:
        ConfigError: no answer or no question could be found.
    """
    found_q, answer, docs = _haystack_parts(result)
    q = question if question is not None else found_q
    if q is None or answer is None:
        missing = "question (pass question=...)" if q is None else "answer (no 'replies' or 'answers' output)"
        raise ConfigError(f"cannot find the {missing} in the pipeline result with components {sorted(result)}")
    sources = [_source(i, str(getattr(d, "content", "") or ""), dict(getattr(d, "meta", {}) or {}))
               for i, d in enumerate(docs)]
    return audit({"question": q, "answer": answer, "sources": sources}, **kwargs)


__all__ = ["audit_haystack", "audit_langchain"]
