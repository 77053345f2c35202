"""A persistent judge cache: repeated requests cost nothing.

SQLite in WAL mode (readers never block the writer; several processes can share one file),
keyed by a SHA-256 over (backend name, model, prompt version, canonical JSON of the request).
:class:`CachedBackend` wraps any backend and answers hits with ``Completion(cached=True)``.

Example:
    >>> from authorag.testing import FakeBackend
    >>> from authorag.judges.backends.base import ChatRequest
    >>> backend = CachedBackend(FakeBackend(["7"]), JudgeCache(":memory:"))
    >>> req = ChatRequest(messages=[{"role": "user", "content": "rate nature.com"}])
    >>> backend.complete(req).cached, backend.complete(req).cached
    (False, True)
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Protocol, Self

from authorag.judges.backends.base import ChatRequest, Completion, LLMBackend, TokenLogprob
from authorag.judges.backends.models import cache_dir

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key TEXT PRIMARY KEY,
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    value TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def default_cache_path() -> Path:
    """``<authorag cache dir>/judge_cache.sqlite3``."""
    return cache_dir() / "judge_cache.sqlite3"


def cache_key(backend: str, model: str, request: ChatRequest) -> str:
    """SHA-256 over the backend, model, prompt version and the canonical request.

    Example:
        >>> req = ChatRequest(messages=[{"role": "user", "content": "x"}], prompt_version="v1")
        >>> cache_key("local", "m", req) == cache_key("local", "m", req)
        True
        >>> cache_key("local", "m", req) == cache_key("local", "other", req)
        False
    """
    payload = {
        "backend": backend,
        "model": model,
        "prompt_version": request.prompt_version,
        "messages": [sorted(m.items()) for m in request.messages],
        "max_tokens": request.max_tokens,
        "grammar": request.grammar,
        "json_schema": request.json_schema,
        "logprobs": request.logprobs,
        "top_logprobs": request.top_logprobs if request.logprobs else None,
        "constrained_probs": request.constrained_probs and request.logprobs,
        "temperature": float(request.temperature),
        "seed": request.seed,
    }
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CompletionCache(Protocol):
    """What :class:`CachedBackend` needs from a cache: :class:`JudgeCache` (SQLite, the
    default) or :class:`~authorag.judges.backends.cache_redis.RedisJudgeCache` (shared by replicas)."""

    hits: int
    misses: int

    def get(self, key: str) -> Completion | None: ...

    def put(self, key: str, completion: Completion, *, backend: str = "", model: str = "",
            prompt_version: str = "") -> None: ...

    def clear(self) -> int: ...

    def close(self) -> None: ...

    def __len__(self) -> int: ...


class JudgeCache:
    """SQLite store of completions, safe to share between threads and processes.

    Args:
        path: a file path, ``":memory:"`` (private to this object), or None for
            :func:`default_cache_path`.
        timeout_s: how long a writer waits for another process's lock.

    Example:
        >>> cache = JudgeCache(":memory:")
        >>> cache.put("k", Completion(text="7"))
        >>> cache.get("k").text, len(cache)
        ('7', 1)
    """

    def __init__(self, path: str | Path | None = None, *, timeout_s: float = 30.0) -> None:
        target = default_cache_path() if path is None else path
        self.path = str(target)
        if self.path != ":memory:":
            Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # One connection guarded by a lock: threads share it; other processes coordinate
        # through SQLite's own file locks (WAL + busy timeout).
        self._conn = sqlite3.connect(self.path, timeout=timeout_s, check_same_thread=False,
                                     isolation_level=None)
        with self._lock:
            if self.path != ":memory:":
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(_SCHEMA)
        self.hits = 0
        self.misses = 0

    @property
    def journal_mode(self) -> str:
        """SQLite's journal mode (``"wal"`` for files, ``"memory"`` for ``:memory:``)."""
        with self._lock:
            row = self._conn.execute("PRAGMA journal_mode").fetchone()
        return str(row[0])

    def get(self, key: str) -> Completion | None:
        """The stored completion for ``key`` (marked ``cached=True``), or None."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM completions WHERE key = ?",
                                     (key,)).fetchone()
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
        return dataclasses.replace(_decode(str(row[0])), cached=True)

    def put(self, key: str, completion: Completion, *, backend: str = "", model: str = "",
            prompt_version: str = "") -> None:
        """Store (or replace) the completion for ``key``."""
        value = _encode(completion)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO completions VALUES (?, ?, ?, ?, ?, ?)",
                (key, backend, model or completion.model, prompt_version, value, time.time()),
            )

    def clear(self) -> int:
        """Delete every entry; returns how many there were."""
        with self._lock:
            return self._conn.execute("DELETE FROM completions").rowcount

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*) FROM completions").fetchone()
        return int(row[0])

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"JudgeCache(path={self.path!r})"


class CachedBackend:
    """Wrap a backend so identical requests are answered from a :class:`JudgeCache`.

    ``name`` and ``model`` are the wrapped backend's. Failed calls are not cached.

    Example:
        >>> from authorag.testing import FakeBackend
        >>> cached = CachedBackend(FakeBackend(["1"]), JudgeCache(":memory:"))
        >>> cached.name, cached.model
        ('fake', 'fake-model')
    """

    def __init__(self, backend: LLMBackend, cache: CompletionCache | None = None) -> None:
        self.backend = backend
        self.cache: CompletionCache = cache if cache is not None else JudgeCache()
        self.name = backend.name
        self.model = backend.model

    def complete(self, request: ChatRequest) -> Completion:
        """Answer from the cache, or from the backend (then store the answer)."""
        key, hit = self._lookup(request)
        if hit is not None:
            return hit
        completion = self.backend.complete(request)
        self._store(key, request, completion)
        return completion

    async def acomplete(self, request: ChatRequest) -> Completion:
        """Async twin of :meth:`complete`."""
        key, hit = self._lookup(request)
        if hit is not None:
            return hit
        completion = await self.backend.acomplete(request)
        self._store(key, request, completion)
        return completion

    def _lookup(self, request: ChatRequest) -> tuple[str, Completion | None]:
        start = time.perf_counter()
        key = cache_key(self.name, self.model, request)
        hit = self.cache.get(key)
        if hit is not None:
            hit = dataclasses.replace(hit, latency_s=time.perf_counter() - start)
        return key, hit

    def _store(self, key: str, request: ChatRequest, completion: Completion) -> None:
        self.cache.put(key, completion, backend=self.name, model=self.model,
                       prompt_version=request.prompt_version)

    def __repr__(self) -> str:
        return f"CachedBackend({self.backend!r}, {self.cache!r})"


def _encode(completion: Completion) -> str:
    data = dataclasses.asdict(completion)
    data.pop("cached", None)
    return json.dumps(data, separators=(",", ":"))


def _decode(value: str) -> Completion:
    data: dict[str, Any] = json.loads(value)
    raw_lps: list[dict[str, Any]] | None = data.pop("logprobs", None)
    logprobs = None if raw_lps is None else tuple(
        TokenLogprob(token=lp["token"], logprob=lp["logprob"], top=lp["top"]) for lp in raw_lps
    )
    data["dropped_features"] = tuple(data.get("dropped_features", ()))
    known = {f.name for f in dataclasses.fields(Completion)}  # rows from other versions
    return Completion(logprobs=logprobs, **{k: v for k, v in data.items() if k in known})


encode_completion = _encode
"""A completion as the JSON text every cache backend stores (``cached`` left out)."""
decode_completion = _decode
"""The inverse of :data:`encode_completion` (tolerates fields from other versions)."""

__all__ = ["CachedBackend", "CompletionCache", "JudgeCache", "cache_key", "decode_completion",
           "default_cache_path", "encode_completion"]
