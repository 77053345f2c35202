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
from typing import Any, Protocol, Self, cast

from authorag.errors import ConfigError
from authorag.judges.backends.base import (
    FEATURES,
    ChatRequest,
    Completion,
    LLMBackend,
    TokenLogprob,
)
from authorag.settings import cache_dir
from authorag.validation import check_positive_int

logger = logging.getLogger(__name__)

DEFAULT_MAX_ENTRIES = 100_000
"""Entries a judge cache keeps; beyond it the oldest written are evicted (docs/judges.md)."""
EVICT_TO = 0.9
"""An eviction shrinks the cache to this share of ``max_entries`` (so it does not run on every write)."""
_RECOUNT_EVERY = 1000  # writes between exact counts (other processes write to the same file)

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

    The cache is bounded: when it holds more than ``max_entries`` completions, a write deletes
    the oldest written down to :data:`EVICT_TO` of the bound (each writing process counts
    exactly after every 10 % of the bound it writes, at most every 1,000 writes, and whenever
    its own count passes the bound, so other writers overshoot it by at most 10 % each). A row this
    version cannot read (damaged, or from a foreign writer) is a miss, logged once, and is
    replaced by the next answer; a failing read or write is logged once and skipped, so a broken
    cache never fails a judgement.

    Args:
        path: a file path, ``":memory:"`` (private to this object), or None for
            :func:`default_cache_path`.
        timeout_s: how long a writer waits for another process's lock.
        max_entries: the bound (None: unbounded).

    Raises:
        ConfigError: the file is not a SQLite database (or cannot be created), naming it.

    Example:
        >>> cache = JudgeCache(":memory:")
        >>> cache.put("k", Completion(text="7"))
        >>> cache.get("k").text, len(cache)
        ('7', 1)
    """

    def __init__(self, path: str | Path | None = None, *, timeout_s: float = 30.0,
                 max_entries: int | None = DEFAULT_MAX_ENTRIES) -> None:
        self.max_entries = check_positive_int("max_entries", max_entries, optional=True)
        target = default_cache_path() if path is None else path
        self.path = str(target)
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self.evicted = 0
        self._warned: set[str] = set()
        try:
            if self.path != ":memory:":
                Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            # One connection guarded by a lock: threads share it; other processes coordinate
            # through SQLite's own file locks (WAL + busy timeout).
            self._conn = sqlite3.connect(self.path, timeout=timeout_s, check_same_thread=False,
                                         isolation_level=None)
            with self._lock:
                if self.path != ":memory:":
                    self._conn.execute("PRAGMA journal_mode=WAL")
                    self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.execute(_SCHEMA)
                self._count = self._exact_count()
        except (sqlite3.Error, OSError) as exc:
            raise ConfigError(f"judge cache {self.path!r} cannot be used as a SQLite database ({exc}); delete or "
                              "move the file, or choose another with --cache PATH (AUTHORAG_JUDGE_CACHE)") from exc
        self._writes = 0

    @property
    def journal_mode(self) -> str:
        """SQLite's journal mode (``"wal"`` for files, ``"memory"`` for ``:memory:``)."""
        with self._lock:
            row = self._conn.execute("PRAGMA journal_mode").fetchone()
        return str(row[0])

    def _warn_once(self, kind: str, message: str, *args: object) -> None:
        """Log the first problem of a kind as a warning, later ones at debug level."""
        level = logging.DEBUG if kind in self._warned else logging.WARNING
        self._warned.add(kind)
        logger.log(level, "judge cache %s: " + message, self.path, *args)

    def get(self, key: str) -> Completion | None:
        """The stored completion for ``key`` (marked ``cached=True``), or None (also for a bad row)."""
        try:
            with self._lock:
                row = self._conn.execute("SELECT value FROM completions WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            self._warn_once("read", "cannot read (%s); answering without the cache", exc)
            row = None
        try:
            completion = None if row is None else decode_completion(row[0])
        except ValueError as exc:
            self._warn_once("row", "ignoring an unreadable entry (%s); it is replaced by the next answer", exc)
            completion = None
        with self._lock:
            if completion is None:
                self.misses += 1
                return None
            self.hits += 1
        return dataclasses.replace(completion, cached=True)

    def put(self, key: str, completion: Completion, *, backend: str = "", model: str = "",
            prompt_version: str = "") -> None:
        """Store (or replace) the completion for ``key``; evicts the oldest entries past the bound."""
        value = _encode(completion)
        try:
            with self._lock:
                self._conn.execute(
                    "INSERT OR REPLACE INTO completions VALUES (?, ?, ?, ?, ?, ?)",
                    (key, backend, model or completion.model, prompt_version, value, time.time()),
                )
                self._count += 1  # an upper bound: a replaced key does not grow the table
                self._writes += 1
                bound = self.max_entries
                if bound is not None and (self._count > bound or self._writes >= min(_RECOUNT_EVERY, bound // 10 + 1)):
                    self._evict(bound)
        except sqlite3.Error as exc:
            self._warn_once("write", "cannot write (%s); the answer is not cached", exc)

    def _exact_count(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def _evict(self, bound: int) -> None:
        """Count exactly; past ``bound``, delete the oldest written rows (lowest rowid). Under the lock."""
        self._writes = 0
        self._count = self._exact_count()
        if self._count <= bound:
            return
        excess = self._count - int(bound * EVICT_TO)
        self._conn.execute("DELETE FROM completions WHERE rowid IN "
                           "(SELECT rowid FROM completions ORDER BY rowid LIMIT ?)", (excess,))
        self._count -= excess
        self.evicted += excess
        logger.info("judge cache %s: evicted the %d oldest entries (bound %d)", self.path, excess, bound)

    def clear(self) -> int:
        """Delete every entry; returns how many there were."""
        with self._lock:
            self._count = 0
            return self._conn.execute("DELETE FROM completions").rowcount

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()

    def __len__(self) -> int:
        with self._lock:
            return self._exact_count()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"JudgeCache(path={self.path!r})"


class CachedBackend:
    """Wrap a backend so identical requests are answered from a :class:`JudgeCache`.

    ``name`` and ``model`` are the wrapped backend's. Failed calls are not cached, nor answers the
    request's ``accept`` check refuses (see :class:`~authorag.judges.backends.base.ChatRequest`).

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
        if hit is not None and request.accept is not None and not request.accept(hit):
            hit = None  # stored before the judge checked its answers: ask again, the answer replaces it
        if hit is not None:
            hit = dataclasses.replace(hit, latency_s=time.perf_counter() - start)
        return key, hit

    def _store(self, key: str, request: ChatRequest, completion: Completion) -> None:
        if request.accept is not None and not request.accept(completion):
            return  # a failed judgement is not remembered
        self.cache.put(key, completion, backend=self.name, model=self.model,
                       prompt_version=request.prompt_version)

    def __repr__(self) -> str:
        return f"CachedBackend({self.backend!r}, {self.cache!r})"


def _encode(completion: Completion) -> str:
    data = dataclasses.asdict(completion)
    data.pop("cached", None)
    return json.dumps(data, separators=(",", ":"))


class UnreadableEntry(ValueError):
    """A stored value this version cannot read as a completion (the message says why)."""


def _decode(value: object) -> Completion:
    """A stored completion; :class:`UnreadableEntry` saying what is wrong when the row is not one."""
    if isinstance(value, bytes | bytearray):
        value = bytes(value).decode("utf-8")  # UnicodeDecodeError is a ValueError
    if not isinstance(value, str):
        raise UnreadableEntry(f"a {type(value).__name__}, not JSON text")
    try:
        data: object = json.loads(value)
    except RecursionError:
        raise UnreadableEntry("JSON nested too deeply") from None
    except ValueError as exc:
        raise UnreadableEntry(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise UnreadableEntry(f"a JSON {type(data).__name__}, not an object")
    row = cast(dict[str, Any], data)
    if not isinstance(row.get("text"), str):
        raise UnreadableEntry("no 'text' string")
    fields: dict[str, Any] = {"text": row["text"], "logprobs": _logprobs(row.get("logprobs"))}
    for name, kind in _SCALARS.items():
        if name in row:
            if isinstance(row[name], bool) or not isinstance(row[name], kind):
                raise UnreadableEntry(f"'{name}' is {type(row[name]).__name__}")
            fields[name] = row[name]
    dropped = row.get("dropped_features", [])
    if not isinstance(dropped, list) or not set(cast(list[Any], dropped)) <= set(FEATURES):
        raise UnreadableEntry("'dropped_features' is not a list of request features")
    return Completion(**fields, dropped_features=tuple(cast(list[Any], dropped)))


_SCALARS: dict[str, type | tuple[type, ...]] = {"prompt_tokens": int, "completion_tokens": int,
                                                "latency_s": (int, float), "model": str, "finish_reason": str}


def _logprobs(raw: object) -> tuple[TokenLogprob, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise UnreadableEntry("'logprobs' is not a list")
    out: list[TokenLogprob] = []
    for lp in cast(list[Any], raw):
        ok = (isinstance(lp, dict) and isinstance(lp.get("token"), str) and _is_number(lp.get("logprob"))
              and isinstance(lp.get("top"), dict)
              and all(isinstance(k, str) and _is_number(v) for k, v in cast(dict[Any, Any], lp["top"]).items()))
        if not ok:
            raise UnreadableEntry("a 'logprobs' entry is not {token, logprob, top}")
        out.append(TokenLogprob(token=lp["token"], logprob=lp["logprob"], top=lp["top"]))
    return tuple(out)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


encode_completion = _encode
"""A completion as the JSON text every cache backend stores (``cached`` left out)."""
decode_completion = _decode
"""The inverse of :data:`encode_completion` (ignores fields of other versions; raises
:class:`UnreadableEntry` naming the problem for text that is not a stored completion)."""

__all__ = ["DEFAULT_MAX_ENTRIES", "EVICT_TO", "CachedBackend", "CompletionCache", "JudgeCache", "UnreadableEntry",
           "cache_key", "decode_completion", "default_cache_path", "encode_completion"]
