"""FastAPI app: a Cohere/Jina-compatible rerank API that fuses source authority with relevance.

Endpoints: ``POST /v1/rerank``, ``/v2/rerank``, ``/rerank`` (same body, Cohere v1/v2 and Jina
shapes), ``POST /v1/authority``, ``POST /v1/audit``, ``GET /healthz``, ``/readyz``, ``/metrics``,
``/openapi.json`` (``/metrics`` and ``/openapi.json`` with the API key when one is set; ``/docs``
and ``/redoc`` only with ``--docs``). No endpoint fetches a URL. Every error, including an unexpected one (500
``internal_error``), is ``{"version": 1, "error": {"code", "status", "message"}}``. POST bodies
must be sent as ``Content-Type: application/json`` (415 otherwise), so a web page cannot make a
browser post a "simple" form or text request to a server on localhost.

Example:
    >>> from authorag.server.app import create_app
    >>> from authorag.server.config import ServerConfig
    >>> app = create_app(ServerConfig(relevance="rank"))
    >>> # uvicorn.run(app, host="127.0.0.1", port=8000)
"""
from __future__ import annotations

import asyncio
import gc
import hmac
import json
import logging
import math
import os
import sys
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast

from authorag._optional import require

require("fastapi", extra="server", feature="authorag.server")

import orjson
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from authorag.errors import ConfigError, LimitExceeded
from authorag.priors.base import AuthorityScorer
from authorag.server.admission import Admitted, Overloaded, refusal
from authorag.server.config import ServerConfig
from authorag.server.metrics import CONTENT_TYPE
from authorag.server.middleware import (
    UNAUTHORIZED,
    BodyLimitMiddleware,
    HostCheckMiddleware,
    MetricsMiddleware,
    bearer_token,
)
from authorag.server.schemas import (
    API_VERSION,
    STATUS_CODES,
    AuditRequest,
    AuditResponse,
    AuthorityRequest,
    AuthorityResponse,
    ErrorResponse,
    RerankRequest,
    RerankResponse,
    error_body,
)
from authorag.server.service import DeadlineExceeded, RerankService

log = logging.getLogger(__name__)
_M = TypeVar("_M", bound=BaseModel)

CLIENT_CLOSED = 499
"""The status counted in ``/metrics`` for a client that disconnected before its answer."""
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse} for code in (401, 408, 413, 415, 421, 422, 431, 500, 503)
}


def _error(status: int, code: str, message: str, service: RerankService,
           headers: Mapping[str, str] | None = None) -> JSONResponse:
    service.metrics.observe_error(code)
    return JSONResponse(error_body(status, code, message), status_code=status, headers=headers)


def _auth_dependency(config: ServerConfig) -> Callable[[Request], Awaitable[None]]:
    expected = None if config.api_key is None else config.api_key.encode("utf-8")

    # async on purpose: FastAPI runs a plain-def dependency in its thread pool, a thread hop
    # per request that cost more than the whole prior-only rerank.
    async def check(request: Request) -> None:
        if expected is None:
            return
        if not hmac.compare_digest(bearer_token(request.scope), expected):
            raise HTTPException(401, detail=UNAUTHORIZED)
    return check


def _require_json(request: Request) -> None:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        raise HTTPException(415, detail=f"the body must be JSON sent with 'Content-Type: application/json', got "
                                        f"{media[:100] or 'no Content-Type'}")


class FastJSONResponse(Response):
    """JSON via orjson (faster than the standard library on rerank responses, scripts/bench_server.py)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return _render(content)


def _render(content: Any) -> bytes:
    """``content`` as JSON bytes. orjson writes NaN and infinities as null; the standard library
    takes over for what orjson refuses (an echoed integer beyond 64 bits) and does the same."""
    try:
        return orjson.dumps(content)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(_finite(content), ensure_ascii=False, allow_nan=False).encode("utf-8")


def _finite(value: Any) -> Any:
    """``value`` with non-finite floats as None (what JSON can say), containers walked."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in cast(dict[Any, Any], value).items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in cast(list[Any], value)]
    return value


def _validation_message(exc: RequestValidationError | ValidationError) -> str:
    parts: list[str] = []
    for err in list(exc.errors())[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{loc or 'body'}: {err.get('msg', 'invalid')}")
    return "invalid request: " + "; ".join(parts)


def _install_handlers(app: FastAPI, service: RerankService) -> None:
    # ValidationError: bodies the routes validate themselves; RequestValidationError: anything
    # FastAPI validates (parameters). Both give the same 422.
    @app.exception_handler(RequestValidationError)
    @app.exception_handler(ValidationError)
    async def _invalid(_: Request, exc: RequestValidationError | ValidationError) -> JSONResponse:  # pyright: ignore[reportUnusedFunction]
        return _error(422, "invalid_request", _validation_message(exc), service)

    @app.exception_handler(HTTPException)
    async def _http(_: Request, exc: HTTPException) -> JSONResponse:  # pyright: ignore[reportUnusedFunction]
        code = STATUS_CODES.get(exc.status_code, "error")
        headers = {"WWW-Authenticate": "Bearer"} if exc.status_code == 401 else dict(exc.headers or {})
        return _error(exc.status_code, code, str(exc.detail), service, headers)

    @app.exception_handler(ClientDisconnect)
    async def _gone(request: Request, _: ClientDisconnect) -> Response:  # pyright: ignore[reportUnusedFunction]
        # Nobody is left to answer: no traceback, no 500; counted as 499 (nginx's "client
        # closed request") under the code client_disconnected.
        log.info("client disconnected before sending the whole body of %s %s", request.method, request.url.path)
        service.metrics.observe_error("client_disconnected")
        return Response(status_code=CLIENT_CLOSED)

    @app.exception_handler(ConfigError)
    async def _config(_: Request, exc: ConfigError) -> JSONResponse:  # pyright: ignore[reportUnusedFunction]
        code = exc.code if isinstance(exc, LimitExceeded) else "invalid_request"
        return _error(422, code, str(exc), service)

    @app.exception_handler(Overloaded)
    async def _overloaded(_: Request, exc: Overloaded) -> JSONResponse:  # pyright: ignore[reportUnusedFunction]
        return _error(503, "overloaded", str(exc), service, {"Retry-After": str(exc.retry_after)})

    @app.exception_handler(DeadlineExceeded)
    async def _deadline(_: Request, exc: DeadlineExceeded) -> JSONResponse:  # pyright: ignore[reportUnusedFunction]
        return _error(503, "deadline_exceeded", str(exc), service)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:  # pyright: ignore[reportUnusedFunction]
        # Starlette re-raises after this response is sent, so the traceback is still logged.
        log.error("unexpected %s on %s %s", type(exc).__name__, request.method, request.url.path)
        return _error(500, "internal_error", f"the server failed on this request ({type(exc).__name__}); "
                      "it has been logged, please report it with the request that caused it", service)


INLINE_BODY_BYTES = 64 * 1024
"""Bodies up to this size are parsed on the event loop (well under a millisecond); larger ones
are parsed, scored and serialized on a worker thread, as are requests :meth:`RerankService.heavy`
calls heavy and every request of a service that may wait on a judge."""


async def _serve(request: Request, service: RerankService, model: type[_M],
                 work: Callable[[_M, float], dict[str, Any]],
                 admit: Callable[[_M, float], Admitted] | None = None, api: str = "v2") -> Response:
    """Read, validate and answer one POST within the request deadline (503 past it).

    The deadline counts from the request's start (the body limit middleware stamps it), so time
    spent receiving the body or queueing for a worker thread counts too. A job still queued at
    the deadline never starts; a job already running stops at its next step. With dense
    relevance, ``admit`` (a rerank, answered in the ``api`` shape) runs on the event loop: the
    request is read and its new pages counted and held before it queues for a thread, so a
    refusal never waits behind an encode.
    """
    # The raw body goes straight to pydantic's JSON parser (Rust): FastAPI's own body handling
    # would decode it with the standard json module first and then validate Python objects,
    # which costs several times more on a 100-document request. Errors reach the same 422
    # handler through ValidationError.
    _require_json(request)
    started: float = getattr(request.state, "started", time.monotonic())
    deadline = started + service.config.request_deadline_s
    _refuse_if_full(service)  # before the body is read: nothing done, nothing queued
    raw = await request.body()
    if admit is not None and service.dense:
        _refuse_if_full(service)  # filled while the body arrived: still refused before it is parsed
        admitted = admit(model.model_validate_json(raw), deadline)
        return await _off_loop(service, lambda: _render(admitted.run(api, deadline=deadline)), deadline,
                               admitted.release)
    parsed = None
    if len(raw) <= INLINE_BODY_BYTES and not service.offload:
        parsed = model.model_validate_json(raw)
        if not service.heavy(parsed):
            return FastJSONResponse(work(parsed, deadline))

    def job() -> bytes:
        return _render(work(model.model_validate_json(raw) if parsed is None else parsed, deadline))

    return await _off_loop(service, job, deadline)


def _refuse_if_full(service: RerankService) -> None:
    gate = service.gate
    if service.dense and gate.full():
        raise Overloaded(refusal(None, gate.in_flight, gate.budget))


async def _off_loop(service: RerankService, job: Callable[[], bytes], deadline: float,
                    on_cancel: Callable[[], None] | None = None) -> Response:
    """``job`` on :attr:`RerankService.pool`, answered by ``deadline``; ``on_cancel`` runs when
    the job never started (still queued at the deadline)."""
    future = service.pool.submit(job)
    if on_cancel is not None:
        future.add_done_callback(lambda f: on_cancel() if f.cancelled() else None)
    try:
        content = await asyncio.wait_for(asyncio.wrap_future(future), timeout=max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        raise DeadlineExceeded(service.config.request_deadline_s) from None
    return Response(content, media_type="application/json")


def _body_doc(model: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI request body for a route that validates its raw body itself."""
    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": ref}}}}


def _install_routes(app: FastAPI, service: RerankService) -> None:
    auth = [Depends(_auth_dependency(service.config))]
    rerank_doc = {"200": {"model": RerankResponse}}

    for path, api in (("/v1/rerank", "v1"), ("/v2/rerank", "v2"), ("/rerank", "jina")):
        def make(api_name: str) -> Callable[[Request], Any]:
            async def rerank(request: Request) -> Response:
                return await _serve(request, service, RerankRequest,
                                    lambda body, deadline: service.rerank(body, api_name, deadline=deadline),
                                    service.admit, api_name)
            return rerank

        app.add_api_route(path, make(api), methods=["POST"], dependencies=auth, responses={**_ERRORS, **rerank_doc},
                          summary=f"Rerank documents ({api} shape): authority fused with relevance",
                          response_class=JSONResponse, openapi_extra=_body_doc(RerankRequest))

    @app.post("/v1/authority", dependencies=auth, responses={**_ERRORS, "200": {"model": AuthorityResponse}},
              openapi_extra=_body_doc(AuthorityRequest))
    async def authority(request: Request) -> Response:  # pyright: ignore[reportUnusedFunction]
        """Authority of URLs or domains from the configured scorer; nothing is fetched."""
        return await _serve(request, service, AuthorityRequest, service.authority)

    @app.post("/v1/audit", dependencies=auth, responses={**_ERRORS, "200": {"model": AuditResponse}},
              openapi_extra=_body_doc(AuditRequest))
    async def audit(request: Request) -> Response:  # pyright: ignore[reportUnusedFunction]
        """Audit an answer's citations: matrices, source credibility, metrics (no LLM, nothing fetched)."""
        return await _serve(request, service, AuditRequest, service.audit)

    @app.get("/healthz")
    async def healthz() -> dict[str, str | int]:  # pyright: ignore[reportUnusedFunction]
        """Liveness: the process answers."""
        return {"status": "ok", "version": API_VERSION}

    @app.get("/readyz", responses={503: {"model": ErrorResponse}})
    async def readyz(request: Request) -> JSONResponse:  # pyright: ignore[reportUnusedFunction]
        """Readiness: the prior (and relevance model) are loaded; ``judge`` is the judge's circuit state.

        Open to everyone, so it shows no credential, no absolute path and no raw judge error;
        a request with the API key (when one is set) sees the paths and the judge's last error.
        """
        if not service.ready:
            return _error(503, "not_ready", "the authority scorer is still loading", service)
        key = service.config.api_key
        full = key is not None and hmac.compare_digest(bearer_token(request.scope), key.encode("utf-8"))
        return JSONResponse({"status": "ready", "version": API_VERSION, "pid": os.getpid(),
                             "config": service.config.public(paths=full), "judge": service.judge_state(full)})

    @app.get("/metrics", response_class=PlainTextResponse, dependencies=auth, responses={401: {"model": ErrorResponse}})
    async def metrics() -> PlainTextResponse:  # pyright: ignore[reportUnusedFunction]
        """Prometheus text format (with the API key when one is set)."""
        return PlainTextResponse(service.metrics.render(), media_type=CONTENT_TYPE)


def _install_openapi(app: FastAPI, config: ServerConfig) -> None:
    """Serve ``/openapi.json`` (and, with :attr:`ServerConfig.docs`, ``/docs`` and ``/redoc``)
    behind the API key when one is set, with the request models (validated from raw bodies)
    added to the generated document."""
    auth = [Depends(_auth_dependency(config))]

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description,
                                 routes=app.routes)
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in (RerankRequest, AuthorityRequest, AuditRequest):
                found = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(found.pop("$defs", {}))
                components[model.__name__] = found
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_api_route("/openapi.json", lambda: JSONResponse(openapi()), dependencies=auth, include_in_schema=False)
    if config.docs:
        from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html

        app.add_api_route("/docs", lambda: get_swagger_ui_html(openapi_url="/openapi.json", title=app.title),
                          dependencies=auth, include_in_schema=False)
        app.add_api_route("/redoc", lambda: get_redoc_html(openapi_url="/openapi.json", title=app.title),
                          dependencies=auth, include_in_schema=False)


def create_app(config: ServerConfig | None = None, *, scorer: AuthorityScorer | None = None) -> FastAPI:
    """Build the app; the scorer and relevance model load at startup (``/readyz`` says when).

    Args:
        config: settings; default :meth:`ServerConfig.from_env`.
        scorer: an authority scorer to use instead of the one ``config`` describes.
    """
    cfg = ServerConfig.from_env() if config is None else config
    service = RerankService(cfg, scorer)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncGenerator[None]:
        await asyncio.to_thread(service.warm_up)
        # The loaded prior, suffix list and model are long-lived: move them out of the cyclic
        # collector's reach, or every full collection walks them (tail-latency spikes, docs/server.md#performance).
        # A request's objects die by reference counting, so young collections find nothing
        # to free; a higher first threshold skips them (~2 % CPU) and cycles still get freed.
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)
        # A large request runs on a worker thread; the event loop then waits for the GIL up to
        # the switch interval at each hand-over (Python's default is 5 milliseconds), several times per /healthz.
        sys.setswitchinterval(0.001)
        yield
        service.close()

    from authorag import __version__

    # /openapi.json, /docs and /redoc are added by _install_openapi, behind the key
    app = FastAPI(title="authorag", version=__version__, lifespan=lifespan, openapi_url=None, docs_url=None,
                  redoc_url=None, description="Authority-aware reranking (Cohere/Jina-compatible rerank API).")
    _install_handlers(app, service)
    _install_routes(app, service)
    _install_openapi(app, cfg)
    app.add_middleware(BodyLimitMiddleware, max_bytes=cfg.max_body_bytes, metrics=service.metrics,
                       max_header_bytes=cfg.max_header_bytes, read_timeout_s=cfg.read_timeout_s)
    if cfg.allowed_hosts:  # authorag serve sets them (allowed_hosts_for); a library app answers any host
        app.add_middleware(HostCheckMiddleware, hosts=cfg.allowed_hosts, metrics=service.metrics)
    routes = frozenset(str(getattr(r, "path", "")) for r in app.routes)
    app.add_middleware(MetricsMiddleware, metrics=service.metrics, routes=routes)
    app.state.service = service
    return app


def app_from_env() -> FastAPI:
    """App factory for ``uvicorn --factory`` and multi-worker ``authorag serve``."""
    return create_app(ServerConfig.from_env())
