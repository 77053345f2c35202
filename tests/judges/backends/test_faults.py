"""Issue 13 items 2 and 8: every fault mode of ``authorag.testing.serve_faulty_openai`` through
the real ``openai`` client, OpenAIBackend and the judges.

A malformed 200 is a JudgeResponseError (a judge with ``on_failure="skip"`` falls back), never a
bare TypeError/ValueError; one transient HTTP 500 does not switch a feature off for good; error
messages count the attempts actually made.
"""
from __future__ import annotations

import time

import pytest

from authorag.errors import ConfigError, JudgeError, JudgeResponseError
from authorag.judges.backends._chat import MAX_TEXT_CHARS
from authorag.judges.backends.base import ChatRequest
from authorag.judges.backends.openai_compat import OpenAIBackend
from authorag.judges.list_judge import ListJudge
from authorag.judges.point_judge import PointJudge
from authorag.testing import FAULT_MODES, FaultMode, serve_faulty_openai

pytest.importorskip("openai")
DIGIT = "root ::= [0-9]"
REQUEST = ChatRequest(messages=[{"role": "user", "content": "rate nih.gov"}], grammar=DIGIT, logprobs=True)


def _backend(url: str, **kw: float) -> OpenAIBackend:
    return OpenAIBackend(url, model="m", **{"timeout": 5.0, "max_retries": 2, "backoff_s": 0.01, **kw})


MALFORMED: dict[FaultMode, str] = {
    "garbage": "with a body that is not JSON",
    "truncated": "with a body that is not JSON",
    "html": r"\(text/html\) with a body that is not JSON",
    "text": "answered with a JSON int, not a chat completion object",
    "json_list": "answered with a JSON list, not a chat completion object",
    "choices_str": "answered without a list of choices",
}


@pytest.mark.parametrize("mode", sorted(MALFORMED))
def test_malformed_200_is_a_judge_response_error(mode: FaultMode) -> None:
    """Was: TypeError/ValueError/AttributeError/UnicodeDecodeError escaped (HTTP 500 in the server)."""
    with serve_faulty_openai(mode) as server:
        with pytest.raises(JudgeResponseError, match=MALFORMED[mode]):
            _backend(server.base_url).complete(REQUEST)
        assert len(server.requests) == 1  # a malformed 200 is not retried


@pytest.mark.parametrize("mode", sorted(MALFORMED))
def test_malformed_200_is_skipped_by_a_skipping_judge(mode: FaultMode) -> None:
    with serve_faulty_openai(mode) as server:
        run = PointJudge(_backend(server.base_url), on_failure="skip").judge(["nih.gov"])
    assert run.scores[0].score is None
    assert run.failures and "nih.gov" in run.failures[0]


@pytest.mark.parametrize("mode", ["bad_logprob", "no_logprobs"])
def test_missing_or_malformed_logprobs_fall_back_to_the_text(mode: FaultMode) -> None:
    with serve_faulty_openai(mode, answer="7") as server:
        run = PointJudge(_backend(server.base_url), on_failure="raise").judge(["nih.gov"])
    assert run.scores[0].raw == 7.0 and run.scores[0].mode == "greedy"


def test_ok_mode_uses_logprobs() -> None:
    with serve_faulty_openai("ok", answer="7") as server:
        run = PointJudge(_backend(server.base_url)).judge(["nih.gov"])
    assert run.scores[0].raw == pytest.approx(7.0, abs=0.01) and run.scores[0].mode == "logprob"


def test_huge_output_is_cut() -> None:
    with serve_faulty_openai("huge", huge_chars=3_000_000) as server:
        completion = _backend(server.base_url).complete(REQUEST)
    assert len(completion.text) == MAX_TEXT_CHARS and completion.finish_reason == "length"


def test_wrong_ids_are_a_parse_failure_not_a_crash() -> None:
    with serve_faulty_openai("wrong_ids") as server:
        run = ListJudge(_backend(server.base_url), on_failure="skip").judge(["nih.gov", "bbc.co.uk", "spam.biz"])
    assert [s.score for s in run.scores] == [None, None, None]
    assert run.parse_failures >= 1


def test_hang_times_out_with_a_clear_message() -> None:
    with serve_faulty_openai("hang") as server:
        start = time.monotonic()
        with pytest.raises(JudgeError, match=r"timed out \(timeout=0.3 s\) after 2 attempt\(s\) \(1 retries\)"):
            _backend(server.base_url, timeout=0.3, max_retries=1).complete(REQUEST)
    assert time.monotonic() - start < 2.0


def test_slow_answer_within_the_timeout_is_used() -> None:
    with serve_faulty_openai("slow", delay_s=0.2) as server:
        assert _backend(server.base_url).complete(REQUEST).text == "7"


def test_429_waits_for_retry_after() -> None:
    with serve_faulty_openai("ok", script=["429"], retry_after=0.4) as server:
        start = time.monotonic()
        assert _backend(server.base_url).complete(REQUEST).text == "7"
        assert time.monotonic() - start >= 0.4
    assert len(server.requests) == 2


@pytest.mark.parametrize("mode", ["500", "503"])
def test_one_transient_5xx_keeps_every_feature(mode: FaultMode) -> None:
    """Was: one HTTP 500 dropped 'grammar' and the backend never sent it again."""
    with serve_faulty_openai("ok", script=[mode]) as server:
        backend = _backend(server.base_url)
        completion = backend.complete(REQUEST)
        again = backend.complete(REQUEST)
    assert completion.dropped_features == () == again.dropped_features
    assert backend.unsupported == frozenset()
    assert [("grammar" in b, bool(b.get("logprobs"))) for b in server.requests] == [(True, True)] * 3


def test_persistent_500_drops_features_and_counts_attempts_right() -> None:
    """Was: 'after 2 attempt(s)' when four requests had been made (fallbacks were not counted)."""
    with serve_faulty_openai("500") as server:
        backend = _backend(server.base_url, max_retries=1)
        with pytest.raises(JudgeError) as info:
            backend.complete(REQUEST)
    made = len(server.requests)
    assert f"after {made} attempt(s) (1 retries, 2 without a rejected feature)" in str(info.value)
    assert made == 4
    assert backend.unsupported == frozenset()  # nothing succeeded, so nothing is remembered


def test_feature_dropped_after_500s_is_tried_again_later(monkeypatch: pytest.MonkeyPatch) -> None:
    from authorag.judges.backends import openai_compat

    monkeypatch.setattr(openai_compat, "FEATURE_RETRY_S", 0.3)
    with serve_faulty_openai("ok", script=["500", "500"]) as server:  # both tries with grammar fail
        backend = _backend(server.base_url)
        assert backend.complete(REQUEST).dropped_features == ("grammar",)
        assert backend.unsupported == frozenset({"grammar"})
        time.sleep(0.35)
        assert backend.unsupported == frozenset()
        assert backend.complete(REQUEST).dropped_features == ()
    assert ["grammar" in b for b in server.requests] == [True, True, False, True]


def test_userinfo_never_reaches_messages() -> None:
    """Was: judge error notes (returned to every client) showed http://user:PASS@... as given."""
    with serve_faulty_openai("503") as server:
        url = server.base_url.replace("http://", "http://user:PASS@")
        backend = _backend(url, max_retries=0)
        with pytest.raises(JudgeError) as info:
            backend.complete(REQUEST)
    assert "PASS" not in str(info.value) and "PASS" not in repr(backend)
    assert "http://***@127.0.0.1" in str(info.value)


def test_every_mode_is_covered() -> None:
    covered = set(MALFORMED) | {"bad_logprob", "no_logprobs", "ok", "huge", "wrong_ids", "hang", "slow", "429",
                                "500", "503"}
    assert covered == set(FAULT_MODES)
    with pytest.raises(ConfigError, match="unknown fault mode 'nope'"), \
            serve_faulty_openai("nope"):  # type: ignore[arg-type]
        pass


def test_wrong_ids_digit_mass_is_a_failed_point_judgement_and_not_cached() -> None:
    """Was: the digits' 0.1 % of the probability gave a verdict (raw 4.5, 0.498 calibrated), cached."""
    from authorag.judges.backends.cache import CachedBackend, JudgeCache

    cache = JudgeCache(":memory:")
    with serve_faulty_openai("wrong_ids") as server:
        judge = PointJudge(CachedBackend(_backend(server.base_url), cache), on_failure="skip")
        run = judge.judge(["nih.gov"])
        assert run.scores[0].score is None and run.parse_failures == 1
        assert run.scores[0].error is not None and (
            "the digits carry 0.10% of the probability at the answer position, below the minimum 2%"
            in run.scores[0].error)
        assert len(cache) == 0  # a failed judgement is not remembered
        server.mode = "ok"  # the judge recovers: the next run asks again and keeps that answer
        again = judge.judge(["nih.gov"])
    assert again.scores[0].raw == pytest.approx(7.0, abs=0.01) and again.scores[0].mode == "logprob"
    assert len(cache) == 1 and len(server.requests) == 2
