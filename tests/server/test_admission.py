"""Admission by cost: pages dense relevance encodes at once (``max_encoding_documents``)."""
from __future__ import annotations

from typing import Any

import httpx
import pytest

from authorag.server.admission import CostGate, Overloaded

QUERY = "does cranberry juice prevent urinary tract infections"


def _docs(n: int, tag: str) -> list[str | dict[str, Any]]:
    return [f"url: https://site{i}.org/{tag}\ntext: Cranberry juice and urinary tract infections, {tag} trial {i}."
            for i in range(n)]


def test_gate_admits_within_its_budget_and_refuses_past_it() -> None:
    gate = CostGate(10)
    with gate.admit(6):
        with gate.admit(4):
            assert gate.in_flight == 10 and gate.full()
        with pytest.raises(Overloaded, match=r"^the server is encoding 6 pages for other requests and this "
                                             r"request's 5 new pages would pass it: the budget is 10 pages"), \
                gate.admit(5):
            pass
        assert gate.in_flight == 6  # a refusal holds nothing
    assert gate.in_flight == 0 and not gate.full()


def test_gate_admits_a_request_larger_than_its_budget_when_idle_and_releases_on_error() -> None:
    gate = CostGate(10)
    with pytest.raises(RuntimeError, match="boom"), gate.admit(25):
        assert gate.in_flight == 25
        raise RuntimeError("boom")
    assert gate.in_flight == 0
    with gate.admit(0), gate.admit(0):  # no new pages: never counted, never refused
        assert gate.in_flight == 0


def test_refusal_before_reading_names_the_setting_and_the_way_out() -> None:
    from authorag.server.admission import refusal

    assert Overloaded("full").retry_after == 1
    text = refusal(None, 300, 300)
    assert text == ("the server is encoding 300 pages for other requests and no request's new pages fit: the "
                    "budget is 300 pages in flight per worker process (server setting --max-encoding-documents); "
                    "retry after 1 s, send fewer new pages per request, or run more workers")


def test_service_refuses_new_pages_that_do_not_fit_before_encoding_any() -> None:
    pytest.importorskip("sentence_transformers")
    from authorag.relevance.dense import DenseRelevance
    from authorag.server.config import ServerConfig
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import RerankService

    service = RerankService(ServerConfig(relevance="dense", max_encoding_documents=5))
    dense = service.reranker.relevance
    assert isinstance(dense, DenseRelevance)
    with service.gate.admit(3):  # another request is encoding 3 pages
        with pytest.raises(Overloaded, match="^the server is encoding 3 pages .* this request's 4 new pages"):
            service.rerank(RerankRequest(query=QUERY, documents=_docs(4, "a")), "v2")
        assert len(dense._docs) == 0  # pyright: ignore[reportPrivateUsage]  # refused before any was encoded
        out = service.rerank(RerankRequest(query=QUERY, documents=_docs(2, "b")), "v2")
        assert sorted(r["index"] for r in out["results"]) == [0, 1]  # 3 + 2 fit in 5
    out = service.rerank(RerankRequest(query=QUERY, documents=_docs(4, "a") + _docs(2, "b")), "v2")
    assert len(out["results"]) == 6 and service.gate.in_flight == 0  # alone: admitted; 2 pages seen before
    with service.gate.admit(5):  # full, but pages seen before cost nothing and need no room
        out = service.rerank(RerankRequest(query=QUERY, documents=_docs(4, "a")), "v2")
        assert len(out["results"]) == 4


def test_http_refusal_is_503_overloaded_with_retry_after(serve: Any) -> None:
    pytest.importorskip("sentence_transformers")
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    app = create_app(ServerConfig(relevance="dense", max_encoding_documents=4))
    with serve(app) as url:
        gate: CostGate = app.state.service.gate
        with gate.admit(2):
            r = httpx.post(f"{url}/v2/rerank", json={"query": QUERY, "documents": _docs(3, "c")}, timeout=60)
            assert r.status_code == 503 and r.headers["retry-after"] == "1"
            error = r.json()["error"]
            assert error["code"] == "overloaded"
            assert error["message"].startswith("the server is encoding 2 pages for other requests and this "
                                               "request's 3 new pages would pass it")
        with gate.admit(4):  # full: refused before the body is parsed
            r = httpx.post(f"{url}/v2/rerank", json={"query": QUERY, "documents": _docs(1, "d")}, timeout=60)
            assert r.status_code == 503 and r.json()["error"]["message"].startswith(
                "the server is encoding 4 pages for other requests and no request's new pages fit")
            assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200
        r = httpx.post(f"{url}/v2/rerank", json={"query": QUERY, "documents": _docs(3, "c")}, timeout=60)
        assert r.status_code == 200 and len(r.json()["results"]) == 3
        metrics = httpx.get(f"{url}/metrics", timeout=10).text
        assert 'authorag_errors_total{code="overloaded"} 2\n' in metrics


def _fresh_pages(n: int, tag: str, words: int = 200) -> list[str | dict[str, Any]]:
    filler = ["cranberry", "juice", "urinary", "tract", "infection", "trial", "women", "placebo", "dose", "bladder", "bacteria"]
    return [f"url: https://site{i}.org/{tag}\ntext: {tag} page {i} " + " ".join(filler[(i + j) % len(filler)]
                                                                               for j in range(words))
            for i in range(n)]


def test_a_full_server_refuses_before_reading_the_body(serve: Any) -> None:
    """The refusal is sent while most of the body is still unsent: nothing is read or parsed first."""
    import json
    import socket

    pytest.importorskip("sentence_transformers")
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    app = create_app(ServerConfig(relevance="dense", max_encoding_documents=4))
    with serve(app) as url, app.state.service.gate.admit(4):
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"POST /v2/rerank HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                         b"content-length: 100000\r\n\r\n" + b'{"query": "q", "documents": [')
            head, _, body = sock.recv(65536).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 ") and b"\r\nretry-after: 1" in head.lower()
    assert json.loads(body)["error"]["code"] == "overloaded"


def test_healthz_answers_at_once_while_a_long_encode_runs(serve: Any) -> None:
    """A real uvicorn: a request of new pages encodes on a CPU thread while /healthz is answered."""
    import threading
    import time

    torch = pytest.importorskip("torch")
    pytest.importorskip("sentence_transformers")
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    threads = torch.get_num_threads()
    app = create_app(ServerConfig(relevance="dense", encode_threads=1, encode_batch=4))
    try:
        with serve(app) as url:
            gate: CostGate = app.state.service.gate
            answer: list[httpx.Response] = []
            body = {"query": QUERY, "documents": _fresh_pages(48, "long")}
            worker = threading.Thread(target=lambda: answer.append(
                httpx.post(f"{url}/v2/rerank", json=body, timeout=120)))
            worker.start()
            while gate.in_flight == 0 and worker.is_alive():
                time.sleep(0.005)
            during: list[float] = []
            with httpx.Client(timeout=10) as client:
                while gate.in_flight == 48:  # the encode is running
                    t0 = time.perf_counter()
                    assert client.get(f"{url}/healthz").json() == {"status": "ok", "version": 1}
                    if gate.in_flight == 48:
                        during.append(time.perf_counter() - t0)
                    time.sleep(0.02)
            worker.join()
        assert answer[0].status_code == 200 and len(answer[0].json()["results"]) == 48
        assert len(during) >= 3 and max(during) < 1.0, during  # the loop never waited for the encode
        assert gate.in_flight == 0
    finally:
        torch.set_num_threads(threads)


def test_pages_of_a_request_that_never_started_go_back_to_the_budget(serve: Any) -> None:
    """A request admitted on the loop but still queued for a CPU thread at its deadline answers
    503 deadline_exceeded, and its pages leave the budget (else the worker would refuse for ever)."""
    import threading
    import time

    pytest.importorskip("sentence_transformers")
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    app = create_app(ServerConfig(relevance="dense", cpu_threads=1, request_deadline_s=3.0, judge_deadline_s=0.5))
    with serve(app) as url:
        service = app.state.service
        busy = threading.Event()
        service.cpu_executor.submit(busy.wait, 30)  # the only CPU thread is taken
        r = httpx.post(f"{url}/v2/rerank", json={"query": QUERY, "documents": _docs(3, "queued")}, timeout=30)
        assert r.status_code == 503 and r.json()["error"]["code"] == "deadline_exceeded"
        busy.set()
        deadline = time.monotonic() + 10
        while service.gate.in_flight and time.monotonic() < deadline:
            time.sleep(0.01)
        assert service.gate.in_flight == 0
        r = httpx.post(f"{url}/v2/rerank", json={"query": QUERY, "documents": _docs(3, "queued")}, timeout=30)
        assert r.status_code == 200, r.text
        assert len(r.json()["results"]) == 3


def test_a_budget_filled_while_the_body_arrived_refuses_before_parsing(serve: Any) -> None:
    """Two requests read their bodies at once; the one whose body ends after the other took the
    budget is refused without being parsed (the message of a refusal before reading)."""
    import json
    import socket
    import time

    pytest.importorskip("sentence_transformers")
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    app = create_app(ServerConfig(relevance="dense", max_encoding_documents=4))
    body = json.dumps({"query": QUERY, "documents": _docs(3, "late")}).encode()
    with serve(app) as url:
        port, gate = int(url.rsplit(":", 1)[1]), app.state.service.gate
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"POST /v2/rerank HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                         b"content-length: %d\r\n\r\n" % len(body) + body[:10])
            time.sleep(0.5)  # the server has read the headers, found room and waits for the body
            with gate.admit(4):  # another request takes the budget meanwhile
                sock.sendall(body[10:])
                head, _, reply = sock.recv(65536).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 ")
    assert json.loads(reply)["error"]["message"].startswith(
        "the server is encoding 4 pages for other requests and no request's new pages fit")
