"""The docstring examples of the judge modules and the hybrid scorer run as tests."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "authorag.judges",
    "authorag.judges.items",
    "authorag.judges.prompts",
    "authorag.judges.parsing",
    "authorag.judges.scoring",
    "authorag.judges.point_judge",
    "authorag.judges.pair_judge",
    "authorag.judges.list_judge",
    "authorag.judges.relevance_judge",
    "authorag.judges.registry",
    "authorag.judges.calibration",
    "authorag.hybrid",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
