"""Pure ASGI middleware: request header and body limits (431, 413), bearer keys (401) and metrics.

Pure ASGI (not ``BaseHTTPMiddleware``) keeps the per-request cost to a few function calls.
"""
from __future__ import annotations

import hmac
import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException

from authorag.server.metrics import Metrics
from authorag.server.schemas import error_body

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

KNOWN_METHODS: frozenset[str] = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods counted under their own name; any other (h11 passes made-up ones) counts as ``other``."""

KNOWN_ROUTES: frozenset[str] = frozenset({
    "/v1/rerank", "/v2/rerank", "/rerank", "/v1/authority", "/healthz", "/readyz", "/metrics",
    "/openapi.json", "/docs",
})


async def send_error(send: Send, status: int, code: str, message: str) -> None:
    """Send a complete JSON error response in the stable shape."""
    body = json.dumps(error_body(status, code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class BodyLimitMiddleware:
    """Reject request bodies larger than ``max_bytes`` with 413, declared or streamed, and
    header blocks larger than ``max_header_bytes`` with 431.

    A declared ``Content-Length`` over the limit is refused before the body is read; a chunked
    body is counted while it is read and refused as soon as it passes the limit. (The HTTP
    server has already read the headers by then; ``authorag serve`` also passes the header
    limit to uvicorn's h11 parser.)
    """

    def __init__(self, app: ASGIApp, max_bytes: int, metrics: Metrics, max_header_bytes: int = 32 * 1024) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_header_bytes = max_header_bytes
        self.metrics = metrics

    def _message(self, size: int | None) -> str:
        got = "more" if size is None else f"{size} bytes"
        return (f"request body is too large: got {got}, the limit is {self.max_bytes} bytes; send fewer or "
                "shorter documents, or raise the server's --max-body-bytes")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header_bytes = sum(len(name) + len(value) + 4 for name, value in scope.get("headers", ()))
        if header_bytes > self.max_header_bytes:
            self.metrics.observe_error("headers_too_large")
            await send_error(send, 431, "headers_too_large",
                             f"request headers are too large: got {header_bytes} bytes, the limit is "
                             f"{self.max_header_bytes}; send fewer or shorter headers, or raise the server's "
                             "--max-header-bytes")
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            self.metrics.observe_error("payload_too_large")
            await send_error(send, 413, "payload_too_large", self._message(declared))
            return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # An HTTPException passes FastAPI's body parsing untouched and reaches the
                    # app's exception handler, which writes the stable error shape.
                    raise HTTPException(413, detail=self._message(None))
            return message

        await self.app(scope, limited_receive, send)


def bearer_token(scope: Scope) -> bytes:
    """The token of an ``Authorization: Bearer <token>`` header (raw bytes), ``b""`` when none.

    Compared as UTF-8 bytes (a non-ASCII key could never match when the header was decoded as
    latin-1 and re-encoded); the scheme is case-insensitive (RFC 9110 section 11.1).

    Example:
        >>> bearer_token({"headers": [(b"authorization", b"bearer k1")]}), bearer_token({"headers": []})
        (b'k1', b'')
    """
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = bytes(value).strip().partition(b" ")
            return token.strip() if scheme.lower() == b"bearer" else b""
    return b""


UNAUTHORIZED = ("missing or wrong API key: send 'Authorization: Bearer <key>' with the key the server was "
                "started with")
"""The 401 message of every HTTP front door (the rerank API and the MCP server)."""


class BearerAuthMiddleware:
    """Answer 401 (with ``WWW-Authenticate: Bearer``) to HTTP requests without the server's key.

    For apps without per-route dependencies (the MCP server's streamable HTTP endpoint); the
    rerank API checks the same token per route. ``open_paths`` (health probes) need no key.
    """

    def __init__(self, app: ASGIApp, api_key: str, metrics: Metrics,
                 open_paths: frozenset[str] = frozenset({"/healthz", "/readyz"})) -> None:
        self.app = app
        self.expected = api_key.encode("utf-8")
        self.metrics = metrics
        self.open_paths = open_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope.get("path") in self.open_paths
                or hmac.compare_digest(bearer_token(scope), self.expected)):
            await self.app(scope, receive, send)
            return
        self.metrics.observe_error("unauthorized")
        body = json.dumps(error_body(401, "unauthorized", UNAUTHORIZED)).encode()
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"www-authenticate", b"Bearer")]})
        await send({"type": "http.response.body", "body": body})


class MetricsMiddleware:
    """Count every HTTP request by method, route and status, with its latency."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            path = str(scope.get("path", ""))
            route = path if path in KNOWN_ROUTES else "other"
            method = str(scope.get("method", ""))
            self.metrics.observe_request(method if method in KNOWN_METHODS else "other", route, status,
                                         time.perf_counter() - start)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
