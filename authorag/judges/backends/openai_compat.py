"""Any OpenAI-compatible chat endpoint (vLLM, Ollama, llama.cpp server, OpenAI) as a backend.

Retries with exponential backoff on 429, 5xx, timeouts and connection errors; bounded
concurrency (a semaphore, per event loop for async use); grammar (``extra_body``), JSON
schema (``response_format``) and logprobs where the server supports them. When a server
rejects one of those features (llama.cpp's Python server answers ``json_schema`` with HTTP
500), the backend retries without it, remembers that, and lists it in
``Completion.dropped_features``.

Example:
    >>> backend = OpenAIBackend("http://127.0.0.1:8080/v1", model="qwen")  # doctest: +SKIP
    >>> backend.complete(ChatRequest(messages=[{"role": "user", "content": "2+2?"}],
    ...                              grammar="root ::= [0-9]")).text  # doctest: +SKIP
    '4'
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Self

from authorag._optional import require
from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends._chat import (
    build_payload,
    parse_response,
    split_openai_args,
    used_features,
)
from authorag.judges.backends._concurrency import PerLoop
from authorag.judges.backends.base import FEATURES, ChatRequest, Completion, Feature

logger = logging.getLogger(__name__)

# Statuses with which servers reject a request field they do not support.
_FALLBACK_STATUSES = frozenset({400, 422, 500, 501})
_RETRY_STATUSES = frozenset({408, 409, 429})


@dataclass(slots=True)
class _Attempt:
    """Mutable state of one logical call across retries and feature fallbacks."""

    request: ChatRequest
    drop: set[Feature]
    retries: int = 0
    fallbacks: list[Feature] = field(default_factory=list[Feature])

    def dropped(self) -> tuple[Feature, ...]:
        return tuple(f for f in used_features(self.request) if f in self.drop)


class OpenAIBackend:
    """Chat completions from an OpenAI-compatible HTTP server.

    Args:
        base_url: the server's API root, e.g. ``http://127.0.0.1:8080/v1`` (None: the
            ``openai`` client's default / ``OPENAI_BASE_URL``).
        api_key: bearer token (None: ``OPENAI_API_KEY``, else a placeholder, which local
            servers accept).
        model: the model name the server expects (llama.cpp servers accept any name).
        timeout: seconds per HTTP attempt.
        max_retries: retries after the first attempt on 429/5xx/timeouts/connection errors.
        concurrency: requests in flight at once (sync threads and async tasks alike).
        backoff_s: first retry delay; doubles each retry, capped at ``max_backoff_s``.
        max_backoff_s: cap for the delay and for a server's ``Retry-After``.
        disable: features never to send (``"grammar"``, ``"json_schema"``, ``"logprobs"``).
        fallback: retry without a feature the server rejects (False: raise instead).

    Raises:
        MissingDependencyError: the ``openai`` package is missing (``authorag[llm]``).
        ConfigError: a bad argument (the message says which and why).

    Example:
        >>> OpenAIBackend("http://127.0.0.1:8080/v1", model="m", timeout=0)
        Traceback (most recent call last):
        ...
        authorag.errors.ConfigError: timeout must be > 0 seconds, got 0
    """

    name = "openai"

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        model: str,
        timeout: float = 60.0,
        max_retries: int = 3,
        concurrency: int = 4,
        backoff_s: float = 0.5,
        max_backoff_s: float = 20.0,
        disable: Iterable[Feature] = (),
        fallback: bool = True,
    ) -> None:
        _validate(model=model, timeout=timeout, max_retries=max_retries,
                  concurrency=concurrency, backoff_s=backoff_s)
        self._openai: Any = require("openai", extra="llm", feature="OpenAIBackend")
        self.model = model
        self.base_url = base_url
        self.timeout = timeout
        self.max_retries = max_retries
        self.concurrency = concurrency
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.fallback = fallback
        self._unsupported: set[Feature] = _features(disable)
        self._lock = threading.Lock()
        self._threads = threading.BoundedSemaphore(concurrency)
        key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "no-key")
        client_args: dict[str, Any] = {
            "base_url": base_url, "api_key": key, "timeout": timeout, "max_retries": 0,
        }
        self._client: Any = self._openai.OpenAI(**client_args)
        self._aclients: PerLoop[Any] = PerLoop(lambda: self._openai.AsyncOpenAI(**client_args))
        self._asems: PerLoop[asyncio.Semaphore] = PerLoop(lambda: asyncio.Semaphore(concurrency))

    @property
    def unsupported(self) -> frozenset[Feature]:
        """Features this backend no longer sends (disabled, or rejected by the server)."""
        with self._lock:
            return frozenset(self._unsupported)

    def complete(self, request: ChatRequest) -> Completion:
        """Answer one request, retrying and falling back as configured.

        Raises:
            JudgeError: the server failed after all retries, timed out, or refused the request.
        """
        state = _Attempt(request, drop=set(self.unsupported))
        while True:
            named, extra = split_openai_args(build_payload(request, model=self.model,
                                                           drop=state.drop))
            try:
                with self._threads:  # latency counts from here, not from the queue
                    start = time.perf_counter()
                    raw = self._client.chat.completions.create(**named, extra_body=extra)
            except self._openai.APIError as exc:
                time.sleep(self._after_error(exc, state))
                continue
            return self._finish(raw, state, time.perf_counter() - start)

    async def acomplete(self, request: ChatRequest) -> Completion:
        """Async twin of :meth:`complete` (at most ``concurrency`` calls in flight per loop)."""
        state = _Attempt(request, drop=set(self.unsupported))
        client = self._aclients.get()
        while True:
            named, extra = split_openai_args(build_payload(request, model=self.model,
                                                           drop=state.drop))
            try:
                async with self._asems.get():
                    start = time.perf_counter()
                    raw = await client.chat.completions.create(**named, extra_body=extra)
            except self._openai.APIError as exc:
                await asyncio.sleep(self._after_error(exc, state))
                continue
            return self._finish(raw, state, time.perf_counter() - start)

    def close(self) -> None:
        """Close the sync HTTP client (see :meth:`aclose` for the async one)."""
        self._client.close()

    async def aclose(self) -> None:
        """Close the running event loop's async HTTP client and the sync client."""
        client = self._aclients.pop()
        if client is not None:
            await client.close()
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"OpenAIBackend(base_url={self.base_url!r}, model={self.model!r})"

    def _finish(self, raw: Any, state: _Attempt, latency_s: float) -> Completion:
        if state.fallbacks:
            with self._lock:
                self._unsupported.update(state.fallbacks)
        data: dict[str, Any] = raw.model_dump() if hasattr(raw, "model_dump") else dict(raw)
        return parse_response(data, latency_s=latency_s, model=self.model,
                              dropped=state.dropped())

    def _after_error(self, exc: Exception, state: _Attempt) -> float:
        """Decide what follows a failed attempt: the delay before the next one, or raise."""
        status: int | None = getattr(exc, "status_code", None)
        pending: list[Feature] = [f for f in used_features(state.request) if f not in state.drop]
        if self.fallback and status in _FALLBACK_STATUSES and pending:
            feature = pending[0]  # used_features() lists them in drop order
            logger.warning(
                "%s rejected a request with %s (HTTP %s: %s); retrying without it",
                self.base_url, feature, status, _message(exc),
            )
            state.drop.add(feature)
            state.fallbacks.append(feature)
            return 0.0
        if _retryable(exc, status) and state.retries < self.max_retries:
            state.retries += 1
            delay = self._delay(exc, state.retries)
            logger.info("retry %d/%d for %s after %s in %.2f s", state.retries,
                        self.max_retries, self.base_url, _describe_short(exc, status), delay)
            return delay
        raise JudgeError(self._explain(exc, status, state)) from exc

    def _delay(self, exc: Exception, retry: int) -> float:
        delay = self.backoff_s * 2 ** (retry - 1)
        after = _retry_after(exc)
        if after is not None:
            delay = max(delay, after)
        return min(delay, self.max_backoff_s)

    def _explain(self, exc: Exception, status: int | None, state: _Attempt) -> str:
        where = f"OpenAI-compatible server at {self.base_url or 'the default base_url'}"
        tries = f"after {state.retries + 1} attempt(s)"
        if isinstance(exc, self._openai.APITimeoutError):
            return (f"{where} timed out (timeout={self.timeout} s) {tries}; raise timeout= "
                    "or check that the server is up and not overloaded")
        if isinstance(exc, self._openai.APIConnectionError):
            return (f"cannot connect to {where} {tries}: {exc}; check base_url "
                    "(it usually ends in /v1) and that the server is running")
        hint = {401: "check api_key", 403: "check api_key",
                404: f"check base_url (it usually ends in /v1) and model={self.model!r}"}
        fix = hint.get(status or 0, "see the server's log")
        return f"{where} answered HTTP {status} {tries}: {_message(exc)}; {fix}"


def _validate(*, model: str, timeout: float, max_retries: int, concurrency: int,
              backoff_s: float) -> None:
    if not model:
        raise ConfigError("model must be a non-empty model name, got ''")
    if timeout <= 0:
        raise ConfigError(f"timeout must be > 0 seconds, got {timeout}")
    if max_retries < 0:
        raise ConfigError(f"max_retries must be >= 0, got {max_retries}")
    if concurrency < 1:
        raise ConfigError(f"concurrency must be >= 1, got {concurrency}")
    if backoff_s < 0:
        raise ConfigError(f"backoff_s must be >= 0, got {backoff_s}")


def _features(names: Iterable[str]) -> set[Feature]:
    known: dict[str, Feature] = {f: f for f in FEATURES}
    chosen: set[Feature] = set()
    for name in names:
        if name not in known:
            raise ConfigError(f"unknown feature {name!r} in disable=; allowed: {list(FEATURES)}")
        chosen.add(known[name])
    return chosen


def _retryable(exc: Exception, status: int | None) -> bool:
    if status is None:  # timeouts and connection errors carry no status
        return True
    return status in _RETRY_STATUSES or status >= 500


def _retry_after(exc: Exception) -> float | None:
    response: Any = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _message(exc: Exception) -> str:
    body: Any = getattr(exc, "body", None)
    text = str(body if body is not None else exc)
    return text if len(text) <= 300 else text[:300] + "..."


def _describe_short(exc: Exception, status: int | None) -> str:
    return f"HTTP {status}" if status is not None else type(exc).__name__


__all__ = ["OpenAIBackend"]
