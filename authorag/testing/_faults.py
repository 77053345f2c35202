"""A fault-injecting OpenAI-compatible chat server on loopback (shipped for tests).

Judges talk to model servers over HTTP, and those servers hang, throttle, crash and answer
nonsense. :func:`serve_faulty_openai` starts a stdlib HTTP server on 127.0.0.1 that answers
``POST /v1/chat/completions`` in the mode you set, so tests can drive the real ``openai``
client, the backend and the rerank server through every failure:

============  ====================================================================
mode          answer
============  ====================================================================
ok            200, a normal completion (``answer``, with logprobs when asked)
hang          never answers (until the server stops)
slow          answers ``ok`` after ``delay_s`` seconds
429           429 with ``Retry-After: <retry_after>``
500, 503      that status with an OpenAI-style error body
garbage       200, ``application/json`` that is not JSON
truncated     200, a completion cut in half
wrong_ids     200, list answers for identifiers that were never asked
huge          200, a completion of ``huge_chars`` characters
no_logprobs   200, a completion without logprobs although they were asked for
html          200, ``text/html`` error page
text          200, ``text/plain``
json_list     200, a JSON list instead of an object
bad_logprob   200, ``"logprob": "abc"``
choices_str   200, ``"choices": "7"``
============  ====================================================================

Example:
    >>> import json, urllib.request
    >>> with serve_faulty_openai("ok", answer="7") as server:
    ...     req = urllib.request.Request(server.base_url + "/chat/completions", data=b"{}",
    ...                                  headers={"Content-Type": "application/json"})
    ...     json.load(urllib.request.urlopen(req))["choices"][0]["message"]["content"]
    '7'
"""
from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal, get_args

from authorag.errors import ConfigError

FaultMode = Literal["ok", "hang", "slow", "429", "500", "503", "garbage", "truncated", "wrong_ids", "huge",
                    "no_logprobs", "html", "text", "json_list", "bad_logprob", "choices_str"]
FAULT_MODES: tuple[FaultMode, ...] = get_args(FaultMode)


@dataclass
class FaultServer:
    """State of a running fault server; change ``mode`` (or ``script``) between requests.

    Attributes:
        base_url: the ``/v1`` root to give a client.
        mode: how the next request is answered (when ``script`` is empty).
        script: modes for the next requests, used first to last, then ``mode``.
        answer: the completion text, or a function of the request body.
        requests: every request body received.
    """

    base_url: str = ""
    mode: FaultMode = "ok"
    script: list[FaultMode] = field(default_factory=list[FaultMode])
    answer: str | Callable[[dict[str, Any]], str] = "7"
    delay_s: float = 1.0
    retry_after: float = 1.0
    huge_chars: int = 2_000_000
    requests: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    stopping: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_mode(self, body: dict[str, Any]) -> FaultMode:
        """Record a request and pick its mode."""
        with self.lock:
            self.requests.append(body)
            return self.script.pop(0) if self.script else self.mode

    def text(self, body: dict[str, Any]) -> str:
        """The completion text for a request."""
        return self.answer(body) if callable(self.answer) else self.answer

    def respond(self, mode: FaultMode, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, payload) for one request in ``mode``."""
        if mode == "hang":
            self.stopping.wait(600)
            return 503, _JSON, b'{"error": {"message": "server stopping"}}'
        if mode == "slow":
            self.stopping.wait(self.delay_s)
        if mode in ("429", "500", "503"):
            headers = {**_JSON, "Retry-After": f"{self.retry_after:g}"} if mode == "429" else _JSON
            error = {"error": {"message": f"injected HTTP {mode}", "type": "server_error", "code": int(mode)}}
            return int(mode), headers, json.dumps(error).encode()
        if mode in _RAW:
            content_type, payload = _RAW[mode]
            return 200, {"Content-Type": content_type}, payload
        return 200, _JSON, self._completion(mode, body)

    def _completion(self, mode: FaultMode, body: dict[str, Any]) -> bytes:
        text = self.text(body)
        if mode == "wrong_ids":
            text = "\n".join(f"[{90 + i}]: {i % 10}" for i in range(3))
        elif mode == "huge":
            text = ("9 " * (self.huge_chars // 2 + 1))[: self.huge_chars]
        choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": text},
                                  "finish_reason": "stop"}
        if body.get("logprobs") and mode != "no_logprobs":
            choice["logprobs"] = _logprobs(text, bad=mode == "bad_logprob")
        data: dict[str, Any] = {"id": "fault-1", "object": "chat.completion", "created": int(time.time()),
                                "model": str(body.get("model", "fault")), "choices": [choice],
                                "usage": {"prompt_tokens": 10, "completion_tokens": max(1, len(text) // 4),
                                          "total_tokens": 10 + max(1, len(text) // 4)}}
        if mode == "choices_str":
            data["choices"] = "7"
        payload = json.dumps(data).encode()
        return payload[: len(payload) // 2] if mode == "truncated" else payload


_JSON = {"Content-Type": "application/json"}
_RAW: dict[str, tuple[str, bytes]] = {
    "garbage": ("application/json", b"\x00\xffnot json at all {{{"),
    "html": ("text/html", b"<html><body><h1>502 Bad Gateway</h1></body></html>"),
    "text": ("text/plain", b"7"),
    "json_list": ("application/json", b"[1, 2, 3]"),
}


def _logprobs(text: str, *, bad: bool) -> dict[str, Any]:
    token = text[:1] or " "
    top = [{"token": str(d), "logprob": 0.0 if str(d) == token else math.log(1e-4)} for d in range(10)]
    entry: dict[str, Any] = {"token": token, "logprob": "abc" if bad else 0.0, "top_logprobs": top}
    return {"content": [entry]}


def _handler(state: FaultServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = {}
            body = body if isinstance(body, dict) else {}
            status, headers, payload = state.respond(state.next_mode(body), body)
            self._send(status, headers, payload)

        def do_GET(self) -> None:
            self._send(200, _JSON, json.dumps({"object": "list", "data": [{"id": "fault", "object": "model"}]}).encode())

        def _send(self, status: int, headers: dict[str, str], payload: bytes) -> None:
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout or deadline passed)

        def log_message(self, format: str, *args: Any) -> None:
            del format, args

    return Handler


@contextmanager
def serve_faulty_openai(mode: FaultMode = "ok", *, answer: str | Callable[[dict[str, Any]], str] = "7",
                        script: Sequence[FaultMode] = (), delay_s: float = 1.0, retry_after: float = 1.0,
                        huge_chars: int = 2_000_000) -> Generator[FaultServer]:
    """Run a :class:`FaultServer` on 127.0.0.1 (a free port) until the block exits.

    Raises:
        ConfigError: an unknown mode.
    """
    for m in (mode, *script):
        if m not in FAULT_MODES:
            raise ConfigError(f"unknown fault mode {m!r}; choose from {list(FAULT_MODES)}")
    state = FaultServer(mode=mode, script=list(script), answer=answer, delay_s=delay_s,
                        retry_after=retry_after, huge_chars=huge_chars)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, name="authorag-fault-server", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.stopping.set()
        server.shutdown()
        server.server_close()


__all__ = ["FAULT_MODES", "FaultMode", "FaultServer", "serve_faulty_openai"]
