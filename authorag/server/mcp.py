"""``authorag mcp``: a Model Context Protocol server with the authority tools, over stdio or HTTP.

Install with ``pip install 'authorag[mcp]'``. The tools (:mod:`authorag.server.mcp_tools`) are
``score_sources``, ``rerank`` and ``audit_answer``, each with JSON schemas for its arguments and its
structured result. They run on :class:`~authorag.server.service.RerankService` with the same
:class:`~authorag.server.config.ServerConfig` as ``authorag serve``: the same composition,
relevance, policy, judge deadline, request limits and request deadline (a call past it is a tool
error). A large call (more than a few hundred documents or URLs, any audit) runs on the service's
threads, never on the event loop. The streamable HTTP endpoint also takes the HTTP API's body and
header limits (413, 431), its read timeout (408) and its bearer key (401).

Bad arguments, limits and scorer failures come back as tool errors (``isError`` results whose
text says what to fix); the server keeps running. The scorer loads in the background as the
server starts, so ``tools/list`` answers at once; the first tool call waits for it.

Example:
    >>> from authorag.server.config import ServerConfig
    >>> tools = AuthorityMcpServer(ServerConfig(relevance="rank")).tools
    >>> [t.name for t in tools]
    ['score_sources', 'rerank', 'audit_answer']
"""
from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
import time
from typing import Any, cast

from authorag._optional import require

require("mcp", extra="mcp", feature="authorag mcp")

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from authorag.errors import AuthoragError
from authorag.priors.base import AuthorityScorer
from authorag.server.config import ServerConfig
from authorag.server.mcp_stdio import AnsweredLines
from authorag.server.mcp_tools import (
    TOOLS,
    ToolInputError,
    ToolSpec,
    input_schema,
    output_schema,
    run_tool,
    tool_arguments,
)
from authorag.server.service import DeadlineExceeded, RerankService

log = logging.getLogger(__name__)

SERVER_NAME = "authorag"
"""The name the server gives in the MCP handshake."""
DEFAULT_PATH = "/mcp"
"""Path of the streamable HTTP endpoint."""
INSTRUCTIONS = ("Tools to judge how trustworthy sources are: score_sources for URLs or domains, rerank to order "
                "retrieved documents by authority fused with relevance, audit_answer to check an answer's "
                "citations. Nothing is fetched from the web.")
_READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                   open_world_hint=False)


class AuthorityMcpServer:
    """The MCP server: tool list, tool calls, and the stdio and HTTP transports.

    Args:
        config: the server settings (``authorag mcp`` flags and ``AUTHORAG_*`` variables).
        scorer: an authority scorer to use instead of the one ``config`` describes.

    Attributes:
        server: the ``mcp`` SDK's low-level ``Server`` (``mcp.Client(server)`` talks to it in-process).
        service: the :class:`RerankService` the tools call.
    """

    def __init__(self, config: ServerConfig, scorer: AuthorityScorer | None = None) -> None:
        from authorag import __version__

        self.service = RerankService(config, scorer)
        self.tools = [types.Tool(name=spec.name, title=spec.title, description=spec.description,
                                 input_schema=input_schema(spec, config.policy), output_schema=output_schema(spec),
                                 annotations=_READ_ONLY) for spec in TOOLS.values()]
        self._listed = types.ListToolsResult(tools=self.tools)
        self._ready = threading.Event()
        self._warm_error: BaseException | None = None
        self._warming = False
        self.server: Server[Any] = Server(SERVER_NAME, version=__version__, instructions=INSTRUCTIONS,
                                          on_list_tools=self._list_tools, on_call_tool=self._call_tool)

    def start_warm_up(self) -> None:
        """Load the scorer and relevance model in a background thread (once)."""
        if self._warming:
            return
        self._warming = True
        threading.Thread(target=self._warm_up, name="authorag-mcp-warm-up", daemon=True).start()

    def _warm_up(self) -> None:
        try:
            self.service.warm_up()
        except Exception as exc:  # reported on every tool call; the server keeps answering
            log.error("the authority scorer failed to load: %s", exc)
            self._warm_error = exc
        finally:
            self._ready.set()

    async def _list_tools(self, ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return self._listed

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            body, text = await self._run(params.name, params.arguments)
        except ToolInputError as exc:
            return _error(str(exc))
        except AuthoragError as exc:  # the scorer, a judge backend, a prior file
            return _error(f"{params.name}: {exc}")
        except Exception as exc:
            log.exception("tool %r failed", params.name)
            return _error(f"{params.name}: the server failed on this call ({type(exc).__name__}); it has been "
                          "logged, please report it with the arguments that caused it")
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=body)

    async def _run(self, name: str, arguments: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
        """The tool's result and its JSON text, both made on a service thread for a large call."""
        if not self._ready.is_set():
            self.start_warm_up()
            await asyncio.get_running_loop().run_in_executor(None, self._ready.wait)
        if self._warm_error is not None:
            raise AuthoragError(f"the authority scorer failed to load: {self._warm_error}; fix the server's "
                                "settings (authorag mcp flags, AUTHORAG_* variables) and restart it")
        spec, args = tool_arguments(name, arguments)
        service = self.service
        deadline = time.monotonic() + service.config.request_deadline_s
        if not service.offload and not service.heavy(args):  # about a millisecond of work: inline
            return _answer(service, spec, args, deadline)
        # judge calls, dense encoding and large calls: the service's threads, as in the HTTP API
        pool = service.executor if service.offload else service.cpu_executor
        future = asyncio.get_running_loop().run_in_executor(pool, _answer, service, spec, args, deadline)
        try:
            return await asyncio.wait_for(future, timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            raise DeadlineExceeded(service.config.request_deadline_s) from None

    async def run_stdio(self) -> None:
        """Serve one client over stdin/stdout until it closes them: a message (one line) over
        ``--max-body-bytes`` is refused, and every line the server cannot read gets a JSON-RPC
        error (:mod:`authorag.server.mcp_stdio`)."""
        self.start_warm_up()
        lines = AnsweredLines(sys.stdin.buffer, self.service.config.max_body_bytes)
        async with stdio_server(stdin=cast(Any, lines)) as (read, write):
            lines.connect(write.send)
            await self.server.run(read, write, self.server.create_initialization_options())

    def http_app(self, path: str = DEFAULT_PATH, host: str = "127.0.0.1") -> Any:
        """The streamable HTTP endpoint at ``path`` as an ASGI app, with the HTTP API's limits.

        Stateless JSON responses: every request stands alone, so any worker can answer it.
        Requests for other ``Host`` names than the server's :attr:`~ServerConfig.allowed_hosts`
        (default: the loopback names when ``host`` is a loopback address) get 421, as from
        ``authorag serve``. ``GET /healthz`` and
        ``GET /readyz`` (200 once the scorer is loaded) answer as the HTTP API's do, without a key.
        """
        from mcp.server.transport_security import TransportSecuritySettings
        from starlette.exceptions import HTTPException
        from starlette.requests import Request
        from starlette.responses import JSONResponse
        from starlette.routing import Route

        from authorag.server.middleware import (
            LOOPBACK_HOSTS,
            BearerAuthMiddleware,
            BodyLimitMiddleware,
            HostCheckMiddleware,
            allowed_hosts_for,
        )
        from authorag.server.schemas import API_VERSION, STATUS_CODES, error_body

        async def healthz(_: Request) -> JSONResponse:
            return JSONResponse({"status": "ok", "version": API_VERSION})

        async def readyz(_: Request) -> JSONResponse:
            if not self._ready.is_set():
                return JSONResponse(error_body(503, "not_ready", "the authority scorer is still loading"), 503)
            return JSONResponse({"status": "ready" if self._warm_error is None else "failed", "version": API_VERSION,
                                 "config": self.service.config.public()}, 200 if self._warm_error is None else 503)

        cfg = self.service.config
        hosts = allowed_hosts_for(host, cfg.allowed_hosts)
        app: Any = self.server.streamable_http_app(
            streamable_http_path=path, json_response=True, stateless_http=True, host=host,
            # the Host check is HostCheckMiddleware's, the same as authorag serve's; the SDK keeps its Origin check
            transport_security=None if hosts == LOOPBACK_HOSTS else TransportSecuritySettings(
                enable_dns_rebinding_protection=False),
            max_request_body_size=cfg.max_body_bytes,
            custom_starlette_routes=[Route("/healthz", healthz), Route("/readyz", readyz)])

        async def http_error(_: Request, exc: Exception) -> JSONResponse:
            # the body limits (a slow body: 408, a streamed one too large: 413) in the API's JSON shape
            assert isinstance(exc, HTTPException)
            code = STATUS_CODES.get(exc.status_code, "error")
            self.service.metrics.observe_error(code)
            return JSONResponse(error_body(exc.status_code, code, str(exc.detail)), exc.status_code, exc.headers)

        app.add_exception_handler(HTTPException, http_error)
        if cfg.api_key is not None:
            app = BearerAuthMiddleware(app, cfg.api_key, self.service.metrics)
        app = HostCheckMiddleware(app, hosts, self.service.metrics)
        return BodyLimitMiddleware(app, max_bytes=cfg.max_body_bytes, metrics=self.service.metrics,
                                   max_header_bytes=cfg.max_header_bytes, read_timeout_s=cfg.read_timeout_s)

    def run_http(self, host: str, port: int, path: str = DEFAULT_PATH, log_level: str = "warning") -> None:
        """Serve the streamable HTTP endpoint with uvicorn until interrupted, with the HTTP
        protocol of ``authorag serve`` (JSON 400s; request headers within the read timeout)."""
        import uvicorn

        from authorag.server.protocol import protocol_path
        from authorag.settings import env_name, export_env

        cfg = self.service.config
        export_env({env_name("read_timeout_s"): str(cfg.read_timeout_s)})  # where the protocol reads it
        self.start_warm_up()
        uvicorn.run(self.http_app(path, host), host=host, port=port, log_level=log_level, access_log=False,
                    http=protocol_path(), h11_max_incomplete_event_size=cfg.max_header_bytes,
                    timeout_graceful_shutdown=int(cfg.request_deadline_s) + 1)


def _answer(service: RerankService, spec: ToolSpec, args: Any, deadline: float) -> tuple[dict[str, Any], str]:
    body = run_tool(service, spec, args, deadline)
    return body, json.dumps(body, ensure_ascii=False)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


__all__ = ["DEFAULT_PATH", "INSTRUCTIONS", "SERVER_NAME", "AuthorityMcpServer"]
