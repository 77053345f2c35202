"""Issue 13: hostile input never gets a 500 or plain text; keys, headers, methods, content types.

Every test here failed on the code before the fix (the failure it pinned is in its docstring).
"""
from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from authorag.compose import ScorerSettings
from authorag.server.app import create_app
from authorag.server.config import ServerConfig

API_KEY = "test-key"  # as in conftest
AUTH = {"Authorization": f"Bearer {API_KEY}"}


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["version"] == 1 and body["error"]["code"] == code and body["error"]["status"] == status
    return str(body["error"]["message"])


# --- item 3: no unauthenticated 500s, always the documented JSON shape ---------------------

def test_huge_max_tokens_per_doc_is_422_not_500(server_url: str) -> None:
    """Was: OverflowError in documents.truncate -> plain-text 500."""
    body = {"query": "q", "documents": ["a b c"], "max_tokens_per_doc": 2**63}
    msg = _error(httpx.post(f"{server_url}/v1/rerank", json=body, headers=AUTH), 422, "invalid_request")
    assert "max_tokens_per_doc: Input should be less than or equal to 2147483647" in msg


def test_largest_allowed_max_tokens_per_doc_is_fine(server_url: str) -> None:
    body = {"query": "q", "documents": ["a b c"], "max_tokens_per_doc": 2**31 - 1}
    assert httpx.post(f"{server_url}/v1/rerank", json=body, headers=AUTH).status_code == 200


def test_document_object_with_a_huge_integer_is_echoed(server_url: str) -> None:
    """Was: orjson TypeError ('Integer exceeds 64-bit range') -> plain-text 500."""
    content = b'{"query": "q", "return_documents": true, "documents": [{"text": "a", "n": 18446744073709551616}]}'
    r = httpx.post(f"{server_url}/rerank", content=content, headers={**AUTH, "content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["document"] == {"text": "a", "n": 18446744073709551616}


def test_unexpected_errors_are_json_500(serve: Any) -> None:
    """Was: no catch-all handler, so any bug answered 'Internal Server Error' as text/plain."""

    class BrokenScorer:
        name = "broken"

        def score(self, candidates: object) -> list[object]:
            raise RuntimeError("boom")

    app = create_app(ServerConfig(relevance="rank"), scorer=BrokenScorer())  # type: ignore[arg-type]
    with serve(app) as url:
        r = httpx.post(f"{url}/v1/authority", json={"urls": ["nih.gov"]})
    msg = _error(r, 500, "internal_error")
    assert "RuntimeError" in msg and "boom" not in msg


# --- item 9: API keys ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def unicode_key_url(serve: Any) -> Iterator[str]:
    with serve(create_app(ServerConfig(relevance="rank", api_key="clé-secrète-ü"))) as url:
        yield url


def test_non_ascii_api_key_authenticates(unicode_key_url: str) -> None:
    """Was: the header was decoded as latin-1 and re-encoded as UTF-8, so it never matched."""
    header = {"authorization": "Bearer clé-secrète-ü".encode()}
    r = httpx.post(f"{unicode_key_url}/v1/authority", json={"urls": ["nih.gov"]}, headers=header)
    assert r.status_code == 200, r.text
    wrong = {"authorization": "Bearer clé-secrète-u".encode()}
    _error(httpx.post(f"{unicode_key_url}/v1/authority", json={"urls": ["nih.gov"]}, headers=wrong), 401, "unauthorized")


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer", "bEaReR"])
def test_bearer_scheme_is_case_insensitive(server_url: str, scheme: str) -> None:
    """Was: only 'Bearer' with a capital B matched (RFC 9110: schemes are case-insensitive)."""
    r = httpx.post(f"{server_url}/v1/authority", json={"urls": ["nih.gov"]},
                   headers={"Authorization": f"{scheme} {API_KEY}"})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("value", ["Basic test-key", "test-key", "Bearer", "Bearer test-key2", ""])
def test_other_schemes_and_wrong_keys_are_401(server_url: str, value: str) -> None:
    r = httpx.post(f"{server_url}/v1/authority", json={"urls": ["nih.gov"]}, headers={"Authorization": value})
    _error(r, 401, "unauthorized")


# --- item 10: HTTP hygiene -----------------------------------------------------------------

@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          None])
def test_non_json_bodies_are_415(server_url: str, content_type: str | None) -> None:
    """Was: any Content-Type was parsed as JSON, so a web page could make a browser POST a
    'simple' (preflight-free) request to an open server on localhost."""
    headers = {**AUTH, **({"content-type": content_type} if content_type else {})}
    r = httpx.post(f"{server_url}/v1/rerank", content=b'{"query": "q", "documents": ["a"]}', headers=headers)
    assert "Content-Type: application/json" in _error(r, 415, "unsupported_media_type")


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON", "application/vnd.api+json"])
def test_json_content_types_are_accepted(server_url: str, content_type: str) -> None:
    r = httpx.post(f"{server_url}/v1/rerank", content=b'{"query": "q", "documents": ["a"]}',
                   headers={**AUTH, "content-type": content_type})
    assert r.status_code == 200, r.text


def test_huge_headers_are_431(server_url: str) -> None:
    """Was: a 4 MB header was accepted (httptools) and one near h11's buffer limit too."""
    r = httpx.get(f"{server_url}/healthz", headers={"x-big": "a" * 100_000})
    assert "limit is 32768" in _error(r, 431, "headers_too_large")


def _raw_request(url: str, method: str) -> bytes:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"{method} /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        return sock.recv(65536)


def test_made_up_methods_share_one_metrics_series(serve: Any) -> None:
    """Was: under h11 every made-up method name became a new Prometheus series."""
    app = create_app(ServerConfig(relevance="rank"))
    with serve(app, http="h11") as url:
        for i in range(20):
            assert b" 405 " in _raw_request(url, f"FOO{i}").split(b"\r\n", 1)[0] + b" "
        text = httpx.get(f"{url}/metrics").text
    assert 'authorag_requests_total{method="other",route="/healthz",status="405"} 20' in text
    assert "FOO" not in text


# --- item 6: no credentials in /readyz -----------------------------------------------------

def test_readyz_redacts_judge_base_url_userinfo(serve: Any) -> None:
    """Was: /readyz (open without a key) showed judge_base_url as given, password included."""
    cfg = ServerConfig(relevance="rank", scorer=ScorerSettings(judge_base_url="http://user:PASS@127.0.0.1:9/v1"),
                       api_key="k")
    with serve(create_app(cfg)) as url:
        ready = httpx.get(f"{url}/readyz")
    assert ready.status_code == 200
    assert "PASS" not in ready.text
    assert ready.json()["config"]["scorer"]["judge_base_url"] == "http://127.0.0.1:9/v1"


# --- item 1: the judge deadline is a setting (config, env, CLI) ---------------------------

def test_judge_settings_from_env_and_their_errors() -> None:
    from authorag.errors import ConfigError

    cfg = ServerConfig.from_env({"AUTHORAG_JUDGE_DEADLINE_S": "2.5", "AUTHORAG_JUDGE_WORKERS": "3",
                                 "AUTHORAG_MAX_HEADER_BYTES": "4096"})
    assert (cfg.judge_deadline_s, cfg.judge_workers, cfg.max_header_bytes) == (2.5, 3, 4096)
    assert cfg.to_env()["AUTHORAG_JUDGE_DEADLINE_S"] == "2.5"
    with pytest.raises(ConfigError, match=r"judge_deadline_s must be in \(0, 3600\] seconds, got 0.0"):
        ServerConfig(judge_deadline_s=0.0)
    with pytest.raises(ConfigError, match="judge_workers must be a positive integer, got 0"):
        ServerConfig(judge_workers=0)


def test_serve_cli_passes_judge_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import uvicorn

    from authorag.cli import main

    seen: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: seen.update(kw))  # the process boundary
    monkeypatch.setattr(os, "environ", {k: v for k, v in os.environ.items() if not k.startswith("AUTHORAG_")})
    assert main(["serve", "--judge-deadline", "1.5", "--judge-workers", "2", "--max-header-bytes", "9000"]) == 0
    assert os.environ["AUTHORAG_JUDGE_DEADLINE_S"] == "1.5" and os.environ["AUTHORAG_JUDGE_WORKERS"] == "2"
    assert seen["h11_max_incomplete_event_size"] == 9000
