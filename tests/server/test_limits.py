"""Request limits, the request deadline and work off the event loop, on a real server.

Every test here failed on the code before the limits: the first ones took 14 s of CPU and
3.4 GB (BM25), 2.2 s (rank_fields) or never answered (audit) while /healthz waited.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from authorag.server.app import create_app
from authorag.server.config import ServerConfig
from authorag.types import AuthorityDetail, Candidate


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text[:500]
    body = r.json()
    assert body["version"] == 1 and body["error"]["code"] == code and body["error"]["status"] == status
    return str(body["error"]["message"])


@pytest.fixture(scope="module")
def default_url(serve: Any) -> Iterator[str]:
    """A server with the default limits and BM25 relevance (the relevance the query-term limit
    bounds; the default, cascade-or-bm25, is the cascade where the embeddings extra is installed), no key."""
    with serve(create_app(ServerConfig(relevance="bm25"))) as url:
        yield url


def _healthz_while(url: str, slow: httpx.Response | Any, probes: int = 5) -> float:
    """The slowest /healthz answer among ``probes`` sent while ``slow()`` runs; also returns it."""
    worst = 0.0
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(slow)
        time.sleep(0.1)
        for _ in range(probes):
            start = time.perf_counter()
            assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200
            worst = max(worst, time.perf_counter() - start)
            if future.done():
                break
        future.result()
    return worst


def test_a_query_with_too_many_distinct_words_is_refused(default_url: str) -> None:
    """Was: 100,000 query terms x 1,000 one-word documents took 14 s and 3.4 GB on the event loop."""
    body = {"query": " ".join(f"t{i}" for i in range(100_000)), "documents": [f"w{i}" for i in range(1000)]}
    r = httpx.post(f"{default_url}/v2/rerank", json=body, timeout=60)
    msg = _error(r, 422, "query_too_long")  # the cheaper check comes first
    assert msg.startswith("query has 688889 characters, the limit is 10000")
    words = " ".join(f"t{i}" for i in range(600))  # 4,490 characters, 600 distinct words
    r = httpx.post(f"{default_url}/v2/rerank", json={"query": words, "documents": ["a"]}, timeout=60)
    msg = _error(r, 422, "too_many_query_terms")
    assert msg.startswith("query has 600 distinct words, the limit is 512 for BM25 relevance")
    assert "--max-query-terms" in msg


def test_the_largest_allowed_query_is_answered(default_url: str) -> None:
    words = " ".join(f"t{i}" for i in range(512))
    docs = [" ".join(f"t{(i * 7 + j) % 600}" for j in range(40)) for i in range(1000)]
    r = httpx.post(f"{default_url}/v2/rerank", json={"query": words, "documents": docs, "top_n": 3}, timeout=60)
    assert r.status_code == 200 and len(r.json()["results"]) == 3


def test_too_many_rank_fields_are_refused(default_url: str) -> None:
    """Was: 100,000 field names x 1,000 {} documents held the event loop for 2.2 s."""
    body = {"query": "q", "documents": [{}] * 1000, "rank_fields": [f"f{i}" for i in range(100_000)]}
    msg = _error(httpx.post(f"{default_url}/v1/rerank", json=body, timeout=60), 422, "too_many_rank_fields")
    assert msg.startswith("rank_fields has 100000 entries, the limit is 32")


def test_a_huge_answer_is_refused_before_it_is_read(default_url: str) -> None:
    """Was: 3.5 MB of 'a [1]. ' never answered; /healthz got nothing for 600 s."""
    body = {"question": "q", "answer": "a [1]. " * 500_000, "sources": [{"id": "1", "url": "https://www.nih.gov/"}]}
    msg = _error(httpx.post(f"{default_url}/v1/audit", json=body, timeout=60), 422, "answer_too_long")
    assert msg.startswith("the answer has 3500000 characters, the limit is 100000 per audit")


@pytest.mark.parametrize(("answer", "sources", "code"), [
    ("A holds. " * 501, 1, "too_many_statements"),
    ("A holds " + "[1]" * 5001 + ".", 1, "too_many_citations"),
    ("A holds [1].", 201, "too_many_sources"),
])
def test_audit_limits(default_url: str, answer: str, sources: int, code: str) -> None:
    body = {"question": "q", "answer": answer, "sources": [{"id": str(i + 1), "url": f"https://s{i}.org"} for i in range(sources)]}
    _error(httpx.post(f"{default_url}/v1/audit", json=body, timeout=60), 422, code)


def test_healthz_answers_while_an_audit_within_the_limits_runs(default_url: str) -> None:
    """Was: 12,000 markers in 84 KB took 8.9 s on the event loop; /healthz waited for it."""
    body = {"question": "q", "answer": "a [1]" * 4_999 + ".", "sources": [{"id": "1", "url": "https://www.nih.gov/"}]}
    answers: list[httpx.Response] = []
    worst = _healthz_while(default_url, lambda: answers.append(httpx.post(f"{default_url}/v1/audit", json=body, timeout=60)))
    assert answers[0].status_code == 200 and answers[0].json()["citation_matrix"] == [[1]]
    assert worst < 1.0, worst


def test_an_audit_of_one_long_statement_and_a_long_source_answers(default_url: str) -> None:
    """Was: the lexical rule was quadratic here (300 KB: a 503 at 20 s and 41 s of CPU; 4.7 MB:
    about 15 minutes); now a 1 MB body answers, the source repeating the statement."""
    body = {"question": "q", "answer": "a " * 50_000,
            "sources": [{"id": "1", "url": "https://www.nih.gov/", "text": "a " * 250_000}]}
    answers: list[httpx.Response] = []
    worst = _healthz_while(default_url, lambda: answers.append(httpx.post(f"{default_url}/v1/audit", json=body, timeout=60)))
    assert answers[0].status_code == 200, answers[0].text[:300]
    assert answers[0].json()["statements"][0]["lexical_support"] == {"1": 1.0}
    assert worst < 1.0, worst


def test_an_audit_past_its_deadline_stops_costing_cpu(serve: Any) -> None:
    """Was: the 503 came at the deadline and the thread computed on to the audit's end."""
    config = ServerConfig(relevance="bm25", request_deadline_s=0.3, judge_deadline_s=0.1)
    answer = " ".join(f"Statement {k} holds that w{k}a w{k}b w{k}c w{k}d are so." for k in range(500))
    text = " ".join(f"z{j} y{j} x{j}." for j in range(3_000))[:40_000]
    body = {"question": "q", "answer": answer,
            "sources": [{"id": str(i), "url": f"https://www.s{i}.org/p", "text": text} for i in range(100)]}
    with serve(create_app(config)) as url:
        r = httpx.post(f"{url}/v1/audit", json=body, timeout=60)
        start = time.process_time()  # the server runs in this process
        time.sleep(1.0)
        after = time.process_time() - start
    assert _error(r, 503, "deadline_exceeded").startswith("the request did not finish within the server's deadline of 0.3 s")
    assert after < 0.15, after


def test_healthz_answers_while_a_large_rerank_runs(default_url: str) -> None:
    """A 4.5 MB BM25 request runs on a worker thread: the loop keeps answering."""
    query = " ".join(f"t{i}" for i in range(500))
    docs = [" ".join(f"t{(i + j) % 700}" for j in range(1_000)) for i in range(1000)]
    answers: list[httpx.Response] = []
    worst = _healthz_while(default_url, lambda: answers.append(
        httpx.post(f"{default_url}/v2/rerank", json={"query": query, "documents": docs, "top_n": 1}, timeout=60)))
    assert answers[0].status_code == 200, answers[0].text[:300]
    assert worst < 1.0, worst


class SpinningScorer:
    """An authority scorer that burns CPU (pure Python, holding the GIL) for ``seconds``."""

    name = "spinning"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.finished = threading.Event()

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        end = time.perf_counter() + self.seconds
        n = 0
        while time.perf_counter() < end:
            n += 1
        self.finished.set()
        return [AuthorityDetail(0.5, 1.0, "table") for _ in candidates]


def test_a_request_past_its_deadline_is_503_and_the_loop_stays_free(serve: Any) -> None:
    """Was: no request deadline (the setting did not exist) and scoring ran on the event loop."""
    scorer = SpinningScorer(4.0)
    app = create_app(ServerConfig(relevance="rank", request_deadline_s=1.0, judge_deadline_s=0.5), scorer=scorer)
    with serve(app) as url:
        results: list[tuple[httpx.Response, float]] = []

        def slow() -> None:
            start = time.perf_counter()
            r = httpx.post(f"{url}/v1/rerank", json={"query": "q", "documents": ["a"]}, timeout=30)
            results.append((r, time.perf_counter() - start))

        worst = _healthz_while(url, slow, probes=5)
        r, took = results[0]
        msg = _error(r, 503, "deadline_exceeded")
        assert msg.startswith("the request did not finish within the server's deadline of 1 s")
        assert took < 3.0, took  # answered at the deadline, not after the 4 s of work
        assert worst < 1.0, worst
        metrics = httpx.get(f"{url}/metrics").text
        assert 'authorag_errors_total{code="deadline_exceeded"} 1' in metrics
        assert scorer.finished.wait(10)


def test_deadline_settings_are_checked() -> None:
    from authorag.errors import ConfigError

    with pytest.raises(ConfigError, match=r"judge_deadline_s \(10\) must be shorter than request_deadline_s \(5\)"):
        ServerConfig(request_deadline_s=5)
    with pytest.raises(ConfigError, match=r"read_timeout_s must be in \(0, 3600\] seconds, got 0"):
        ServerConfig(read_timeout_s=0)
    with pytest.raises(ConfigError, match="max_query_terms must be a positive integer, got 0"):
        ServerConfig.from_env({"AUTHORAG_MAX_QUERY_TERMS": "0"})


def test_the_limits_table_in_the_docs_is_the_config() -> None:
    """docs/server.md "Limits" lists every limit with its default, flag, variable and error."""
    import re
    from pathlib import Path

    from authorag.server.config import LIMITS

    text = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    section = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| limit")]
    ranges = {row[0].strip("`"): row[1] for row in rows if len(row) == 2}
    assert ranges == {x.flag: f"{x.low:g} to {x.high:.0f} {'s' if x.field.endswith('_s') else 'bytes'}"
                      for x in LIMITS if (x.low, x.high) != (1, 10**9)}
    rows = [row for row in rows if len(row) != 2]
    assert len(rows) == len(LIMITS)
    defaults = ServerConfig()
    for limit, (_, default, flag, variable, error) in zip(LIMITS, rows, strict=True):
        assert flag == f"`{limit.flag}`" and variable == f"`AUTHORAG_{limit.field.upper()}`"
        value = getattr(defaults, limit.field)
        assert re.match(rf"{value:g}\b" if isinstance(value, float) else rf"{value}\b", default), (limit, default)
        status, _, code = limit.error.partition(" ")
        assert error == (f"{status} `{code}`" if status.isdigit() else error), (limit, error)


def test_the_prior_lookup_cache_is_bounded() -> None:
    """Was: 200,000 hosts (about 80 MB) before it stopped growing, so a soak at 240 new hosts/s
    grew for 14 minutes; now the oldest hosts leave past LOOKUP_CACHE_ENTRIES."""
    from authorag.priors.table import LOOKUP_CACHE_ENTRIES, load_prior

    table = load_prior()
    for i in range(LOOKUP_CACHE_ENTRIES + 10):
        table.lookup_host(f"h{i}.example-cache.com", f"h{i}.example-cache.com")
    assert len(table._cache) == LOOKUP_CACHE_ENTRIES  # pyright: ignore[reportPrivateUsage]
    assert "h0.example-cache.com" not in {h for h, _ in table._cache}  # pyright: ignore[reportPrivateUsage]
    assert table.lookup_host("www.nih.gov", "nih.gov").tier == "table"


def test_dense_relevance_stops_at_the_request_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: dense relevance encoded every new page of a request past its deadline (seconds per
    100 pages), holding its thread for work whose answer was dropped."""
    pytest.importorskip("sentence_transformers")
    from authorag.relevance.dense import DEADLINE_BATCH, DenseRelevance
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import DeadlineExceeded, RerankService

    service = RerankService(ServerConfig(relevance="dense", request_deadline_s=2.0, judge_deadline_s=1.0))
    service.warm_up()
    dense = service.reranker.relevance
    assert isinstance(dense, DenseRelevance)
    docs = [{"url": f"https://site{i}.org/p", "text": f"Cranberry juice and urinary tract infections, study {i}: "
             "what the randomised trials found in women with recurrent infections."} for i in range(150)]
    request = RerankRequest(query="does cranberry juice prevent urinary tract infections", documents=docs)
    # the deadline leaves room for the work before encoding on any machine, and passes while the
    # first batch is encoded (the real encoder, slowed past the deadline)
    deadline = time.monotonic() + 1.0
    encode = dense.encoder.encode

    def slow_encode(texts: list[str]) -> object:
        out = encode(texts)
        time.sleep(max(0.0, deadline - time.monotonic()) + 0.01)
        return out

    monkeypatch.setattr(dense.encoder, "encode", slow_encode)
    with pytest.raises(DeadlineExceeded, match=r"did not finish within the server's deadline of 2 s"):
        service.rerank(request, "v2", deadline=deadline)
    monkeypatch.undo()
    assert len(dense._docs) == DEADLINE_BATCH  # pyright: ignore[reportPrivateUsage]  # one batch, then it stopped
    out = service.rerank(request, "v2")  # no deadline: the rest, the first batch remembered
    assert len(out["results"]) == 150 and len(dense._docs) == 150  # pyright: ignore[reportPrivateUsage]


def test_the_dense_model_loads_before_the_service_is_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: ``warm_up`` (what ``/readyz`` waits for) built the dense scorer, but the model loaded
    in the first request, which paid for it inside its deadline."""
    pytest.importorskip("sentence_transformers")
    from authorag.relevance import dense as dense_module
    from authorag.server.service import RerankService

    monkeypatch.setattr(dense_module, "_MODELS", {})  # force a real load, restored afterwards
    service = RerankService(ServerConfig(relevance="dense"))
    service.warm_up()
    assert [k[2] for k in dense_module._MODELS] == [dense_module.LEAD_TOKENS]  # pyright: ignore[reportPrivateUsage]
    relevance = service.reranker.relevance
    assert isinstance(relevance, dense_module.DenseRelevance)
    assert len(relevance._docs) == 0  # pyright: ignore[reportPrivateUsage]  # the probe text is not remembered


def test_dense_relevance_refuses_too_many_new_pages_before_encoding_any(serve: Any) -> None:
    """Was: with dense relevance (the default where the embeddings extra is installed) a request of
    1,000 new long pages was bounded only by the 20 s deadline, checked after each batch of 64."""
    pytest.importorskip("sentence_transformers")
    from authorag.errors import LimitExceeded
    from authorag.relevance.dense import DenseRelevance
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import RerankService

    config = ServerConfig(relevance="dense", max_unseen_documents=4)
    query = "does cranberry juice prevent urinary tract infections"
    docs: list[str | dict[str, Any]] = [
        f"Cranberry juice and urinary tract infections, trial {i}: what the trial found." for i in range(7)]
    with serve(create_app(config)) as url:  # the client's view: a 422 that names the limit and the fix
        r = httpx.post(f"{url}/v2/rerank", json={"query": query, "documents": docs[:5]}, timeout=60)
        msg = _error(r, 422, "too_many_unseen_documents")
        assert msg.startswith("5 documents are new to dense relevance, which encodes each")
        assert "the limit is 4 new documents per request" in msg and "--max-unseen-documents" in msg
        r = httpx.post(f"{url}/v2/rerank", json={"query": query, "documents": docs[:4]}, timeout=60)
        assert r.status_code == 200 and len(r.json()["results"]) == 4

    service = RerankService(config)
    dense = service.reranker.relevance
    assert isinstance(dense, DenseRelevance)
    with pytest.raises(LimitExceeded, match="^5 documents are new"):
        service.rerank(RerankRequest(query=query, documents=docs[:5]), "v2")
    assert len(dense._docs) == 0  # pyright: ignore[reportPrivateUsage]  # refused before any was encoded
    out = service.rerank(RerankRequest(query=query, documents=docs[:4] + docs[:2]), "v2")
    assert len(out["results"]) == 6  # 4 distinct new pages: at the limit
    out = service.rerank(RerankRequest(query=query, documents=docs), "v2")
    assert len(out["results"]) == 7  # 3 new: the 4 seen before are not counted
