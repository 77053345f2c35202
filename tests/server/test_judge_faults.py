"""Issue 13 items 1 and 2 through the HTTP server: every judge fault mode answers 200 with the
other tiers, a hung judge never stalls table-only requests, /readyz shows the judge's state.

The server runs ``--judge openai`` against ``authorag.testing.serve_faulty_openai``.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from authorag.compose import ScorerSettings
from authorag.judges.deadline import guard_for
from authorag.server.app import create_app
from authorag.server.config import ServerConfig
from authorag.testing import FAULT_MODES, FaultMode, FaultServer, serve_faulty_openai

pytest.importorskip("openai")


@pytest.fixture(scope="module")
def faulty() -> Iterator[FaultServer]:
    with serve_faulty_openai("ok", delay_s=3.0) as server:
        yield server


@pytest.fixture(scope="module")
def judged(faulty: FaultServer, serve: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    mp = pytest.MonkeyPatch()
    mp.setenv("AUTHORAG_CACHE_DIR", str(tmp_path_factory.mktemp("judge-cache")))  # the judge's sqlite cache
    cfg = ServerConfig(relevance="rank", scorer=ScorerSettings(judge="openai", judge_base_url=faulty.base_url,
                                                               judge_model="m"),
                       judge_deadline_s=1.0, judge_workers=2)
    app = create_app(cfg)
    try:
        with serve(app) as url:
            yield url, app.state.service
    finally:
        mp.undo()


def _fresh_guard(service: Any, **kw: float) -> None:
    guard_for(service._scorer.inner.judge, workers=2, **kw)  # a closed breaker, no remembered failures


def _rerank(url: str, hosts: list[str]) -> httpx.Response:
    docs = [{"text": f"page {i}", "url": f"https://{h}/p"} for i, h in enumerate(hosts)]
    return httpx.post(f"{url}/v1/rerank", json={"query": "q", "documents": docs}, timeout=30)


@pytest.mark.parametrize("mode", [m for m in FAULT_MODES if m != "hang"])
def test_every_fault_mode_answers_200(judged: tuple[str, Any], faulty: FaultServer, mode: FaultMode) -> None:
    """Was: a malformed 200 from the judge became an HTTP 500 for the client."""
    url, service = judged
    _fresh_guard(service)
    faulty.mode, faulty.retry_after = mode, 0.05
    r = _rerank(url, ["www.nih.gov", f"zq-{mode}-site.biz"])
    faulty.mode = "ok"
    assert r.status_code == 200, r.text
    by_index = {res["index"]: res["authority"] for res in r.json()["results"]}
    assert by_index[0]["tier"] == "table"
    # wrong_ids: the digits carry 0.1 % of the probability, below the minimum: a failed judgement
    judged_ok = mode in ("ok", "no_logprobs", "bad_logprob", "huge")
    assert (by_index[1]["tier"] == "judge") is judged_ok, by_index[1]
    if mode == "slow":  # 3 s > the 1 s deadline
        assert by_index[1]["judge_skipped"] == "deadline"


def test_hung_judge_never_stalls_table_only_requests(judged: tuple[str, Any], faulty: FaultServer) -> None:
    """Was: six requests waiting on a hung judge filled the thread pool; a request whose domains
    were all in the table then waited 299 s."""
    url, service = judged
    _fresh_guard(service, failure_threshold=1000)
    faulty.mode = "hang"
    service._scorer.inner.judge_seconds = 4.0  # a request waiting on the judge holds its thread this long
    try:
        with ThreadPoolExecutor(10) as pool:
            hung = [pool.submit(_rerank, url, [f"zq-hang-{i}.biz"]) for i in range(10)]
            time.sleep(0.2)
            start = time.monotonic()
            table_only = _rerank(url, ["www.nih.gov", "www.bbc.co.uk"])
            table_s = time.monotonic() - start
            answers = [f.result() for f in hung]
    finally:
        faulty.mode = "ok"
        service._scorer.inner.judge_seconds = 1.0
    assert table_only.status_code == 200 and table_s < 2.0, table_s  # no wait for any judge deadline
    assert all(a.status_code == 200 for a in answers)
    flags = {a.json()["results"][0]["authority"]["judge_skipped"] for a in answers}
    assert flags <= {"deadline", "pool_busy"} and flags
    assert all(a.json()["meta"]["authorag"]["judge_skipped"] == [0] for a in answers)


def test_readyz_reports_an_open_circuit(judged: tuple[str, Any], faulty: FaultServer) -> None:
    url, service = judged
    _fresh_guard(service, failure_threshold=2, open_s=60.0)
    assert httpx.get(f"{url}/readyz").json()["judge"]["state"] == "closed"
    faulty.mode = "500"
    try:
        for i in range(3):
            assert _rerank(url, [f"zq-open-{i}.biz"]).status_code == 200
    finally:
        faulty.mode = "ok"
    judge = httpx.get(f"{url}/readyz").json()["judge"]
    assert judge["state"] == "open" and judge["failures_in_a_row"] == 2 and judge["deadline_s"] == 1.0
    assert "HTTP 500" in judge["last_error"]
    skipped = _rerank(url, ["zq-open-9.biz"]).json()["results"][0]["authority"]
    assert skipped["judge_skipped"] == "circuit_open" and skipped["tier"] == "unknown"


def test_readyz_without_judge_says_none(server_url: str) -> None:
    assert httpx.get(f"{server_url}/readyz").json()["judge"] is None
