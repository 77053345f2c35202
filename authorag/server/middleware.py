"""Pure ASGI middleware: request header and body limits (431, 413, 408), bearer keys (401) and
per-request metrics.

Pure ASGI (not ``BaseHTTPMiddleware``) keeps the per-request cost to a few function calls.
"""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
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



async def send_error(send: Send, status: int, code: str, message: str,
                     headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """Send a complete JSON error response in the stable shape (``headers`` added to it)."""
    body = json.dumps(error_body(status, code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body})


class BodyLimitMiddleware:
    """Reject request bodies larger than ``max_bytes`` with 413, declared or streamed, bodies
    not received within ``read_timeout_s`` with 408, and header blocks larger than
    ``max_header_bytes`` with 431.

    A declared ``Content-Length`` over the limit is refused before the body is read; a chunked
    body is counted while it is read and refused as soon as it passes the limit. (The HTTP
    server has already read the headers by then; ``authorag serve`` also passes the header
    limit to uvicorn's h11 parser.) The request's start time goes into ``scope["state"]``
    (``request.state.started``), where the request deadline counts from.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, metrics: Metrics, max_header_bytes: int = 32 * 1024,
                 read_timeout_s: float = 10.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_header_bytes = max_header_bytes
        self.read_timeout_s = read_timeout_s
        self.metrics = metrics

    def _message(self, size: int | None) -> str:
        got = "more" if size is None else f"{size} bytes"
        return (f"request body is too large: got {got}, the limit is {self.max_bytes} bytes; send fewer or "
                "shorter documents, or raise the server's --max-body-bytes")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        scope.setdefault("state", {})["started"] = started
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
        body_done = False
        body_by = started + self.read_timeout_s

        async def limited_receive() -> Message:
            # An HTTPException passes FastAPI's body parsing untouched and reaches the app's
            # exception handler, which writes the stable error shape.
            nonlocal seen, body_done
            if body_done:  # later reads wait for the disconnect: no deadline
                return await receive()
            message = await _within(receive, body_by)
            if message is None:
                raise HTTPException(408, detail=(
                    f"the request body did not arrive within {self.read_timeout_s:g} s (got {seen} bytes); "
                    "send it faster, or raise the server's --read-timeout"),
                    headers={"Connection": "close"})
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if seen > self.max_bytes:
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
        await send_error(send, 401, "unauthorized", UNAUTHORIZED, headers=((b"www-authenticate", b"Bearer"),))


LOOPBACK_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
"""The ``Host`` names a server bound to a loopback address answers by default."""


def allowed_hosts_for(bind: str, configured: tuple[str, ...]) -> tuple[str, ...]:
    """The ``Host`` names a server bound to ``bind`` answers: ``configured`` when given, else
    :data:`LOOPBACK_HOSTS` for a loopback address (a web page on another name cannot reach it by
    DNS rebinding), else ``("*",)``: any.

    Example:
        >>> allowed_hosts_for("127.0.0.1", ()), allowed_hosts_for("0.0.0.0", ())
        (('localhost', '127.0.0.1', '::1'), ('*',))
    """
    if configured:
        return configured
    try:
        loopback = bind == "localhost" or ipaddress.ip_address(bind.strip("[]")).is_loopback
    except ValueError:
        loopback = False
    return LOOPBACK_HOSTS if loopback else ("*",)


def host_name(scope: Scope) -> str | None:
    """The name of the request's ``Host`` header, lower case, without port, brackets or a final dot.

    Example:
        >>> host_name({"headers": [(b"host", b"[::1]:8000")]}), host_name({"headers": []})
        ('::1', None)
    """
    for name, value in scope.get("headers", ()):
        if name == b"host":
            text = bytes(value).decode("latin-1").strip().lower()
            host = text[1:text.find("]")] if text.startswith("[") else text.rsplit(":", 1)[0]
            return host.rstrip(".")
    return None


class HostCheckMiddleware:
    """Answer 421 to a request whose ``Host`` is not one of ``hosts`` (``"*"``: any), so a web
    page that rebinds its own name to a loopback address cannot use the server."""

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...], metrics: Metrics) -> None:
        self.app = app
        self.hosts = frozenset(h.lower().strip("[]").rstrip(".") for h in hosts)
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = host_name(scope) if scope["type"] == "http" else None
        if scope["type"] != "http" or "*" in self.hosts or host in self.hosts:
            await self.app(scope, receive, send)
            return
        self.metrics.observe_error("misdirected_request")
        await send_error(send, 421, "misdirected_request",
                         f"this server does not answer for the host {str(host)[:100]!r} (it answers "
                         f"{', '.join(sorted(self.hosts))}); to serve that name, start it with --allowed-hosts NAME "
                         "(AUTHORAG_ALLOWED_HOSTS)")


class MetricsMiddleware:
    """Count every HTTP request by method, route and status, with its latency.

    ``routes`` are the paths counted under their own name (the app's routes); any other path
    counts as ``other``, so scanners cannot create new series.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics, routes: frozenset[str]) -> None:
        self.app = app
        self.metrics = metrics
        self.routes = routes

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
            route = path if path in self.routes else "other"
            method = str(scope.get("method", ""))
            self.metrics.observe_request(method if method in KNOWN_METHODS else "other", route, status,
                                         time.perf_counter() - start)


async def _within(receive: Receive, deadline: float) -> Message | None:
    """``await receive()``, or None when ``deadline`` (``time.monotonic()``) passes first.

    A timer that cancels this task, not ``asyncio.wait_for``: that would start a task per
    message, on every request. Whether the timer fired is what tells its cancellation from
    anyone else's, not the clock: uvloop's timers can fire a little before their time.
    """
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    task = asyncio.current_task()
    assert task is not None
    fired = False

    def expire() -> None:
        nonlocal fired
        fired = True
        task.cancel()

    timer = asyncio.get_running_loop().call_later(left, expire)
    try:
        return await receive()
    except asyncio.CancelledError:
        if not fired or task.uncancel() > 0:  # cancelled by someone else (too)
            raise
        return None
    finally:
        timer.cancel()


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
