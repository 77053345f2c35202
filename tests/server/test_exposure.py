"""What the server shows of itself: no credential, no host path, no internal endpoint.

Before: ``/readyz`` (open even with an API key) showed ``redis://:PASSWORD@host:6379/0`` and
absolute paths of prior files and the suitability matrix; rerank breakdowns carried the judge
endpoint, the Redis host and raw upstream error text in their notes.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from authorag.compose import ScorerSettings
from authorag.judges.base import public_reason
from authorag.judges.deadline import guard_for
from authorag.server.app import create_app
from authorag.server.config import ServerConfig
from authorag.testing import FAULT_MODES, FaultServer, serve_faulty_openai

KEY = "exposure-key"
MATRIX = Path(__file__).resolve().parents[2] / "authorag" / "suitability" / "matrix_v1.yaml"


@pytest.fixture(scope="module")
def secretive_url(serve: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose settings hold a Redis password and absolute paths (no judge runs, so the
    cache is never opened)."""
    import numpy as np

    from authorag.priors.pagerank import PageRankPrior  # a real PageRank prior file

    prior = tmp_path_factory.mktemp("priors") / "links.csv.gz"
    PageRankPrior(["example-links.org", "other-links.org"], np.array([0.6, 0.4]), np.array([1.0, 0.0]),
                  np.array([3, 1])).save(prior)
    scorer = ScorerSettings(judge_cache="redis://:hunter2@cache.internal:6379/0?password=hunter3",
                            prior_files=(f"links={prior}",))
    cfg = ServerConfig(relevance="rank", api_key=KEY, scorer=scorer, suitability=True, suitability_matrix=str(MATRIX))
    with serve(create_app(cfg)) as url:
        yield url


def test_readyz_shows_no_password_and_no_host_path(secretive_url: str) -> None:
    text = httpx.get(f"{secretive_url}/readyz").text
    assert "hunter2" not in text and "hunter3" not in text
    assert str(MATRIX.parent) not in text and "/tmp" not in text and not re.search(r'"/[a-z]', text)
    config = httpx.get(f"{secretive_url}/readyz").json()["config"]
    assert config["scorer"]["judge_cache"] == "redis://cache.internal:6379/0"
    assert config["scorer"]["prior_files"] == ["links=links.csv.gz"] and config["suitability_matrix"] == "matrix_v1.yaml"


def test_readyz_shows_paths_to_the_key_holder_only(secretive_url: str) -> None:
    full = httpx.get(f"{secretive_url}/readyz", headers={"Authorization": f"Bearer {KEY}"}).json()["config"]
    assert full["suitability_matrix"] == str(MATRIX)
    assert full["scorer"]["judge_cache"] == "redis://cache.internal:6379/0"  # never the password
    wrong = httpx.get(f"{secretive_url}/readyz", headers={"Authorization": "Bearer nope"}).json()["config"]
    assert wrong["suitability_matrix"] == "matrix_v1.yaml"


@pytest.mark.parametrize(("error", "reason"), [
    ("OpenAI-compatible server at http://***@10.1.2.3:8080/v1 answered HTTP 429 after 2 attempt(s): {'message': 'x'}",
     "the judge answered HTTP 429"),
    ("OpenAI-compatible server at http://10.1.2.3:8080/v1 answered HTTP 200 (text/html) with a body that is not JSON",
     "the judge's answer could not be read"),
    ("judge cache at redis://***@cache.internal:6379/0 failed to read (Error 111 connecting to cache.internal:6379.)",
     "the judge cache is unavailable"),
    ("http://10.1.2.3:8080/v1 timed out (timeout=60.0 s)", "the judge timed out"),
    ("cannot connect to http://10.1.2.3:8080/v1 after 1 attempt(s)", "the judge could not be reached"),
    ("something else entirely at /srv/models/q.gguf", "the judge call failed"),
])
def test_public_reason(error: str, reason: str) -> None:
    assert public_reason(error) == reason


@pytest.fixture(scope="module")
def faulty() -> Iterator[FaultServer]:
    with serve_faulty_openai("ok", delay_s=3.0) as server:
        yield server


INTERNAL = re.compile(r"https?://|127\.0\.0\.1|redis|\{'|b'|attempt\(s\)|codec|Bad Gateway")


def _notes(url: str, host: str) -> dict[str, Any]:
    r = httpx.post(f"{url}/v1/rerank", json={"query": "q", "documents": [{"text": "t", "url": f"https://{host}/p"}]},
                   timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json()["results"][0]["authority"])


def test_judge_failures_reach_clients_as_short_reasons(serve: Any, faulty: FaultServer,
                                                        tmp_path_factory: pytest.TempPathFactory) -> None:
    mp = pytest.MonkeyPatch()
    mp.setenv("AUTHORAG_CACHE_DIR", str(tmp_path_factory.mktemp("judge-cache")))
    base = faulty.base_url.replace("http://", "http://user:pw@")
    cfg = ServerConfig(relevance="rank", judge_deadline_s=1.0, scorer=ScorerSettings(
        judge="openai", judge_base_url=base, judge_model="m"))
    app = create_app(cfg)
    try:
        with serve(app) as url:
            seen: dict[str, str] = {}
            for mode in FAULT_MODES:
                if mode == "hang":
                    continue
                guard_for(app.state.service._scorer.inner.judge, workers=2)
                faulty.mode, faulty.retry_after = mode, 0.05
                note = _notes(url, f"zq-expose-{mode}.biz")["note"] or ""
                faulty.mode = "ok"
                assert not INTERNAL.search(note), (mode, note)
                seen[mode] = note
            assert "judge.point gave no score: the judge answered HTTP 500; details in the log" in seen["500"]
            assert "the judge's answer could not be read" in seen["html"]
            judge = httpx.get(f"{url}/readyz").json()["judge"]
            assert judge["last_error"] is None or not INTERNAL.search(judge["last_error"])
    finally:
        mp.undo()


def test_an_unreachable_redis_cache_is_a_short_reason(serve: Any, faulty: FaultServer) -> None:
    cfg = ServerConfig(relevance="rank", judge_deadline_s=1.0, scorer=ScorerSettings(
        judge="openai", judge_base_url=faulty.base_url, judge_model="m",
        judge_cache="redis://:hunter2@127.0.0.1:1/0"))
    with serve(create_app(cfg)) as url:
        note = _notes(url, "zq-expose-redis.biz")["note"] or ""
        assert note.startswith("judge.point gave no score: the judge cache is unavailable; details in the log"), note
        assert httpx.get(f"{url}/readyz").json()["judge"]["last_error"] == "the judge cache is unavailable"
