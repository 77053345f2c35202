"""uvicorn's HTTP protocols with the server's JSON errors and a deadline for request headers.

uvicorn answers a request it cannot parse itself, before the app sees it, with a ``text/plain``
400; these subclasses send the documented ``{"version": 1, "error": {...}}`` shape instead
(code ``bad_request``). uvicorn also waits for the headers of a request without a time limit
(its keep-alive timer runs only between requests), so a client sending one header byte a
minute holds a connection forever; here a connection whose request headers are not complete
within the ``read_timeout_s`` setting gets a JSON 408 (``request_timeout``) and is closed.
``authorag serve`` uses them; with another launcher pass :func:`protocol_path`
(``uvicorn --http authorag.server.protocol:JSONHttpToolsProtocol``).

Example:
    >>> from authorag.server.protocol import JSONH11Protocol, error_response
    >>> error_response(400, "bad_request", "x").split(b"\\r\\n")[0]
    b'HTTP/1.1 400 Bad Request'
"""
from __future__ import annotations

import asyncio
import json
import logging
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from authorag.server.schemas import error_body

log = logging.getLogger(__name__)

BAD_REQUEST = ("the request is not valid HTTP/1.1 (a malformed request line, header or chunked body); "
               "send a well-formed request")


def error_response(status: int, code: str, message: str) -> bytes:
    """A complete HTTP/1.1 response (``Connection: close``) with a JSON error body."""
    body = json.dumps(error_body(status, code, message)).encode()
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode("ascii") + body


def read_timeout_s() -> float:
    """The ``read_timeout_s`` setting of this process (``AUTHORAG_READ_TIMEOUT_S``)."""
    from authorag.server.config import ServerConfig
    from authorag.settings import env_name, env_text

    raw = env_text(env_name("read_timeout_s"))
    return ServerConfig.from_env({env_name("read_timeout_s"): raw} if raw else {}).read_timeout_s


class _JSONErrors(asyncio.Protocol):
    """The overrides shared by the h11 and httptools protocols (put first in their bases)."""

    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    cycle: Any
    _header_timer: asyncio.TimerHandle | None = None
    _timed_cycle: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._headers_seen()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]  # defined by both uvicorn protocols
        self._arm()  # the next request on this keep-alive connection gets the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        self.transport.write(error_response(400, "bad_request", BAD_REQUEST))
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self._header_timer = self.loop.call_later(_TIMEOUT.value, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_seen(self) -> None:
        cycle = self.cycle
        if cycle is not None and cycle is not self._timed_cycle and not cycle.response_complete:
            self._timed_cycle = cycle  # a new request's headers are complete: its body has its own deadline
            self._disarm()

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        log.info("closing a connection whose request headers did not arrive within %g s", _TIMEOUT.value)
        self.transport.write(error_response(408, "request_timeout", (
            f"the request headers did not arrive within {_TIMEOUT.value:g} s; send them faster, or raise the "
            "server's --read-timeout")))
        self.transport.close()


class _Timeout:
    """The header deadline, read from the settings once per process (on first use)."""

    def __init__(self) -> None:
        self._value: float | None = None

    @property
    def value(self) -> float:
        if self._value is None:
            self._value = read_timeout_s()
        return self._value


_TIMEOUT = _Timeout()


class JSONH11Protocol(_JSONErrors, H11Protocol):
    """uvicorn's h11 protocol with JSON 400s and the request-header deadline."""


def _httptools_protocol() -> type[asyncio.Protocol] | None:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools is optional (uvicorn falls back to h11 the same way)
        return None

    class JSONHttpToolsProtocol(_JSONErrors, HttpToolsProtocol):
        """uvicorn's httptools protocol with JSON 400s and the request-header deadline."""

    return JSONHttpToolsProtocol


JSONHttpToolsProtocol = _httptools_protocol()
"""The httptools variant, or None without httptools."""


def protocol_path() -> str:
    """The import path of the protocol uvicorn's ``http="auto"`` would pick (httptools when
    installed), in its JSON-error variant: uvicorn's ``http`` setting (a string, so it reaches
    worker processes)."""
    name = "JSONH11Protocol" if JSONHttpToolsProtocol is None else "JSONHttpToolsProtocol"
    return f"{__name__}:{name}"


__all__ = ["BAD_REQUEST", "JSONH11Protocol", "JSONHttpToolsProtocol", "error_response", "protocol_path",
           "read_timeout_s"]
