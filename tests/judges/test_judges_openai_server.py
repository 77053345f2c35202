"""Judges and the ``authorag judge`` CLI end to end against a real OpenAI-compatible server.

The server is xllamacpp + SmolLM2-135M on loopback (fixture ``openai_server``). SmolLM2's
scores are noise: only shapes, modes and bookkeeping are asserted.
"""
from __future__ import annotations

import json
import math

import pytest

from authorag.cli import main
from authorag.judges import ListJudge, PairJudge, PointJudge, RelevanceJudge, UtilityJudge
from authorag.judges.backends.openai_compat import OpenAIBackend
from authorag.types import Candidate

pytestmark = pytest.mark.integration
DOMAINS = ["nih.gov", "bbc.co.uk", "spam-pills-4u.biz"]


@pytest.fixture(scope="module")
def backend(openai_server: str) -> OpenAIBackend:
    return OpenAIBackend(openai_server, model="smollm2", timeout=120)


def _valid(run, n: int) -> None:
    assert len(run.scores) == n
    assert sorted(run.ranking()) == list(range(n))
    for s in run.scores:
        if s.score is not None:
            assert 0.0 <= s.score <= 1.0 and 0.0 <= s.raw <= 9.0
    assert 0.0 <= run.parse_failure_rate <= 1.0
    assert run.cost.calls >= 1 and run.cost.prompt_tokens > 0


def test_point_judge_logprob_mode(backend: OpenAIBackend) -> None:
    run = PointJudge(backend, on_failure="skip").judge(DOMAINS)
    _valid(run, 3)
    assert run.cost.calls == 3
    assert {s.mode for s in run.scores} == {"logprob"}  # llama.cpp serves logprobs under a grammar


def test_list_and_pair_judges(backend: OpenAIBackend) -> None:
    _valid(ListJudge(backend, on_failure="skip").judge(DOMAINS), 3)
    rank = ListJudge(backend, output="rank", on_failure="skip").judge(DOMAINS)
    assert rank.order is not None and sorted(rank.order) == [0, 1, 2]
    pair = PairJudge(backend, on_failure="skip").judge(DOMAINS)
    _valid(pair, 3)
    assert pair.stats["comparisons"] + len(pair.failures) == 3 and pair.cost.calls == 6


def test_relevance_and_utility(backend: OpenAIBackend) -> None:
    docs = [Candidate.create("https://www.cdc.gov/x", text="Vaccines are safe."), Candidate.create("https://a.biz", text="Buy pills.")]
    for judge in (RelevanceJudge(backend, on_failure="skip"), UtilityJudge(backend, on_failure="skip")):
        scores = judge.score("Are vaccines safe?", docs)
        assert len(scores) == 2 and all(math.isnan(s) or 0.0 <= s <= 1.0 for s in scores)


def test_cli_json_shape(openai_server: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["judge", "--backend", "openai", "--base-url", openai_server, "--model", "smollm2",
                 "--no-cache", "--json", "--method", "list", "--output", "rank", *DOMAINS])
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["input"] for r in rows] == DOMAINS
    assert [r["domain"] for r in rows] == ["nih.gov", "bbc.co.uk", "spam-pills-4u.biz"]
    assert sorted(r["rank"] for r in rows) == [1, 2, 3]
    assert all(r["mode"] == "rank" and 0.0 <= r["score"] <= 1.0 and r["version"] == 1 for r in rows)
