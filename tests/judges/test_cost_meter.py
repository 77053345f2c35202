"""CostMeter / MeteredBackend: sums worked out by hand, labels, errors, cache hits, threads."""
from __future__ import annotations

import threading

import pytest

from authorag.errors import JudgeError
from authorag.judges.backends.base import ChatRequest, Completion
from authorag.judges.backends.cache import CachedBackend, JudgeCache
from authorag.judges.cost import CostMeter, CostTotals, MeteredBackend
from authorag.testing import FakeBackend

REQ = ChatRequest(messages=[{"role": "user", "content": "Domain: nature.com"}])


def test_totals_by_hand() -> None:
    meter = CostMeter()
    meter.record(Completion(text="7", prompt_tokens=30, completion_tokens=1, latency_s=0.5),
                 backend="local", label="point")
    meter.record(Completion(text="A", prompt_tokens=50, completion_tokens=2, latency_s=1.5),
                 backend="local", label="pair")
    meter.record(Completion(text="7", prompt_tokens=30, completion_tokens=1, latency_s=0.01,
                            cached=True), backend="local", label="point")
    meter.record_error(backend="local", label="pair", latency_s=0.25)
    meter.record_parse_failure("pair")
    totals = meter.totals()
    assert (totals.calls, totals.cache_hits, totals.errors, totals.parse_failures) == (4, 1, 1, 1)
    assert (totals.prompt_tokens, totals.completion_tokens) == (80, 3)  # cache hits cost nothing
    assert totals.latency_s == pytest.approx(2.26)
    assert totals.parse_failure_rate == pytest.approx(1 / 3)
    assert meter.totals("pair").to_dict() == pytest.approx({
        "calls": 2, "cache_hits": 0, "errors": 1, "parse_failures": 1, "prompt_tokens": 50,
        "completion_tokens": 2, "latency_s": 1.75, "wall_s": meter.totals("pair").wall_s,
        "parse_failure_rate": 1.0,
    })


def test_empty_meter() -> None:
    assert CostMeter().totals() == CostTotals()
    assert CostMeter().to_dict() == {"totals": CostTotals().to_dict(), "by_label": {}}
    assert CostTotals().parse_failure_rate == 0.0


def test_metered_backend_sees_cache_hits_and_errors() -> None:
    meter = CostMeter()
    inner = CachedBackend(FakeBackend([Completion(text="7", prompt_tokens=9, completion_tokens=1),
                                       JudgeError("boom")]), JudgeCache(":memory:"))
    backend = MeteredBackend(inner, meter, label="point")
    backend.complete(REQ)
    backend.complete(REQ)  # hit
    with pytest.raises(JudgeError, match="boom"):
        backend.complete(ChatRequest(messages=[{"role": "user", "content": "other"}]))
    summary = meter.to_dict()
    assert summary["by_label"]["point"]["calls"] == 3
    assert (summary["totals"]["cache_hits"], summary["totals"]["errors"]) == (1, 1)
    assert summary["totals"]["prompt_tokens"] == 9
    assert [r.cached for r in meter.records] == [False, True, False]
    assert [r.ok for r in meter.records] == [True, True, False]


async def test_metered_backend_async() -> None:
    backend = MeteredBackend(FakeBackend(["1", "2"]), label="list")
    await backend.acomplete(REQ)
    await backend.acomplete(REQ)
    assert backend.meter.totals("list").calls == 2 and backend.name == "fake"


def test_thread_safe_counting() -> None:
    meter = CostMeter()

    def work() -> None:
        for _ in range(500):
            meter.record(Completion(text="1", prompt_tokens=2, completion_tokens=1))
            meter.record_parse_failure()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    totals = meter.totals()
    assert (totals.calls, totals.prompt_tokens, totals.parse_failures) == (2000, 4000, 2000)
    meter.reset()
    assert meter.totals().calls == 0
