"""Issue 13 item 1: deadlines, a bounded judge pool, a circuit breaker and a negative cache.

Judges talk to the fault-injecting OpenAI-compatible server of ``authorag.testing`` through the
real ``openai`` client; nothing inside authorag is mocked.
"""
from __future__ import annotations

import threading
import time

import pytest

from authorag.judges.backends.openai_compat import OpenAIBackend
from authorag.judges.deadline import SKIP_CODES, JudgeGuard, guard_for
from authorag.judges.point_judge import PointJudge
from authorag.priors.table import load_prior
from authorag.testing import serve_faulty_openai
from authorag.tiers.hybrid import HybridAuthority
from authorag.types import candidates_from

pytest.importorskip("openai")
PRIOR = load_prior()


def _hybrid(base_url: str, *, deadline: float = 0.5, timeout: float = 30.0, **guard: float) -> HybridAuthority:
    backend = OpenAIBackend(base_url, model="m", timeout=timeout, max_retries=3, backoff_s=0.05)
    judge = PointJudge(backend, use_logprobs=False, on_failure="skip")
    guard_for(judge, **guard)  # type: ignore[arg-type]
    return HybridAuthority(PRIOR, None, judge, judge_seconds=deadline, calibration=None)


def test_hung_endpoint_answers_by_the_deadline() -> None:
    """Was: judge_seconds was checked only between calls; one hung call took timeout x tries."""
    with serve_faulty_openai("hang") as server:
        hybrid = _hybrid(server.base_url, deadline=0.5, timeout=3.0)
        start = time.monotonic()
        details = hybrid.score(candidates_from(["https://www.nih.gov/x", "zq-unknown-1.biz", "zq-unknown-2.biz"]))
        elapsed = time.monotonic() - start
    assert elapsed < 1.5, elapsed
    assert [d.tier for d in details] == ["table", "unknown", "unknown"]
    assert details[1].skipped == "deadline" == details[2].skipped
    assert SKIP_CODES["deadline"] in (details[1].note or "")  # and in words
    # the second domain was not even started (the abandoned call of the first may be retried when
    # the server answers 503 on shutting down, so requests are counted per domain)
    asked = {m["content"].rsplit("Domain: ", 1)[-1] for r in server.requests for m in r["messages"] if m["role"] == "user"}
    assert asked == {"zq-unknown-1.biz"}


def test_slow_endpoint_within_the_deadline_is_used() -> None:
    with serve_faulty_openai("slow", delay_s=0.2) as server:
        details = _hybrid(server.base_url, deadline=5.0).score(candidates_from(["zq-unknown.biz"]))
    assert details[0].tier == "judge"


def test_circuit_opens_after_failures_and_closes_after_a_good_trial() -> None:
    """Was: failed calls were not remembered; a 500-ing judge was asked again on every request."""
    with serve_faulty_openai("500") as server:
        hybrid = _hybrid(server.base_url, deadline=5.0, open_s=0.3, negative_ttl_s=0.0)
        hybrid.max_judge_calls = 100
        guard = guard_for(hybrid.judge)
        for i in range(3):
            assert hybrid.score(candidates_from([f"zq-unknown-{i}.biz"]))[0].tier == "unknown"
        assert guard.breaker() == "open"
        asked = len(server.requests)
        details = hybrid.score(candidates_from(["zq-unknown-9.biz", "zq-unknown-8.biz"]))
        assert len(server.requests) == asked  # not called while open
        assert {d.skipped for d in details} == {"circuit_open"}
        time.sleep(0.35)
        assert guard.breaker() == "half_open"
        server.mode = "ok"
        assert hybrid.score(candidates_from(["zq-unknown-7.biz"]))[0].tier == "judge"
        assert guard.breaker() == "closed" and guard.state()["failures_in_a_row"] == 0


def test_failed_domain_is_not_asked_again_for_a_while() -> None:
    with serve_faulty_openai("garbage") as server:
        hybrid = _hybrid(server.base_url, deadline=5.0, negative_ttl_s=60.0, failure_threshold=100)
        first = hybrid.score(candidates_from(["zq-unknown.biz"]))[0]
        second = hybrid.score(candidates_from(["zq-unknown.biz"]))[0]
    assert (first.note or "").startswith("judge.point gave no score: the judge's answer could not be read")
    assert second.skipped == "recent_failure" and first.skipped is None
    assert len(server.requests) == 1


def test_full_pool_skips_at_once_instead_of_queueing() -> None:
    with serve_faulty_openai("hang") as server:
        hybrid = _hybrid(server.base_url, deadline=2.0, timeout=5.0, workers=1)
        started = threading.Event()

        def hold_the_only_worker() -> None:
            started.set()
            hybrid.score(candidates_from(["zq-busy-1.biz"]))

        thread = threading.Thread(target=hold_the_only_worker)
        thread.start()
        started.wait()
        time.sleep(0.2)
        start = time.monotonic()
        detail = hybrid.score(candidates_from(["zq-busy-2.biz"]))[0]
        assert time.monotonic() - start < 0.5
        assert detail.skipped == "pool_busy"
        thread.join()


def test_backend_stops_retrying_at_the_guard_deadline() -> None:
    """The abandoned call does not hold its worker for timeout x tries."""
    with serve_faulty_openai("503", retry_after=0.4) as server:
        guard = JudgeGuard(workers=1)
        backend = OpenAIBackend(server.base_url, model="m", timeout=30, max_retries=10, backoff_s=0.4)
        judge = PointJudge(backend, use_logprobs=False, on_failure="skip")
        start = time.monotonic()
        guard.call("k", lambda: judge.judge(["zq.biz"]), timeout_s=1.0, failed=lambda run: "; ".join(run.failures) or None)
        assert time.monotonic() - start < 1.3
        time.sleep(1.5)  # without the deadline the worker would go on retrying for ~10 s
        assert len(server.requests) <= 3
        assert guard.state()["counts"]["failed"] == 1


def test_guard_rejects_bad_settings() -> None:
    from authorag.errors import ConfigError

    with pytest.raises(ConfigError, match="workers and failure_threshold must be >= 1"):
        JudgeGuard(workers=0)
    with pytest.raises(ConfigError, match="open_s and negative_ttl_s must be >= 0"):
        JudgeGuard(open_s=-1)
