"""A judge cache in Redis, shared by several server replicas; and :func:`open_cache`.

Same keys (:func:`~authorag.judges.backends.cache.cache_key`), same stored JSON and the same semantics
as the SQLite :class:`~authorag.judges.backends.cache.JudgeCache` (a hit comes back ``cached=True``,
``put`` replaces, failures are never stored). Each entry is a Redis hash under
``<prefix><key>`` with the fields ``value``, ``backend``, ``model``, ``prompt_version`` and
``created``; entries never expire unless ``ttl_s`` is given. The cache is bounded like the SQLite
one: a sorted set ``<prefix>:index`` orders the entries by write time, and a write past
``max_entries`` deletes the oldest down to 90 % of it. A value this version cannot read is a miss
(logged once). SQLite stays the default: choose Redis with ``--cache redis://host:6379/0`` (or
``rediss://``, ``unix:///path/redis.sock``).

Example:
    >>> cache = open_cache("redis://127.0.0.1:6379/0")  # doctest: +SKIP
    >>> cache.put("k", Completion(text="7")); cache.get("k").text  # doctest: +SKIP
    '7'
"""
from __future__ import annotations

import dataclasses
import logging
import time
from pathlib import Path
from typing import Any, Self

from authorag._optional import require
from authorag._urlhost import redact_credentials
from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends.base import Completion
from authorag.judges.backends.cache import (
    DEFAULT_MAX_ENTRIES,
    EVICT_TO,
    CompletionCache,
    JudgeCache,
    decode_completion,
    encode_completion,
)
from authorag.validation import check_positive_int

logger = logging.getLogger(__name__)

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
DEFAULT_PREFIX = "authorag:judge:"


class RedisJudgeCache:
    """Completions in a Redis server, safe to share between threads, processes and hosts.

    Args:
        url: ``redis://[:password@]host:port/db``, ``rediss://`` (TLS) or ``unix:///path.sock``.
        prefix: key prefix, so one Redis database can hold several caches.
        ttl_s: expire entries after this many seconds (None: keep them).
        timeout_s: socket connect and read timeout.
        max_entries: the bound (None: unbounded); entries written before the index existed
            are not counted.

    Raises:
        MissingDependencyError: the ``redis`` package is missing (``pip install 'authorag[redis]'``).
        ConfigError: the URL is not a Redis URL, or ``ttl_s`` is not positive.
    """

    def __init__(self, url: str, *, prefix: str = DEFAULT_PREFIX, ttl_s: float | None = None,
                 timeout_s: float = 5.0, max_entries: int | None = DEFAULT_MAX_ENTRIES) -> None:
        redis = require("redis", extra="redis", feature="RedisJudgeCache")
        if not url.startswith(REDIS_SCHEMES):
            raise ConfigError(f"a Redis cache URL starts with {' or '.join(REDIS_SCHEMES)}, got {url!r}")
        if ttl_s is not None and not ttl_s > 0:
            raise ConfigError(f"ttl_s must be > 0 or None, got {ttl_s!r}")
        self.url = url
        self.prefix = prefix
        self.ttl_s = ttl_s
        self.max_entries = check_positive_int("max_entries", max_entries, optional=True)
        self.evicted = 0
        self._index = prefix + ":index"
        self._warned = False
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError,)
        self._client: Any = _client(redis, url, redact_credentials(self._safe_url()), timeout_s)
        self.hits = 0
        self.misses = 0

    def _call(self, what: str, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except self._errors as exc:
            raise JudgeError(f"judge cache at {self._safe_url()} failed to {what} ({exc}); check that the Redis "
                             "server is up, or use a local cache file (--cache PATH)") from exc

    def _safe_url(self) -> str:
        head, sep, tail = self.url.rpartition("@")
        return f"{self.url.split('://', 1)[0]}://***@{tail}" if sep and head else self.url

    def get(self, key: str) -> Completion | None:
        """The stored completion for ``key`` (marked ``cached=True``), or None."""
        raw = self._call("read", self._client.hget, self.prefix + key, "value")
        try:
            completion = None if raw is None else decode_completion(raw)
        except ValueError as exc:
            logger.log(logging.DEBUG if self._warned else logging.WARNING, "judge cache %s: ignoring an unreadable "
                       "entry (%s); it is replaced by the next answer", self._safe_url(), exc)
            self._warned = True
            completion = None
        if completion is None:
            self.misses += 1
            return None
        self.hits += 1
        return dataclasses.replace(completion, cached=True)

    def put(self, key: str, completion: Completion, *, backend: str = "", model: str = "",
            prompt_version: str = "") -> None:
        """Store (or replace) the completion for ``key``."""
        fields = {"value": encode_completion(completion), "backend": backend, "model": model or completion.model,
                  "prompt_version": prompt_version, "created": repr(time.time())}
        name, now = self.prefix + key, time.time()
        pipe = self._client.pipeline(transaction=True)
        pipe.hset(name, mapping=fields)
        if self.ttl_s is not None:
            pipe.expire(name, max(1, round(self.ttl_s)))
        if self.max_entries is not None:
            pipe.zadd(self._index, {name: now})
            if self.ttl_s is not None:  # expired entries leave the count
                pipe.zremrangebyscore(self._index, "-inf", now - self.ttl_s)
            pipe.zcard(self._index)
        done = self._call("write", pipe.execute)
        if self.max_entries is not None and int(done[-1]) > self.max_entries:
            self._evict(int(done[-1]), self.max_entries)

    def _evict(self, count: int, bound: int) -> None:
        """Delete the oldest written entries down to :data:`EVICT_TO` of ``bound``."""
        excess = count - int(bound * EVICT_TO)
        popped = self._call("evict", self._client.zpopmin, self._index, excess)
        names = [member for member, _score in popped]
        for i in range(0, len(names), 1000):
            self._call("evict", self._client.delete, *names[i:i + 1000])
        self.evicted += len(names)
        logger.info("judge cache %s: evicted the %d oldest entries (bound %d)", self._safe_url(), len(names), bound)

    def _keys(self) -> list[bytes]:
        index = self._index.encode("utf-8")
        return [k for k in self._call("list keys", self._client.scan_iter, self.prefix + "*", 1000) if k != index]

    def clear(self) -> int:
        """Delete every entry under this cache's prefix; returns how many there were."""
        keys = self._keys()
        for i in range(0, len(keys), 1000):
            self._call("delete", self._client.delete, *keys[i:i + 1000])
        self._call("delete", self._client.delete, self._index)
        return len(keys)

    def __len__(self) -> int:
        return len(self._keys())

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"RedisJudgeCache(url={self._safe_url()!r}, prefix={self.prefix!r})"


def _client(redis: Any, url: str, shown: str, timeout_s: float) -> Any:
    """A client for ``url``, its options checked now (a connection object is built, none is
    opened): an option redis-py refuses fails here, at start-up, not on every request."""
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s)
        pool = client.connection_pool
        pool.connection_class(**pool.connection_kwargs).disconnect()
    except (ValueError, TypeError, redis.RedisError) as exc:
        why = str(exc).replace("__init__() ", "").replace("AbstractConnection.", "")
        raise ConfigError(f"the judge cache URL {shown} has an option Redis cannot use ({why}); fix or remove "
                          "that query option of --cache (see the redis-py URL options, or use rediss:// for TLS "
                          "options)") from None
    return client


def open_cache(spec: CompletionCache | str | Path | bool | None, *,
               max_entries: int | None = DEFAULT_MAX_ENTRIES) -> CompletionCache | None:
    """The judge cache a setting names: None/False → none; True → the default SQLite file;
    a Redis URL → :class:`RedisJudgeCache`; any other string or path → a SQLite file (or
    ``":memory:"``); a cache object is returned as is. ``max_entries`` bounds a new cache.

    Example:
        >>> open_cache(":memory:")
        JudgeCache(path=':memory:')
        >>> open_cache(False) is None
        True
    """
    if spec is None or spec is False:
        return None
    if spec is True:
        return JudgeCache(max_entries=max_entries)
    if isinstance(spec, str | Path):
        text = str(spec)
        if text.startswith(REDIS_SCHEMES):
            return RedisJudgeCache(text, max_entries=max_entries)
        return JudgeCache(text, max_entries=max_entries)
    return spec
