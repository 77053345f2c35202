"""The deadline of the judge call running in this context (set by the judge guard).

Backends read it to cap each HTTP attempt's timeout and to stop retrying when no time is left,
so a call the caller has already given up on does not hold a worker thread for minutes.

Example:
    >>> with call_deadline_in(5.0):
    ...     0 < remaining(60.0) <= 5.0
    True
    >>> remaining(60.0)
    60.0
"""
from __future__ import annotations

import time
from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("authorag_judge_deadline", default=None)


@contextmanager
def call_deadline_in(seconds: float) -> Generator[None]:
    """Set the deadline of calls made inside the block to ``seconds`` from now."""
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining(default: float) -> float:
    """Seconds left before the deadline (``default`` when none is set; may be <= 0)."""
    deadline = _DEADLINE.get()
    return default if deadline is None else min(default, deadline - time.monotonic())


__all__ = ["call_deadline_in", "remaining"]
