"""Deadlines, a bounded worker pool and a circuit breaker for judge calls.

A judge is a network call (or a CPU-heavy local model) inside a request that otherwise takes a
millisecond. :class:`JudgeGuard` keeps one slow or broken judge from taking a service down:

- **deadline, not retries**: a call runs on the guard's pool and the caller waits only until
  the request's deadline; a call still in flight then is abandoned (its thread finishes on its
  own, bounded by the backend's HTTP timeout) and the request answers with what the other
  tiers know.
- **bounded pool**: at most ``workers`` calls run at once; when all are busy a new call is
  skipped at once instead of queueing, so requests never wait behind a stuck endpoint.
- **circuit breaker**: after ``failure_threshold`` failures in a row (errors, timeouts,
  unanswered calls) the guard stops calling for ``open_s`` seconds, then lets one trial call
  through (half-open); a success closes it again.
- **negative cache**: a key (domain) whose call failed is not asked again for
  ``negative_ttl_s`` seconds.

Skipped calls return :class:`Skipped` with a stable ``code`` (see :data:`SKIP_CODES`), which
the hybrid scorer writes into the detail's ``skipped`` field (and its note, in words) and the
server into its result.

Example:
    >>> guard = JudgeGuard(workers=1)
    >>> guard.call("nih.gov", lambda: 7, timeout_s=1.0)
    7
    >>> guard.state()["state"]
    'closed'
"""
from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from authorag.bounded import BoundedDict
from authorag.errors import ConfigError
from authorag.judges.backends._budget import call_deadline_in
from authorag.types import SkipCode

logger = logging.getLogger(__name__)
T = TypeVar("T")

SKIP_CODES: dict[SkipCode, str] = {
    "deadline": "judge time budget exhausted: the request's judge deadline passed",
    "circuit_open": "judge skipped: the judge endpoint failed repeatedly (circuit open)",
    "pool_busy": "judge skipped: every judge worker is busy",
    "recent_failure": "judge skipped: the judge failed on this domain moments ago",
}
"""Skip code -> the note prefix written on the candidate."""

BreakerState = Literal["closed", "open", "half_open"]


@dataclass(frozen=True, slots=True)
class Skipped(Generic[T]):
    """A call the guard did not make or did not wait for."""

    code: SkipCode
    detail: str = ""

    @property
    def note(self) -> str:
        """The human-readable note (``SKIP_CODES[code]`` plus detail)."""
        return f"{SKIP_CODES[self.code]} ({self.detail})" if self.detail else SKIP_CODES[self.code]


class JudgeGuard:
    """Runs judge calls under a deadline on a bounded pool behind a circuit breaker.

    Args:
        workers: calls in flight at once (threads of the pool).
        failure_threshold: failures in a row that open the circuit.
        open_s: seconds the circuit stays open before a trial call.
        negative_ttl_s: seconds a failed key is not asked again.
        max_negative: failed keys remembered at most (oldest forgotten first).

    Raises:
        ConfigError: a bound outside its range.
    """

    def __init__(self, *, workers: int = 4, failure_threshold: int = 3, open_s: float = 30.0,
                 negative_ttl_s: float = 60.0, max_negative: int = 10_000) -> None:
        if workers < 1 or failure_threshold < 1 or max_negative < 0:
            raise ConfigError(f"workers and failure_threshold must be >= 1 and max_negative >= 0, got "
                              f"workers={workers}, failure_threshold={failure_threshold}, max_negative={max_negative}")
        if open_s < 0 or negative_ttl_s < 0:
            raise ConfigError(f"open_s and negative_ttl_s must be >= 0, got {open_s}, {negative_ttl_s}")
        self.workers = workers
        self.failure_threshold = failure_threshold
        self.open_s = open_s
        self.negative_ttl_s = negative_ttl_s
        self.max_negative = max_negative
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="authorag-judge")
        self._slots = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._trial = False
        self._negative: BoundedDict[str, float] = BoundedDict(max_negative)
        self._last_error: str | None = None
        self._counts = {"calls": 0, "ok": 0, "failed": 0, "deadline": 0, "circuit_open": 0,
                        "pool_busy": 0, "recent_failure": 0}

    def call(self, key: str, fn: Callable[[], T], *, timeout_s: float,
             failed: Callable[[T], str | None] = lambda _: None) -> T | Skipped[T]:
        """Run ``fn`` for ``key``, waiting at most ``timeout_s`` seconds.

        ``failed(result)`` names a failure hidden in a normal result (a judge that skipped
        an item), or None. An exception from ``fn`` counts as a failure and is re-raised.
        """
        skipped = self._admit(key, timeout_s)
        if skipped is not None:
            return skipped
        future: Future[T] = self._pool.submit(_run_until, timeout_s, fn)
        future.add_done_callback(lambda _: self._slots.release())
        try:
            result = future.result(timeout=timeout_s)
        except FutureTimeout:
            self._record(key, f"no answer within {timeout_s:.2f} s")
            self._bump("deadline")
            return Skipped("deadline", f"no answer within {timeout_s:.2f} s")
        except Exception as exc:
            self._record(key, f"{type(exc).__name__}: {exc}")
            raise
        reason = failed(result)
        self._record(key, reason)
        return result

    def _admit(self, key: str, timeout_s: float) -> Skipped[Any] | None:
        now = time.monotonic()
        if timeout_s <= 0:
            self._bump("deadline")
            return Skipped("deadline", "no time left in this request")
        with self._lock:
            failed_at = self._negative.get(key)
            if failed_at is not None and now - failed_at < self.negative_ttl_s:
                self._counts["recent_failure"] += 1
                return Skipped("recent_failure", f"retry after {self.negative_ttl_s - (now - failed_at):.0f} s")
            if self._opened_at is not None:
                left = self.open_s - (now - self._opened_at)
                if left > 0 or self._trial:
                    self._counts["circuit_open"] += 1
                    return Skipped("circuit_open", f"{self._failures} failures in a row; next try in {max(left, 0):.0f} s")
                self._trial = True  # half-open: this call is the trial
        if not self._slots.acquire(blocking=False):
            with self._lock:
                self._trial = False
            self._bump("pool_busy")
            return Skipped("pool_busy", f"{self.workers} calls in flight")
        with self._lock:
            self._counts["calls"] += 1
        return None

    def _bump(self, name: str) -> None:
        with self._lock:
            self._counts[name] += 1

    def _record(self, key: str, error: str | None) -> None:
        with self._lock:
            self._trial = False
            if error is None:
                self._counts["ok"] += 1
                self._failures = 0
                self._opened_at = None
                self._negative.pop(key, None)
                return
            self._counts["failed"] += 1
            self._failures += 1
            self._last_error = error[:300]
            self._negative.put(key, time.monotonic())
            if self._failures >= self.failure_threshold:
                if self._opened_at is None:
                    logger.warning("judge circuit opened after %d failures in a row (last: %s)",
                                   self._failures, self._last_error)
                self._opened_at = time.monotonic()

    def breaker(self) -> BreakerState:
        """``closed`` (calling), ``open`` (not calling) or ``half_open`` (a trial is due)."""
        with self._lock:
            if self._opened_at is None:
                return "closed"
            return "open" if time.monotonic() - self._opened_at < self.open_s or self._trial else "half_open"

    def state(self) -> dict[str, Any]:
        """A JSON view for ``/readyz`` and logs."""
        breaker = self.breaker()
        with self._lock:
            return {"state": breaker, "failures_in_a_row": self._failures,
                    "failure_threshold": self.failure_threshold, "open_s": self.open_s,
                    "workers": self.workers, "negative_ttl_s": self.negative_ttl_s,
                    "remembered_failures": len(self._negative), "last_error": self._last_error,
                    "counts": dict(self._counts)}

    def close(self) -> None:
        """Stop the pool without waiting for calls in flight."""
        self._pool.shutdown(wait=False, cancel_futures=True)


_GRACE_S = 0.25
"""Backends stop this long after the caller's deadline, so the caller always sees 'deadline'
(not a backend timeout that raced it) and the abandoned thread still ends promptly."""


def _run_until(seconds: float, fn: Callable[[], T]) -> T:
    # Backends see the deadline (authorag.judges.backends._budget) and stop retrying at it.
    with call_deadline_in(seconds + _GRACE_S):
        return fn()


_GUARDS: weakref.WeakKeyDictionary[Any, JudgeGuard] = weakref.WeakKeyDictionary()
_GUARDS_LOCK = threading.Lock()


def guard_for(judge: Any, **settings: Any) -> JudgeGuard:
    """The guard of ``judge`` (one per judge object, so one breaker per endpoint).

    ``settings`` (the :class:`JudgeGuard` arguments) replace the guard when given.

    Example:
        >>> class J: pass
        >>> j = J()
        >>> guard_for(j) is guard_for(j)
        True
    """
    with _GUARDS_LOCK:
        guard = _GUARDS.get(judge)
        if guard is None or settings:
            if guard is not None:
                guard.close()
            guard = JudgeGuard(**settings)
            _GUARDS[judge] = guard
        return guard


__all__ = ["SKIP_CODES", "BreakerState", "JudgeGuard", "Skipped", "guard_for"]
