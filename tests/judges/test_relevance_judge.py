"""Relevance and utility judges (ListJudge-PointScore over question + documents)."""
from __future__ import annotations

import math

import pytest

from authorag.errors import ConfigError
from authorag.judges.relevance_judge import RelevanceJudge, UtilityJudge
from authorag.relevance.base import RelevanceScorer
from authorag.testing import FakeBackend
from authorag.types import Candidate

DOCS = [
    Candidate.create("https://www.cdc.gov/vaccines", text="Vaccines do not cause autism; large studies show no link."),
    Candidate.create("https://cake.example/recipe", text="Mix flour and sugar."),
    Candidate.create("https://antivax.example/truth", text="Vaccines cause autism, they hide it!"),
]
QUESTION = "Do vaccines cause autism?"


def test_relevance_scores_and_prompt() -> None:
    fake = FakeBackend(["[0]: 9\n[1]: 0\n[2]: 9\n"])
    judge = RelevanceJudge(fake, use_logprobs=False)
    assert isinstance(judge, RelevanceScorer)
    assert judge.score(QUESTION, DOCS) == pytest.approx([1.0, 0.0, 1.0])
    user = fake.requests[0].messages[-1]["content"]
    assert "Question: Do vaccines cause autism?" in user
    assert "[2] URL: https://antivax.example/truth" in user and "Text: Vaccines cause autism" in user
    assert fake.requests[0].prompt_version == "relevance_list_score_v2"


def test_utility_writes_pseudo_answer_first() -> None:
    fake = FakeBackend(["No. Studies find no link.", "[0]: 9\n[1]: 0\n[2]: 1\n"])
    run = UtilityJudge(fake, use_logprobs=False).judge_query(QUESTION, DOCS)
    assert [s.raw for s in run.scores] == [9.0, 0.0, 1.0]
    assert run.stats["pseudo_answer"] == "No. Studies find no link."
    assert run.cost.calls == 2
    assert "draft answer written from the documents" in fake.requests[1].messages[-1]["content"]
    assert "No. Studies find no link." in fake.requests[1].messages[-1]["content"]
    # the neutral pseudo-answer prompt (issue 14) in the injection-hardened layout (issue 13)
    assert run.prompt_version == "utility_pseudo_answer_v3+utility_list_score_v2"
    assert fake.requests[0].prompt_version == "utility_pseudo_answer_v3"


def test_skip_gives_nan_never_a_default() -> None:
    scores = RelevanceJudge(FakeBackend(["garbage"]), use_logprobs=False, on_failure="skip").score(QUESTION, DOCS)
    assert all(math.isnan(s) for s in scores)


def test_empty_question_rejected() -> None:
    with pytest.raises(ConfigError, match="non-empty question"):
        RelevanceJudge(FakeBackend([])).judge_query("  ", DOCS)
    assert RelevanceJudge(FakeBackend([])).score(QUESTION, []) == []
