"""PointJudge with the scripted FakeBackend."""
from __future__ import annotations

import pytest
from judge_fakes import knowing_model, logprob_model

from authorag.errors import ConfigError, JudgeError, JudgeResponseError
from authorag.judges.point_judge import PointJudge
from authorag.judges.scoring import DIGIT_GRAMMAR
from authorag.testing import FakeBackend
from authorag.types import Candidate


def test_logprob_mode_uses_expected_digit() -> None:
    fake = FakeBackend(logprob_model)
    run = PointJudge(fake).judge(["https://www.nih.gov/about", "cheap-pills.biz", "medium.com"])
    assert [s.raw for s in run.scores] == pytest.approx([8.0, 0.0, 4.0])
    assert [s.score for s in run.scores] == pytest.approx([8 / 9, 0.0, 4 / 9])
    assert {s.mode for s in run.scores} == {"logprob"}
    assert run.scores[0].prompt_version == "authority_point_v1"
    request = fake.requests[0]
    assert request.grammar == DIGIT_GRAMMAR and request.logprobs
    assert request.prompt_version == "authority_point_v1"
    assert run.ranking() == (0, 2, 1)


def test_greedy_fallback_and_dedup() -> None:
    fake = FakeBackend(knowing_model)
    run = PointJudge(fake, use_logprobs=False).judge(["nih.gov", "https://nih.gov/x", "medium.com"])
    assert [s.raw for s in run.scores] == [9.0, 9.0, 5.0]
    assert [s.mode for s in run.scores] == ["greedy"] * 3
    assert run.cost.calls == 2 and len(fake.requests) == 2


def test_skip_records_reason_and_failure_rate() -> None:
    fake = FakeBackend(["no idea", "7", JudgeError("backend down")])
    run = PointJudge(fake, on_failure="skip", use_logprobs=False).judge(["a.com", "b.com", "c.com"])
    assert [s.raw for s in run.scores] == [None, 7.0, None]
    assert run.parse_failures == 1 and run.attempts == 2
    assert run.parse_failure_rate == pytest.approx(0.5)
    assert len(run.failures) == 2 and "a.com" in run.failures[0] and "backend down" in run.failures[1]
    assert run.scores[0].error is not None and "found no number" in run.scores[0].error


def test_raise_policy_raises_typed_error() -> None:
    with pytest.raises(JudgeResponseError, match="found no number"):
        PointJudge(FakeBackend(["hmm"]), use_logprobs=False).judge(["a.com"])


def test_authority_scorer_details() -> None:
    judge = PointJudge(FakeBackend(["9", "oops"]), use_logprobs=False, on_failure="skip")
    details = judge.score([Candidate.create("https://nih.gov"), Candidate.create("https://x.biz")])
    assert details[0].tier == "judge" and details[0].authority == pytest.approx(1.0)
    assert details[0].sources[0].name == "judge.point" and details[0].sources[0].raw == 9.0
    assert details[1].tier == "unknown" and details[1].authority is None
    assert details[1].note is not None and "gave no score" in details[1].note
    assert judge.score([]) == []


def test_with_text_and_entities_reach_the_prompt() -> None:
    from authorag.judges.items import JudgeItem

    fake = FakeBackend(["5", "6"])
    judge = PointJudge(fake, with_text=True, text_budget=20, use_logprobs=False)
    judge.judge([Candidate.create("https://a.org/page", text="word " * 50)])
    user = fake.requests[0].messages[-1]["content"]
    assert "URL: https://a.org/page" in user and "Text: word word word word ..." in user
    judge.judge([JudgeItem.entity("Michael Jordan", "basketball player")])
    user = fake.requests[1].messages[-1]["content"]
    assert "basketball player: Michael Jordan" in user and "widely recognized" in user


def test_bad_policy_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"on_failure must be one of 'raise', 'skip', got 'ignore'"):
        PointJudge(FakeBackend([]), on_failure="ignore")  # type: ignore[arg-type]


async def test_ajudge_matches_judge() -> None:
    run = await PointJudge(FakeBackend(["4"]), use_logprobs=False).ajudge(["nih.gov"])
    assert run.scores[0].raw == 4.0


def test_digits_below_the_minimum_mass_are_a_failed_judgement() -> None:
    from authorag.testing import fake_completion

    fake = FakeBackend(lambda req: fake_completion("[", {"[": 0.985, "7": 0.01, "3": 0.005}))
    with pytest.raises(JudgeResponseError, match=r"the digits carry 1.50% of the probability .* minimum 2%"):
        PointJudge(fake).judge(["nih.gov"])
    at_minimum = FakeBackend(lambda req: fake_completion("[", {"[": 0.97, "7": 0.02, "3": 0.01}))
    assert PointJudge(at_minimum).judge(["nih.gov"]).scores[0].raw == pytest.approx(17 / 3)


def test_free_text_answer_of_a_server_that_dropped_the_grammar_is_read_greedily() -> None:
    import dataclasses

    from authorag.testing import fake_completion

    free = dataclasses.replace(fake_completion("Score: 7", [{"S": 0.9}] + [{}] * 7), dropped_features=("grammar",))
    run = PointJudge(FakeBackend(lambda req: free)).judge(["nih.gov"])
    assert (run.scores[0].raw, run.scores[0].mode) == (7.0, "greedy")


def test_a_cached_answer_below_the_minimum_mass_is_asked_again() -> None:
    """Answers stored before the check (or by another version) are not served once refused."""
    from authorag.judges.backends.cache import CachedBackend, JudgeCache, cache_key
    from authorag.testing import fake_completion

    low, good = fake_completion("[", {"[": 0.999, "7": 0.001}), fake_completion("7", {"7": 1.0})
    fake = FakeBackend([good, good])
    cache = JudgeCache(":memory:")
    judge = PointJudge(CachedBackend(fake, cache))
    judge.judge(["nih.gov"])
    key = cache_key("fake", "fake-model", fake.requests[0])
    cache.put(key, low)  # as an older version stored it
    run = judge.judge(["nih.gov"])
    assert run.scores[0].raw == pytest.approx(7.0) and len(fake.requests) == 2
    assert cache.get(key).text == "7"  # replaced by the usable answer
