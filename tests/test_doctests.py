"""Run the docstring examples of the core modules (they are documentation; they must work)."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "authorag",
    "authorag.domains",
    "authorag.types",
    "authorag.priors._namehash",
    "authorag.priors.features",
    "authorag.priors.learned",
    "authorag.priors.learned_train",
    "authorag.priors.rules",
    "authorag.priors.sources",
    "authorag.priors.table",
    "authorag.rerankers.authority",
    "authorag.rerankers.domain_lists",
    "authorag.rerankers.fusion",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
