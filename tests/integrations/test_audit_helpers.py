"""Audit helpers for LangChain chain outputs and Haystack pipeline results (real document types)."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.integrations.audit import audit_haystack, audit_langchain

URLS = ("https://www.bbc.co.uk/news/health", "https://www.dailymail.co.uk/health")


def test_langchain_retrieval_chain_output() -> None:
    from langchain_core.documents import Document

    docs = [Document(page_content="The vaccine cuts risk.", metadata={"source": URLS[0], "title": "BBC"}),
            Document(page_content="Shots cause soreness.", metadata={"url": URLS[1]})]
    report = audit_langchain({"input": "Do flu shots work?", "context": docs,
                              "answer": "They work [1]. Soreness is common [2]."})
    assert report.citation_matrix == ((1, 0), (0, 1))
    assert [(s.id, s.domain, s.title, s.credible) for s in report.sources] == [
        ("1", "bbc.co.uk", "BBC", True), ("2", "dailymail.co.uk", "", False)]
    legacy = audit_langchain({"query": "q", "result": "Yes [2].", "source_documents": docs})
    assert legacy.citation_matrix == ((0, 1),)


def test_langchain_missing_field() -> None:
    with pytest.raises(ConfigError, match=r"cannot find the documents in the chain output \(keys \['answer', 'input'\]\)"):
        audit_langchain({"input": "q", "answer": "a"})


def test_langchain_marker_out_of_range() -> None:
    from langchain_core.documents import Document

    with pytest.raises(ConfigError, match="refers to source id '3'"):
        audit_langchain({"input": "q", "answer": "Yes [3].", "context": [Document(page_content="x", metadata={})]})


def test_haystack_answer_builder_and_replies() -> None:
    from haystack import Document
    from haystack.dataclasses import ChatMessage, GeneratedAnswer

    docs = [Document(content="The vaccine cuts risk.", meta={"url": URLS[0]}),
            Document(content="Shots cause soreness.", meta={"url": URLS[1]})]
    built = {"answer_builder": {"answers": [GeneratedAnswer(data="Works [1][2].", query="Do flu shots work?",
                                                            documents=docs)]}}
    assert audit_haystack(built).citation_matrix == ((1, 1),)
    raw = {"retriever": {"documents": docs}, "llm": {"replies": [ChatMessage.from_assistant("Risk drops [1].")]}}
    report = audit_haystack(raw, question="Do flu shots work?")
    assert report.citation_matrix == ((1, 0),) and report.metrics["uncited_sources_ratio"] == 0.5
    with pytest.raises(ConfigError, match="cannot find the question"):
        audit_haystack(raw)
