"""OpenAIBackend against a real OpenAI-compatible server on loopback (xllamacpp + SmolLM2-135M).

Failures are made by a small stdlib HTTP proxy in front of the real server (503s, 500 on
json_schema, slow answers); the ``openai`` client itself is never mocked. SmolLM2's answers
are noise: only their shape and format are asserted.
"""
from __future__ import annotations

import asyncio
import json
import math
import re
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from authorag.errors import ConfigError, JudgeError, MissingDependencyError
from authorag.judges.backends.base import ChatRequest
from authorag.judges.backends.openai_compat import OpenAIBackend

DIGIT = "root ::= [0-9]"
MESSAGES = [
    {"role": "system", "content": "Rate how authoritative a web domain is, 0 to 9."},
    {"role": "user", "content": "Domain: nature.com"},
]
SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 9}},
    "required": ["score"],
}


def _digit_request(**kw: object) -> ChatRequest:
    return ChatRequest(messages=MESSAGES, max_tokens=1, grammar=DIGIT, **kw)  # type: ignore[arg-type]


# --- a stdlib proxy that can fail on purpose -------------------------------------------------

Rule = Callable[[int, dict[str, object]], "tuple[int, dict[str, object]] | None"]


@dataclass
class Proxy:
    upstream: str
    rule: Rule
    delay_s: float = 0.0
    bodies: list[dict[str, object]] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def handle(self, body: dict[str, object]) -> tuple[int, bytes]:
        with self.lock:
            self.bodies.append(body)
            n = len(self.bodies)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            time.sleep(self.delay_s)
            canned = self.rule(n, body)
            if canned is not None:
                return canned[0], json.dumps(canned[1]).encode()
            req = urllib.request.Request(self.upstream + "/chat/completions",
                                         data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=120) as resp:
                return resp.status, resp.read()
        finally:
            with self.lock:
                self.in_flight -= 1


@contextmanager
def proxy(upstream: str, rule: Rule, delay_s: float = 0.0) -> Iterator[tuple[str, Proxy]]:
    state = Proxy(upstream, rule, delay_s)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            status, payload = state.handle(json.loads(self.rfile.read(length)))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            try:
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", state
    finally:
        server.shutdown()
        server.server_close()


def fail_first(n_failures: int, status: int) -> Rule:
    def rule(n: int, body: dict[str, object]) -> tuple[int, dict[str, object]] | None:
        if n <= n_failures:
            return status, {"error": {"code": status, "message": "try later"}}
        return None

    return rule


def pass_through(n: int, body: dict[str, object]) -> None:
    return None


# --- against the real server ------------------------------------------------------------------


def test_chat_returns_text_and_usage(openai_server: str) -> None:
    backend = OpenAIBackend(openai_server, model="smollm2", timeout=60)
    completion = backend.complete(ChatRequest(messages=MESSAGES, max_tokens=4))
    assert completion.text.strip()
    assert completion.prompt_tokens > 10
    assert 1 <= completion.completion_tokens <= 4
    assert completion.latency_s > 0
    assert completion.cached is False and completion.dropped_features == ()


def test_grammar_gives_one_digit(openai_server: str) -> None:
    backend = OpenAIBackend(openai_server, model="smollm2")
    completion = backend.complete(_digit_request())
    assert re.fullmatch(r"[0-9]", completion.text)
    assert completion.logprobs is None


def test_logprobs_have_top_alternatives(openai_server: str) -> None:
    backend = OpenAIBackend(openai_server, model="smollm2")
    completion = backend.complete(_digit_request(logprobs=True, top_logprobs=10))
    assert completion.logprobs is not None and len(completion.logprobs) == 1
    token = completion.logprobs[0]
    assert token.token == completion.text
    assert 2 <= len(token.top) <= 10
    assert all(lp <= 0.0 for lp in token.top.values())
    assert token.logprob <= 0.0


def test_constrained_probs_cover_every_digit(openai_server: str) -> None:
    backend = OpenAIBackend(openai_server, model="smollm2")
    completion = backend.complete(_digit_request(logprobs=True, constrained_probs=True))
    assert completion.logprobs is not None and completion.dropped_features == ()
    top = completion.logprobs[0].top
    assert sorted(top) == list("0123456789")
    assert sum(math.exp(v) for v in top.values()) == pytest.approx(1.0, abs=1e-3)
    assert completion.text in top


def test_json_schema_output_parses(openai_server: str) -> None:
    backend = OpenAIBackend(openai_server, model="smollm2")
    completion = backend.complete(ChatRequest(messages=MESSAGES, max_tokens=40, json_schema=SCHEMA))
    data = json.loads(completion.text)
    assert isinstance(data["score"], int) and 0 <= data["score"] <= 9


async def test_async_requests_are_bounded_by_concurrency(openai_server: str) -> None:
    with proxy(openai_server, pass_through) as (url, state):
        backend = OpenAIBackend(url, model="smollm2", concurrency=1)
        answers = await asyncio.gather(*(backend.acomplete(_digit_request()) for _ in range(3)))
    assert [bool(re.fullmatch(r"[0-9]", a.text)) for a in answers] == [True, True, True]
    assert state.max_in_flight == 1


# --- retries, fallbacks and errors --------------------------------------------------------------


def test_retries_with_backoff_after_503s(openai_server: str) -> None:
    with proxy(openai_server, fail_first(2, 503)) as (url, state):
        backend = OpenAIBackend(url, model="smollm2", max_retries=3, backoff_s=0.1)
        start = time.perf_counter()
        completion = backend.complete(_digit_request())
        elapsed = time.perf_counter() - start
    assert re.fullmatch(r"[0-9]", completion.text)
    assert len(state.bodies) == 3
    assert elapsed >= 0.1 + 0.2  # two backoffs: 0.1 s, then doubled


async def test_async_retries_after_429(openai_server: str) -> None:
    with proxy(openai_server, fail_first(1, 429)) as (url, state):
        async with OpenAIBackend(url, model="smollm2", max_retries=1, backoff_s=0.01) as backend:
            completion = await backend.acomplete(_digit_request())
    assert re.fullmatch(r"[0-9]", completion.text)
    assert len(state.bodies) == 2


def test_gives_up_after_max_retries(openai_server: str) -> None:
    with proxy(openai_server, fail_first(10, 503)) as (url, state):
        backend = OpenAIBackend(url, model="smollm2", max_retries=2, backoff_s=0.01)
        with pytest.raises(JudgeError, match=r"answered HTTP 503 after 3 attempt\(s\)"):
            backend.complete(ChatRequest(messages=MESSAGES))
    assert len(state.bodies) == 3


def test_client_errors_are_not_retried(openai_server: str) -> None:
    with proxy(openai_server, fail_first(10, 404)) as (url, state):
        backend = OpenAIBackend(url, model="nope", max_retries=3, backoff_s=0.01)
        with pytest.raises(JudgeError, match=r"HTTP 404 after 1 attempt.*model='nope'"):
            backend.complete(ChatRequest(messages=MESSAGES))
    assert len(state.bodies) == 1


def test_rejected_json_schema_falls_back_and_is_remembered(openai_server: str) -> None:
    def reject_schema(n: int, body: dict[str, object]) -> tuple[int, dict[str, object]] | None:
        if "response_format" in body:
            return 500, {"error": {"message": "json_schema is not supported"}}
        return None

    with proxy(openai_server, reject_schema) as (url, state):
        backend = OpenAIBackend(url, model="smollm2")
        request = ChatRequest(messages=MESSAGES, max_tokens=4, json_schema=SCHEMA, grammar=DIGIT)
        first = backend.complete(request)
        second = backend.complete(request)
    assert first.dropped_features == ("json_schema",) == second.dropped_features
    assert re.fullmatch(r"[0-9]", first.text)  # the grammar still applied
    assert backend.unsupported == frozenset({"json_schema"})
    # the first 500 is retried unchanged (it may be transient); the second one drops the feature
    assert ["response_format" in b for b in state.bodies] == [True, True, False, False]


def test_rejected_constrained_probs_falls_back_to_raw_logprobs(openai_server: str) -> None:
    def reject(n: int, body: dict[str, object]) -> tuple[int, dict[str, object]] | None:
        if "post_sampling_probs" in body:
            return 400, {"error": {"message": "unknown field post_sampling_probs"}}
        return None

    with proxy(openai_server, reject) as (url, state):
        backend = OpenAIBackend(url, model="smollm2")
        completion = backend.complete(_digit_request(logprobs=True, constrained_probs=True))
    assert completion.dropped_features == ("constrained_probs",)
    assert completion.logprobs is not None and len(completion.logprobs[0].top) >= 2
    assert [b["temperature"] for b in state.bodies] == [1.0, 0.0]


def test_fallback_can_be_turned_off(openai_server: str) -> None:
    with proxy(openai_server, fail_first(10, 500)) as (url, _state):
        backend = OpenAIBackend(url, model="smollm2", fallback=False, max_retries=0)
        with pytest.raises(JudgeError, match="answered HTTP 500 after 1 attempt"):
            backend.complete(_digit_request())


def test_disabled_features_are_not_sent(openai_server: str) -> None:
    with proxy(openai_server, pass_through) as (url, state):
        backend = OpenAIBackend(url, model="smollm2", disable=["logprobs"])
        completion = backend.complete(_digit_request(logprobs=True))
    assert "logprobs" not in state.bodies[0] and state.bodies[0]["grammar"] == DIGIT
    assert completion.dropped_features == ("logprobs",) and completion.logprobs is None


def test_timeout_error_text(openai_server: str) -> None:
    with proxy(openai_server, pass_through, delay_s=1.0) as (url, _state):
        backend = OpenAIBackend(url, model="smollm2", timeout=0.2, max_retries=0)
        with pytest.raises(JudgeError, match=r"timed out \(timeout=0.2 s\) after 1 attempt"):
            backend.complete(_digit_request())


def test_connection_refused_error_text() -> None:
    with proxy("http://127.0.0.1:9", pass_through) as (url, _state):
        closed = url  # the proxy's port is closed once the block ends
    backend = OpenAIBackend(closed, model="m", max_retries=1, backoff_s=0.01)
    with pytest.raises(JudgeError, match=r"cannot connect to .* after 2 attempt\(s\).*ends in /v1"):
        backend.complete(ChatRequest(messages=MESSAGES))


# --- construction -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"timeout": 0}, "timeout must be > 0 seconds, got 0"),
        ({"max_retries": -1}, "max_retries must be >= 0, got -1"),
        ({"concurrency": 0}, "concurrency must be >= 1, got 0"),
        ({"model": ""}, "model must be a non-empty model name"),
        ({"disable": ["tools"]}, r"unknown feature 'tools' in disable=; allowed: \["),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"model": "m", **kwargs}
    with pytest.raises(ConfigError, match=message):
        OpenAIBackend("http://127.0.0.1:1/v1", **args)  # type: ignore[arg-type]


def test_missing_openai_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(MissingDependencyError, match=r"OpenAIBackend.*pip install 'authorag\[llm\]'"):
        OpenAIBackend("http://127.0.0.1:1/v1", model="m")
