"""RAGAuth as the paper runs it: all-documents baseline, one ListJudge-PointScore call per filter."""
from __future__ import annotations

import re

import pytest

from authorag.benchmarks.methods import MethodContext
from authorag.benchmarks.rag.protocol import TOP_KS, YesNoGenerator, make_doc_scorer, run_rag
from authorag.benchmarks.rag.tasks import load_rag_task
from authorag.benchmarks.registry import build_method
from authorag.benchmarks.runner import RunConfig, run_condition
from authorag.judges.backends.base import ChatRequest
from authorag.testing import FakeBackend

INSTANCE = load_rag_task().instances[0]


def _doc_count(request: ChatRequest) -> int:
    return len(re.findall(r"^\[\d+\] Source: ", request.messages[-1]["content"], re.MULTILINE))


def test_no_filter_gives_the_generator_all_documents() -> None:
    fake = FakeBackend(lambda _r: "yes")
    metrics = run_rag([INSTANCE], lambda docs: [None] * len(docs), relevance=lambda i: [0.0] * len(i.documents),
                      generator=YesNoGenerator(fake))
    sizes = sorted({_doc_count(r) for r in fake.requests})
    assert sizes == [1, 3, 5, 10]  # k = 1, 3, 5 for the filters; all 10 for "none"
    assert metrics["generator_free"]["none"] == {str(k): metrics["all_documents"] for k in TOP_KS}
    assert metrics["generator"]["none"] == {str(k): float(INSTANCE.gold) for k in TOP_KS}  # always "yes"


@pytest.mark.parametrize("protocol", ["authorag", "paper"])
def test_authority_filter_is_one_list_call_over_urls_only(protocol: str) -> None:
    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document", backend="fake",
                        protocol=protocol)
    method = build_method("judge-list-score", ctx)
    scores = method.score(INSTANCE.documents)
    requests = method.judge.backend.requests  # type: ignore[attr-defined]
    assert len(requests) == 1 and all(s is not None for s in scores)
    user = requests[0].messages[-1]["content"]
    assert all(f"] URL: {d.url}" in user for d in INSTANCE.documents)
    assert "Text:" not in user and INSTANCE.question not in user and INSTANCE.query not in user


@pytest.mark.parametrize("name", ["llm-relevance", "llm-utility"])
def test_paper_relevance_and_utility_filters_are_one_call_with_text(name: str) -> None:
    fake = FakeBackend(lambda _r: '{"pseudo_answers": {}, "scores": {' + ", ".join(
        f'"{i}": {i % 10}' for i in range(len(INSTANCE.documents))) + "}}")
    scores = make_doc_scorer(name, fake, "paper")(INSTANCE)
    assert len(fake.requests) == 1
    user = fake.requests[0].messages[-1]["content"]
    assert INSTANCE.question in user and user.count("Text: ") == len(INSTANCE.documents)
    assert scores == pytest.approx([(i % 10) / 9 for i in range(len(INSTANCE.documents))])


def test_paper_rag_run_records_protocol_and_cost() -> None:
    result = run_condition(RunConfig(task="ragauth-trec2019", method="judge-list-score", backend="fake",
                                     generator=True, relevance="llm-relevance", utility="llm-utility",
                                     max_instances=2, protocol="paper", options={"cache": "off"}))
    assert result["run_id"] == "ragauth-trec2019__judge-list-score__paper"
    assert result["method_info"]["prompt_set"] == "paper"
    # authority: 1 call per instance; relevance, utility: 1 each; generator: ≤ 10 distinct prompts
    assert result["method_info"]["calls"] == 2
    assert result["metrics"]["filter_judge_stats"]["utility"]["calls"] == 2
    assert 2 <= result["metrics"]["generator_stats"]["calls"] <= 20
    assert result["cost"]["calls"] == 2 + 2 + 2 + result["metrics"]["generator_stats"]["calls"]
