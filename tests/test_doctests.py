"""Run the docstring examples of every module that has them (they are documentation; they must work).

One list for the whole package: add a module here when you give it examples."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "authorag",
    "authorag.audit",
    "authorag.audit.batch",
    "authorag.audit.llm",
    "authorag.audit.lexical",
    "authorag.audit.markers",
    "authorag.audit.matrices",
    "authorag.audit.metrics",
    "authorag.audit.model",
    "authorag.audit.pipeline",
    "authorag.audit.report",
    "authorag.audit.rubrics",
    "authorag.audit.sources",
    "authorag.audit.stats",
    "authorag.audit.structured",
    "authorag.audit.suitability",
    "authorag.benchmarks.paper_report",
    "authorag.benchmarks.suite",
    "authorag.domains",
    "authorag.hybrid",
    "authorag.adapters",
    "authorag.integrations.audit",
    "authorag.integrations.haystack",
    "authorag.integrations.langchain",
    "authorag.judges",
    "authorag.judges.backends",
    "authorag.judges.backends._chat",
    "authorag.judges.backends._concurrency",
    "authorag.judges.backends.local",
    "authorag.judges.backends.models",
    "authorag.judges.backends.openai_compat",
    "authorag.judges.backends.cache",
    "authorag.judges.calibration",
    "authorag.judges.cost",
    "authorag.judges.items",
    "authorag.judges.list_judge",
    "authorag.judges.pair_judge",
    "authorag.suitability.classifier",
    "authorag.suitability.lists",
    "authorag.suitability.llm",
    "authorag.suitability.matrix",
    "authorag.suitability.platform",
    "authorag.suitability.scorer",
    "authorag.suitability.topic",
    "authorag.judges.parsing",
    "authorag.judges.point_judge",
    "authorag.judges.prompt_sets",
    "authorag.judges.prompts",
    "authorag.judges.registry",
    "authorag.judges.relevance_judge",
    "authorag.judges.scoring",
    "authorag.priors._namehash",
    "authorag.priors.features",
    "authorag.priors.learned",
    "authorag.priors.learned_train",
    "authorag.priors.rules",
    "authorag.priors.sources",
    "authorag.priors.table",
    "authorag.relevance",
    "authorag.relevance.bm25",
    "authorag.relevance.dense",
    "authorag.relevance.registry",
    "authorag.rerankers.authority",
    "authorag.rerankers.domain_lists",
    "authorag.rerankers.fusion",
    "authorag.retrieval._corpus",
    "authorag.retrieval.bm25_index",
    "authorag.retrieval.dense_index",
    "authorag.retrieval.faiss_index",
    "authorag.retrieval.hybrid_index",
    "authorag.server.app",
    "authorag.server.config",
    "authorag.server.documents",
    "authorag.server.metrics",
    "authorag.server.schemas",
    "authorag.server.service",
    "authorag.server.workers",
    "authorag.testing",
    "authorag.types",
    "authorag.validation",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples: give it one or drop it from MODULES"
    assert result.failed == 0
