"""The embedded backend: llama.cpp inside this process via ``xllamacpp`` (no server to run).

The model loads on the first call and stays loaded: one instance per process per
(model path, context size, threads, slots), shared by every :class:`LocalBackend` that asks
for it. Requests and answers use the same OpenAI chat shape as :class:`OpenAIBackend`.

Example:
    >>> backend = LocalBackend("smollm2-135m")  # doctest: +SKIP
    >>> backend.complete(ChatRequest(messages=[{"role": "user", "content": "Pick a digit"}],
    ...                              max_tokens=1, grammar="root ::= [0-9]")).text  # doctest: +SKIP
    '1'
"""
from __future__ import annotations

import asyncio
import gc
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from authorag._optional import require
from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends._chat import build_payload, parse_response
from authorag.judges.backends._concurrency import PerLoop
from authorag.judges.backends.base import ChatRequest, Completion
from authorag.judges.backends.models import DEFAULT_MODEL, MODELS, check_available, resolve_model

logger = logging.getLogger(__name__)

_ServerKey = tuple[str, int, int, int]
_SERVERS: dict[_ServerKey, Any] = {}
_SERVERS_LOCK = threading.Lock()


class LocalBackend:
    """Run chat requests on a local GGUF model in-process.

    Args:
        model_path: a registered model name (``"qwen2.5-coder-1.5b"``, the default, or
            ``"smollm2-135m"``) or the path of any GGUF file.
        n_ctx: context window in tokens (shared by the ``n_parallel`` slots).
        n_threads: CPU threads (None: :func:`default_threads`).
        n_parallel: requests the model decodes at once.

    Raises:
        MissingDependencyError: ``xllamacpp`` (``authorag[llm]``) or the model's packages
            (``authorag[model]``) are missing.
        ConfigError: a bad argument or an unknown model.

    Example:
        >>> LocalBackend("smollm2-135m", n_ctx=8)
        Traceback (most recent call last):
        ...
        authorag.errors.ConfigError: n_ctx must be >= 64 tokens, got 8
    """

    name = "local"

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_parallel: int = 1,
    ) -> None:
        threads = n_threads if n_threads is not None else default_threads()
        _validate(n_ctx=n_ctx, n_threads=threads, n_parallel=n_parallel)
        self._xl: Any = require("xllamacpp", extra="llm", feature="LocalBackend")
        if model_path is None or (isinstance(model_path, str) and model_path in MODELS):
            self.model = model_path if model_path is not None else DEFAULT_MODEL
            check_available(self.model)
            self._path: Path | None = None
        else:
            self.model, self._path = resolve_model(model_path)
        self.n_ctx = n_ctx
        self.n_threads = threads
        self.n_parallel = n_parallel
        self._asems: PerLoop[asyncio.Semaphore] = PerLoop(lambda: asyncio.Semaphore(n_parallel))

    @property
    def model_file(self) -> Path:
        """The GGUF file (assembling the default model on first access)."""
        if self._path is None:
            self._path = resolve_model(self.model)[1]
        return self._path

    def complete(self, request: ChatRequest) -> Completion:
        """Answer one request (loads the model on first use).

        Raises:
            JudgeError: the model rejected the request (e.g. a bad grammar) or failed.
        """
        server = self._server()
        body = build_payload(request, model=self.model)
        start = time.perf_counter()
        data: Any = server.handle_chat_completions(body)
        latency = time.perf_counter() - start
        if isinstance(data, dict) and "error" in data:
            raise JudgeError(
                f"local model {self.model!r} refused the request: {data['error']!r}; "
                "check the grammar / json_schema and that the prompt fits n_ctx="
                f"{self.n_ctx}"
            )
        return parse_response(data, latency_s=latency, model=self.model, server_model=False)

    async def acomplete(self, request: ChatRequest) -> Completion:
        """Async twin of :meth:`complete`; runs in a worker thread (the model frees the GIL)."""
        async with self._asems.get():
            return await asyncio.to_thread(self.complete, request)

    def load(self) -> LocalBackend:
        """Load the model now instead of on the first call; returns self."""
        self._server()
        return self

    def __repr__(self) -> str:
        return f"LocalBackend(model={self.model!r}, n_ctx={self.n_ctx})"

    def _server(self) -> Any:
        key: _ServerKey = (str(self.model_file), self.n_ctx, self.n_threads, self.n_parallel)
        with _SERVERS_LOCK:
            server = _SERVERS.get(key)
            if server is None:
                server = _start(self._xl, key)
                _SERVERS[key] = server
            return server


def _start(xl: Any, key: _ServerKey) -> Any:
    path, n_ctx, n_threads, n_parallel = key
    params = xl.CommonParams()
    params.model.path = path
    params.n_ctx = n_ctx
    params.n_parallel = n_parallel
    params.cpuparams.n_threads = n_threads
    params.cpuparams_batch.n_threads = n_threads
    params.verbosity = 0  # llama.cpp logs every request to stderr otherwise
    start = time.perf_counter()
    try:
        server = xl.Server(params)
    except Exception as exc:  # xllamacpp raises a bare Exception on load failure
        raise JudgeError(
            f"xllamacpp could not load {path!r} (n_ctx={n_ctx}): {exc}; check that it is a "
            "GGUF model file and that there is enough memory"
        ) from exc
    logger.info("loaded %s in %.1f s", path, time.perf_counter() - start)
    return server


def default_threads() -> int:
    """All cores but one (at least one).

    llama.cpp's worker threads spin while waiting; when they compete with other busy
    processes for every core, a call gets many times slower (docs/backends.md has numbers).

    Example:
        >>> default_threads() >= 1
        True
    """
    return max(1, (os.cpu_count() or 1) - 1)


def unload_all() -> int:
    """Free every loaded local model; returns how many were loaded.

    Example:
        >>> unload_all() >= 0
        True
    """
    with _SERVERS_LOCK:
        count = len(_SERVERS)
        _SERVERS.clear()
    gc.collect()
    return count


def _validate(*, n_ctx: int, n_threads: int, n_parallel: int) -> None:
    if n_ctx < 64:
        raise ConfigError(f"n_ctx must be >= 64 tokens, got {n_ctx}")
    if n_threads < 1:
        raise ConfigError(f"n_threads must be >= 1, got {n_threads}")
    if n_parallel < 1:
        raise ConfigError(f"n_parallel must be >= 1, got {n_parallel}")


__all__ = ["LocalBackend", "default_threads", "unload_all"]
