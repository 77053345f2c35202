"""Cost accounting for judge runs: calls, tokens, latency, cache hits, errors, parse failures.

Wrap a backend in :class:`MeteredBackend` (outside any :class:`~authorag.judges.backends.cache.CachedBackend`
so cache hits are seen) and read :meth:`CostMeter.totals` or :meth:`CostMeter.to_dict` after
the run. Judges report answers they could not parse with :meth:`CostMeter.record_parse_failure`.

Example:
    >>> from authorag.testing import FakeBackend
    >>> from authorag.judges.backends.base import ChatRequest
    >>> meter = CostMeter()
    >>> backend = MeteredBackend(FakeBackend(["7", "8"]), meter, label="point")
    >>> _ = [backend.complete(ChatRequest(messages=[])) for _ in range(2)]
    >>> meter.totals().calls, meter.totals().completion_tokens
    (2, 2)
"""
from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from authorag.errors import JudgeError
from authorag.judges.backends.base import ChatRequest, Completion, LLMBackend


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One backend call as the meter saw it."""

    backend: str
    model: str
    label: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    cached: bool
    ok: bool = True
    dropped_features: tuple[str, ...] = ()
    ended_at: float = 0.0


@dataclass(frozen=True, slots=True)
class CostTotals:
    """Sums over a set of calls.

    Attributes:
        calls: every call, including cache hits and failed calls.
        cache_hits: calls answered from the cache.
        errors: calls that raised.
        parse_failures: answers a judge could not parse (reported by the judge).
        prompt_tokens, completion_tokens: tokens actually spent (cache hits count 0).
        latency_s: summed call latency.
        wall_s: from the first call's start to the last call's end.
    """

    calls: int = 0
    cache_hits: int = 0
    errors: int = 0
    parse_failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    wall_s: float = 0.0

    @property
    def parse_failure_rate(self) -> float:
        """parse_failures / answered calls (0.0 when nothing was answered)."""
        answered = self.calls - self.errors
        return self.parse_failures / answered if answered else 0.0

    def to_dict(self) -> dict[str, float | int]:
        """Plain JSON-ready dict, including ``parse_failure_rate``."""
        out: dict[str, float | int] = dataclasses.asdict(self)
        out["parse_failure_rate"] = self.parse_failure_rate
        return out


class CostMeter:
    """Thread-safe collector of :class:`CallRecord`s with per-label totals.

    Example:
        >>> meter = CostMeter()
        >>> meter.record(Completion(text="7", prompt_tokens=30, completion_tokens=1,
        ...                         latency_s=0.5), backend="local", label="point")
        >>> meter.record_parse_failure("point")
        >>> meter.to_dict()["totals"]["parse_failure_rate"]
        1.0
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[CallRecord] = []
        self._parse_failures: dict[str, int] = {}

    def record(self, completion: Completion, *, backend: str = "", label: str = "") -> None:
        """Add one answered call."""
        self._add(CallRecord(
            backend=backend, model=completion.model, label=label,
            prompt_tokens=0 if completion.cached else completion.prompt_tokens,
            completion_tokens=0 if completion.cached else completion.completion_tokens,
            latency_s=completion.latency_s, cached=completion.cached,
            dropped_features=tuple(completion.dropped_features), ended_at=time.monotonic(),
        ))

    def record_error(self, *, backend: str = "", model: str = "", label: str = "",
                     latency_s: float = 0.0) -> None:
        """Add one call that raised."""
        self._add(CallRecord(backend=backend, model=model, label=label, prompt_tokens=0,
                             completion_tokens=0, latency_s=latency_s, cached=False, ok=False,
                             ended_at=time.monotonic()))

    def record_parse_failure(self, label: str = "") -> None:
        """Count one answer a judge could not parse."""
        with self._lock:
            self._parse_failures[label] = self._parse_failures.get(label, 0) + 1

    @property
    def records(self) -> tuple[CallRecord, ...]:
        """Every call so far, in the order they finished."""
        with self._lock:
            return tuple(self._records)

    def totals(self, label: str | None = None) -> CostTotals:
        """Sums over every call, or over the calls with ``label``."""
        with self._lock:
            records = [r for r in self._records if label is None or r.label == label]
            failures = (sum(self._parse_failures.values()) if label is None
                        else self._parse_failures.get(label, 0))
        return _sum(records, failures)

    def to_dict(self) -> dict[str, Any]:
        """``{"totals": {...}, "by_label": {label: {...}}}`` (JSON-ready)."""
        with self._lock:
            labels = sorted({r.label for r in self._records} | set(self._parse_failures))
        return {
            "totals": self.totals().to_dict(),
            "by_label": {label: self.totals(label).to_dict() for label in labels},
        }

    def reset(self) -> None:
        """Forget every record."""
        with self._lock:
            self._records.clear()
            self._parse_failures.clear()

    def _add(self, record: CallRecord) -> None:
        with self._lock:
            self._records.append(record)


def _sum(records: Iterable[CallRecord], parse_failures: int) -> CostTotals:
    rows = list(records)
    if not rows:
        return CostTotals(parse_failures=parse_failures)
    start = min(r.ended_at - r.latency_s for r in rows)
    return CostTotals(
        calls=len(rows),
        cache_hits=sum(r.cached for r in rows),
        errors=sum(not r.ok for r in rows),
        parse_failures=parse_failures,
        prompt_tokens=sum(r.prompt_tokens for r in rows),
        completion_tokens=sum(r.completion_tokens for r in rows),
        latency_s=sum(r.latency_s for r in rows),
        wall_s=max(r.ended_at for r in rows) - start,
    )


class MeteredBackend:
    """Wrap a backend so every call lands in a :class:`CostMeter`.

    Args:
        backend: the backend to wrap (put it outside a CachedBackend to count cache hits).
        meter: where records go (a new meter when None).
        label: tag for the records (e.g. the judge's name).

    Example:
        >>> from authorag.testing import FakeBackend
        >>> MeteredBackend(FakeBackend(["1"])).name
        'fake'
    """

    def __init__(self, backend: LLMBackend, meter: CostMeter | None = None, *,
                 label: str = "") -> None:
        self.backend = backend
        self.meter = meter if meter is not None else CostMeter()
        self.label = label
        self.name = backend.name
        self.model = backend.model

    def complete(self, request: ChatRequest) -> Completion:
        """Call the backend and record the call (errors are recorded and re-raised)."""
        start = time.perf_counter()
        try:
            completion = self.backend.complete(request)
        except JudgeError:
            self._failed(start)
            raise
        self.meter.record(completion, backend=self.name, label=self.label)
        return completion

    async def acomplete(self, request: ChatRequest) -> Completion:
        """Async twin of :meth:`complete`."""
        start = time.perf_counter()
        try:
            completion = await self.backend.acomplete(request)
        except JudgeError:
            self._failed(start)
            raise
        self.meter.record(completion, backend=self.name, label=self.label)
        return completion

    def _failed(self, start: float) -> None:
        self.meter.record_error(backend=self.name, model=self.model, label=self.label,
                                latency_s=time.perf_counter() - start)

    def __repr__(self) -> str:
        return f"MeteredBackend({self.backend!r}, label={self.label!r})"


__all__ = ["CallRecord", "CostMeter", "CostTotals", "MeteredBackend"]
