"""Hostile requests on a real server: no 500, no traceback, the JSON error shape everywhere.

Each test failed on the code before its fix (the docstring says how).
"""
from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from authorag.cli import main
from authorag.server.app import create_app
from authorag.server.config import ServerConfig
from authorag.server.protocol import JSONH11Protocol, JSONHttpToolsProtocol

AUTH = {"Authorization": "Bearer test-key"}  # as in conftest
PROTOCOLS = [p for p in (JSONH11Protocol, JSONHttpToolsProtocol) if p is not None]


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text[:300]
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["version"] == 1 and body["error"]["code"] == code and body["error"]["status"] == status
    return str(body["error"]["message"])


def test_unclosed_ipv6_url_in_an_audit_is_not_a_500(server_url: str) -> None:
    """Was: ValueError('Invalid IPv6 URL') in the audit's URL key: HTTP 500."""
    body = {"question": "q", "answer": "It holds [1]. See https://[ and [x](https://[::1).",
            "sources": [{"id": "1", "url": "https://["}]}
    r = httpx.post(f"{server_url}/v1/audit", json=body, headers=AUTH)
    assert r.status_code == 200, r.text
    assert [(s["url"], s["domain"]) for s in r.json()["sources"]] == [("https://[", None)]


def test_cli_audit_of_an_unclosed_ipv6_url_prints_no_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: a ValueError traceback from `authorag audit`."""
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"question": "q", "answer": "It holds [1].", "sources": [{"id": "1", "url": "https://["}]}))
    assert main(["audit", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sources"][0]["url"] == "https://["


def test_echoed_nan_and_huge_integer_together_are_json(server_url: str) -> None:
    """Was: orjson refused the integer, the fallback refused NaN: HTTP 500."""
    content = (b'{"query": "q", "return_documents": true, "documents": [{"text": "a", "n": NaN, '
               b'"big": 18446744073709551616, "inf": [Infinity, -Infinity], "ok": 1.5}]}')
    r = httpx.post(f"{server_url}/rerank", content=content, headers={**AUTH, "content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["document"] == {"text": "a", "n": None, "big": 18446744073709551616,
                                                  "inf": [None, None], "ok": 1.5}


def test_audit_route_has_its_own_metrics_series(server_url: str) -> None:
    """Was: /v1/audit was counted as route="other"."""
    httpx.post(f"{server_url}/v1/audit", json={"question": "q", "answer": "a"}, headers=AUTH)
    assert 'route="/v1/audit",status="200"' in httpx.get(f"{server_url}/metrics", headers=AUTH).text


@pytest.fixture(scope="module")
def timed_url(serve: Any) -> Iterator[str]:
    """A server with a 1 s read timeout, run with the JSON-error protocol of `authorag serve`."""
    with serve(create_app(ServerConfig(relevance="rank", read_timeout_s=1.0)), http=PROTOCOLS[-1]) as url:
        yield url


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def _read_all(sock: socket.socket, seconds: float = 10) -> bytes:
    sock.settimeout(seconds)
    out = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            return out
        if not chunk:
            return out
        out += chunk


def _split(raw: bytes) -> tuple[str, dict[str, str], dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return lines[0], headers, json.loads(body)


def test_a_slow_body_gets_408_and_the_connection_closes(timed_url: str) -> None:
    """Was: no timeout for reading a body: 300 slow-body connections stayed open 45 s."""
    with socket.create_connection(("127.0.0.1", _port(timed_url))) as sock:
        sock.sendall(b"POST /v1/rerank HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"query\"")
        start = time.monotonic()
        raw = _read_all(sock)  # the whole answer, then the server closes the connection
        took = time.monotonic() - start
    status, headers, body = _split(raw)
    assert status.startswith("HTTP/1.1 408") and headers["connection"] == "close", raw
    assert body["error"]["code"] == "request_timeout"
    assert body["error"]["message"].startswith("the request body did not arrive within 1 s (got 8 bytes)")
    assert 0.9 < took < 5, took


def test_a_body_timer_that_fires_early_is_still_a_timeout() -> None:
    """Was: the body deadline's own cancellation was told from others' by the clock, and uvloop's
    timers fire up to about a millisecond early: the cancellation escaped as a CancelledError (a
    500 from ``authorag mcp --transport http`` on about half the slow bodies)."""
    import asyncio

    from authorag.server.middleware import _within  # pyright: ignore[reportPrivateUsage]

    async def never() -> Any:
        await asyncio.Event().wait()

    async def early_timers() -> tuple[Any, float]:
        loop = asyncio.get_running_loop()
        on_time = loop.call_later
        loop.call_later = lambda delay, callback, *args: on_time(delay / 2, callback, *args)  # type: ignore[method-assign]
        start = time.monotonic()
        return await _within(never, start + 0.2), time.monotonic() - start

    got, took = asyncio.run(early_timers())
    assert got is None and took < 0.2, took

    async def cancelled_by_another() -> None:  # a cancellation that is not the timer's still goes through
        task = asyncio.ensure_future(_within(never, time.monotonic() + 5))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancelled_by_another())


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_slow_headers_get_408_and_the_connection_closes(serve: Any, protocol: type) -> None:
    """Was: uvicorn waits for request headers without a time limit (slowloris)."""
    import os

    os.environ["AUTHORAG_READ_TIMEOUT_S"] = "1"
    from authorag.server import protocol as module

    module._TIMEOUT._value = None  # re-read the setting in this process
    try:
        with serve(create_app(ServerConfig(relevance="rank")), http=protocol) as url:
            with socket.create_connection(("127.0.0.1", _port(url))) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # no blank line: headers never end
                start = time.monotonic()
                raw = _read_all(sock)
                took = time.monotonic() - start
            with socket.create_connection(("127.0.0.1", _port(url))) as sock:  # keep-alive: the next request too
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                first = b""
                while b'"ok"' not in first:
                    first += sock.recv(4096)
                sock.sendall(b"GET /heal")
                second = _read_all(sock)
    finally:
        del os.environ["AUTHORAG_READ_TIMEOUT_S"]
        module._TIMEOUT._value = None
    status, headers, body = _split(raw)
    assert status.startswith("HTTP/1.1 408") and headers["connection"] == "close"
    assert body["error"]["message"].startswith("the request headers did not arrive within 1 s")
    assert 0.9 < took < 5, took
    assert _split(second)[2]["error"]["code"] == "request_timeout"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_requests_uvicorn_cannot_parse_get_the_json_error_shape(serve: Any, protocol: type) -> None:
    """Was: uvicorn's own 400 was text/plain 'Invalid HTTP request received.'"""
    with serve(create_app(ServerConfig(relevance="rank")), http=protocol) as url:
        for junk in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
                     b"POST /v1/rerank HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"):
            with socket.create_connection(("127.0.0.1", _port(url))) as sock:
                sock.sendall(junk)
                status, headers, body = _split(_read_all(sock))
            assert status.startswith("HTTP/1.1 400") and headers["content-type"] == "application/json", junk
            assert body == {"version": 1, "error": {"code": "bad_request", "status": 400, "message": (
                "the request is not valid HTTP/1.1 (a malformed request line, header or chunked body); "
                "send a well-formed request")}}


def test_a_client_that_leaves_mid_upload_is_not_a_500(timed_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Was: logged as 'unexpected ClientDisconnect' with a traceback and counted as a 500."""
    with caplog.at_level(logging.INFO):
        with socket.create_connection(("127.0.0.1", _port(timed_url))) as sock:
            sock.sendall(b"POST /v2/rerank HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1000\r\n\r\n{\"query\": \"q\"")
            time.sleep(0.2)
        deadline = time.monotonic() + 5
        while 'status="499"' not in (text := httpx.get(f"{timed_url}/metrics").text) and time.monotonic() < deadline:
            time.sleep(0.05)
    assert 'authorag_requests_total{method="POST",route="/v2/rerank",status="499"} 1' in text
    assert 'status="500"' not in text and 'authorag_errors_total{code="client_disconnected"} 1' in text
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or "unexpected" in r.getMessage()]


def test_audit_statement_citations_must_be_a_list(server_url: str) -> None:
    """Was: "citations": true was a TypeError (HTTP 500); "citations": "file" cited 'f', 'i', ..."""
    for value, shown in ((True, "True"), ("file", "'file'")):
        body = {"question": "q", "answer": "x", "statements": [{"text": "t", "citations": value}]}
        msg = _error(httpx.post(f"{server_url}/v1/audit", json=body, headers=AUTH), 422, "invalid_request")
        assert msg == f"statements[0]: 'citations' must be a list of source ids like [\"1\", \"2\"], got {shown}"
