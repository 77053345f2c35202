"""Any OpenAI-compatible chat endpoint (vLLM, Ollama, llama.cpp server, OpenAI) as a backend.

Retries with exponential backoff on 429, 5xx, timeouts and connection errors; bounded
concurrency (a semaphore, per event loop for async use); grammar (``extra_body``), JSON
schema (``response_format``) and logprobs where the server supports them. When a server
rejects one of those features (llama.cpp's Python server answers ``json_schema`` with HTTP
500), the backend retries without it and lists it in ``Completion.dropped_features``. A
400/422/501 rejection is remembered for the process; an HTTP 500 is first retried unchanged
(it may be transient) and a feature dropped after a second 500 is remembered for
``FEATURE_RETRY_S`` seconds only. A 200 whose body is not a chat completion (garbage,
truncated JSON, HTML, a list) raises :class:`JudgeResponseError`, so a judge with
``on_failure="skip"`` falls back. Inside a judge guard's deadline
(:mod:`authorag.judges.backends._budget`) no attempt outlives the deadline.

Example:
    >>> backend = OpenAIBackend("http://127.0.0.1:8080/v1", model="qwen")  # doctest: +SKIP
    >>> backend.complete(ChatRequest(messages=[{"role": "user", "content": "2+2?"}],
    ...                              grammar="root ::= [0-9]")).text  # doctest: +SKIP
    '4'
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Self

from authorag._optional import require
from authorag._urlhost import redact_credentials
from authorag.errors import ConfigError, JudgeError, JudgeResponseError
from authorag.judges.backends._budget import remaining
from authorag.judges.backends._chat import (
    build_payload,
    parse_response,
    split_openai_args,
    used_features,
)
from authorag.judges.backends._concurrency import PerLoop
from authorag.judges.backends.base import FEATURES, ChatRequest, Completion, Feature
from authorag.settings import openai_api_key

logger = logging.getLogger(__name__)

# Statuses with which servers reject a request field they do not support.
_FALLBACK_STATUSES = frozenset({400, 422, 500, 501})
_RETRY_STATUSES = frozenset({408, 409, 429})
FEATURE_RETRY_S = 600.0
"""Seconds a feature dropped after HTTP 500s stays off before it is tried again."""


@dataclass(slots=True)
class _Attempt:
    """Mutable state of one logical call across retries and feature fallbacks."""

    request: ChatRequest
    drop: set[Feature]
    retries: int = 0
    attempts: int = 0
    fallbacks: list[tuple[Feature, bool]] = field(default_factory=list[tuple[Feature, bool]])
    seen_500: bool = False
    timeout: float = 0.0

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
        # feature -> when it may be tried again (inf: never; set by disable= or a 4xx rejection)
        self._unsupported: dict[Feature, float] = dict.fromkeys(_features(disable), float("inf"))
        self._lock = threading.Lock()
        self._threads = threading.BoundedSemaphore(concurrency)
        key = api_key if api_key is not None else openai_api_key()
        client_args: dict[str, Any] = {
            "base_url": base_url, "api_key": key, "timeout": timeout, "max_retries": 0,
        }
        self._client: Any = self._openai.OpenAI(**client_args)
        self._aclients: PerLoop[Any] = PerLoop(lambda: self._openai.AsyncOpenAI(**client_args))
        self._asems: PerLoop[asyncio.Semaphore] = PerLoop(lambda: asyncio.Semaphore(concurrency))

    @property
    def unsupported(self) -> frozenset[Feature]:
        """Features this backend no longer sends (disabled, or rejected by the server)."""
        now = time.monotonic()
        with self._lock:
            return frozenset(f for f, until in self._unsupported.items() if until > now)

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
                    state.attempts += 1
                    raw = self._client.chat.completions.with_raw_response.create(
                        **named, extra_body=extra, timeout=self._attempt_timeout(state))
            except self._openai.APIError as exc:
                time.sleep(self._after_error(exc, state))
                continue
            return self._finish(raw.http_response, state, time.perf_counter() - start)

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
                    state.attempts += 1
                    raw = await client.chat.completions.with_raw_response.create(
                        **named, extra_body=extra, timeout=self._attempt_timeout(state))
            except self._openai.APIError as exc:
                await asyncio.sleep(self._after_error(exc, state))
                continue
            return self._finish(raw.http_response, state, time.perf_counter() - start)

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
        return f"OpenAIBackend(base_url={self._where()!r}, model={self.model!r})"

    def _where(self) -> str | None:
        # userinfo (http://user:PASS@host) never reaches logs, notes or error messages
        return None if self.base_url is None else redact_credentials(self.base_url)

    def _attempt_timeout(self, state: _Attempt) -> float:
        left = remaining(self.timeout)
        if left <= 0:
            raise JudgeError(f"{self._describe()}: the caller's deadline passed before attempt "
                             f"{state.attempts} ({state.retries} retries so far)")
        state.timeout = left
        return left

    def _describe(self) -> str:
        return f"OpenAI-compatible server at {self._where() or 'the default base_url'}"

    def _finish(self, response: Any, state: _Attempt, latency_s: float) -> Completion:
        until = {True: float("inf"), False: time.monotonic() + FEATURE_RETRY_S}
        with self._lock:
            for feature, for_good in state.fallbacks:
                self._unsupported[feature] = max(self._unsupported.get(feature, 0.0), until[for_good])
        body: bytes = response.content
        try:
            data = json.loads(body)
        except (ValueError, UnicodeError) as exc:
            kind = response.headers.get("content-type", "no content type")
            raise JudgeResponseError(
                f"{self._describe()} answered HTTP {response.status_code} ({kind}) with a body that is not "
                f"JSON ({exc}): {body[:120]!r}; check that base_url points at an OpenAI-compatible API"
            ) from exc
        return parse_response(data, latency_s=latency_s, model=self.model, dropped=state.dropped())

    def _after_error(self, exc: Exception, state: _Attempt) -> float:
        """Decide what follows a failed attempt: the delay before the next one, or raise."""
        status: int | None = getattr(exc, "status_code", None)
        pending: list[Feature] = [f for f in used_features(state.request) if f not in state.drop]
        # A 500 may be a transient crash rather than a rejected feature: retry once unchanged
        # before blaming a feature (one flaky 500 used to switch grammar off for good).
        transient_first = status == 500 and not state.seen_500 and self.max_retries > state.retries
        if self.fallback and status in _FALLBACK_STATUSES and pending and not transient_first:
            feature = pending[0]  # used_features() lists them in drop order
            logger.warning(
                "%s rejected a request with %s (HTTP %s: %s); retrying without it",
                self._where(), feature, status, _message(exc),
            )
            state.drop.add(feature)
            state.fallbacks.append((feature, status != 500))
            return 0.0
        state.seen_500 = state.seen_500 or status == 500
        if _retryable(exc, status) and state.retries < self.max_retries:
            delay = self._delay(exc, state.retries + 1)
            if delay >= remaining(float("inf")):
                raise JudgeError(self._explain(exc, status, state) + "; the caller's deadline leaves no time "
                                 "for another retry") from exc
            state.retries += 1
            logger.info("retry %d/%d for %s after %s in %.2f s", state.retries,
                        self.max_retries, self._where(), _describe_short(exc, status), delay)
            return delay
        raise JudgeError(self._explain(exc, status, state)) from exc

    def _delay(self, exc: Exception, retry: int) -> float:
        delay = self.backoff_s * 2 ** (retry - 1)
        after = _retry_after(exc)
        if after is not None:
            delay = max(delay, after)
        return min(delay, self.max_backoff_s)

    def _explain(self, exc: Exception, status: int | None, state: _Attempt) -> str:
        where = self._describe()
        dropped = len(state.fallbacks)
        tries = (f"after {state.attempts} attempt(s) ({state.retries} retries"
                 + (f", {dropped} without a rejected feature)" if dropped else ")"))
        if isinstance(exc, self._openai.APITimeoutError):
            cut = "" if state.timeout >= self.timeout else f", cut to {state.timeout:.2f} s by the caller's deadline"
            return (f"{where} timed out (timeout={self.timeout} s{cut}) {tries}; raise timeout= "
                    "or check that the server is up and not overloaded")
        if isinstance(exc, self._openai.APIConnectionError):
            return (f"cannot connect to {where} {tries}: {redact_credentials(str(exc))}; check base_url "
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
