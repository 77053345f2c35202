"""The lines ``authorag mcp`` reads over stdio: each one bounded, each bad one answered.

The SDK's stdio transport reads a whole line however long, and drops a line it cannot read
without a word, so a client that sent it waits forever. :class:`AnsweredLines` sits in front of
it: it reads stdin in bounded pieces, refuses a line over the size limit (the HTTP API's
``--max-body-bytes``) without keeping it, and answers every line the SDK would drop (not JSON,
cut short, nested too deep, a lone surrogate escape, not a JSON-RPC message) with a JSON-RPC
error, as the streamable HTTP transport answers such a body: ``PARSE_ERROR`` (``id`` null)
when the line is not JSON, ``INVALID_REQUEST`` (with the request's ``id`` when one can be read)
when it is JSON but not a message the server takes, or is over the size limit.

Example:
    >>> problem(b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}') is None
    True
    >>> problem(b'{"jsonrpc": "2.0", "id": 7, "method": 5}')[:2]
    (7, -32600)
"""
from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, BinaryIO

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

Answer = Callable[[SessionMessage], Awaitable[None]]
"""Sends a message to the client (the transport's write stream)."""
_CHUNK = 1 << 16
_LONE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def problem(line: bytes) -> tuple[str | int | None, int, str] | None:
    """Why the SDK would drop ``line``, as ``(id, code, message)``; None for a line it reads.

    Example:
        >>> problem(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/li')[1:]
        (-32700, 'parse error: the line is not complete JSON (cut short?); send one JSON-RPC message per line')
    """
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return None
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        reason = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
    except (ValueError, RecursionError) as exc:  # not JSON pydantic could read: json says why below
        reason = f"{type(exc).__name__}: {exc}"
    try:
        value: Any = json.loads(line)
    except RecursionError:
        return None, types.PARSE_ERROR, "parse error: the JSON is nested too deep; send a flatter message"
    except ValueError:
        return None, types.PARSE_ERROR, ("parse error: the line is not complete JSON (cut short?); send one JSON-RPC "
                                         "message per line")
    raw_id = value.get("id") if isinstance(value, dict) else None
    rid: str | int | None = raw_id if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) else None
    if _LONE_SURROGATE.search(line):
        reason = "it holds a lone surrogate escape (\\ud800-\\udfff); send text as UTF-8"
    elif "recursion limit" in reason:
        reason = "it is nested too deep; send a flatter message"
    return rid, types.INVALID_REQUEST, f"the message is not a valid JSON-RPC request: {reason}"


def error_message(rid: str | int | None, code: int, message: str) -> SessionMessage:
    """A JSON-RPC error answer for request ``rid`` (None: the id could not be read)."""
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message)))


class AnsweredLines:
    """The lines of ``source`` the SDK can read, as text; every other line gets an answer.

    Args:
        source: the binary stream to read (stdin's buffer).
        max_bytes: the longest line taken (without its newline); a longer one is read in
            bounded pieces, dropped and answered with ``INVALID_REQUEST``.

    Attributes:
        answer: where answers go; set once the transport's write stream exists (lines that need
            an answer wait for it).
    """

    def __init__(self, source: BinaryIO, max_bytes: int) -> None:
        self.source = source
        self.max_bytes = max_bytes
        self.answer: Answer | None = None
        self._ready = anyio.Event()

    def connect(self, answer: Answer) -> None:
        """Send answers with ``answer`` from now on."""
        self.answer = answer
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            line = await self._read(self.max_bytes + 2)
            if not line:
                return
            if len(line.rstrip(b"\r\n")) > self.max_bytes:
                await self._skip_rest(line)
                await self._send(None, types.INVALID_REQUEST,
                                 f"the message is over the limit of {self.max_bytes} bytes; send a smaller one "
                                 "(server setting --max-body-bytes)")
                continue
            if not line.strip():
                continue
            found = problem(line)
            if found is None:
                yield line.decode("utf-8", errors="replace")
            else:
                await self._send(*found)

    async def _read(self, limit: int) -> bytes:
        return await anyio.to_thread.run_sync(self.source.readline, limit, abandon_on_cancel=True)

    async def _skip_rest(self, line: bytes) -> None:
        while line and not line.endswith(b"\n"):
            line = await self._read(_CHUNK)

    async def _send(self, rid: str | int | None, code: int, message: str) -> None:
        await self._ready.wait()
        assert self.answer is not None
        await self.answer(error_message(rid, code, message))


__all__ = ["Answer", "AnsweredLines", "error_message", "problem"]
