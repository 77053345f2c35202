"""The docstring examples of the relevance and retrieval modules run (they are documentation)."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "authorag.rerankers.bm25",
    "authorag.rerankers.dense",
    "authorag.rerankers.relevance",
    "authorag.retrieval._corpus",
    "authorag.retrieval.bm25_index",
    "authorag.retrieval.dense_index",
    "authorag.retrieval.faiss_index",
    "authorag.retrieval.hybrid",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
