"""A deadline for one call's work, seen by the steps that can stop part-way.

The HTTP server and the MCP tools give every request a deadline. Most steps of a rerank take
microseconds per document and are checked between steps; a step that can take seconds (dense
relevance encoding hundreds of new pages) reads the deadline set here and stops between its
batches, so a request past its deadline frees its thread within one batch instead of finishing
work whose answer will be dropped.

Example:
    >>> import time
    >>> with deadline_scope(time.monotonic() + 60):
    ...     has_deadline(), past_deadline()
    (True, False)
    >>> has_deadline()
    False
"""
from __future__ import annotations

import time
from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar

from authorag.errors import AuthoragError

_DEADLINE: ContextVar[float | None] = ContextVar("authorag_deadline", default=None)


class DeadlinePassed(AuthoragError):
    """A step stopped because the call's deadline (:func:`deadline_scope`) had passed."""


@contextmanager
def deadline_scope(deadline: float | None) -> Generator[None]:
    """Run the block with ``deadline`` (``time.monotonic()`` seconds; None: no deadline)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def has_deadline() -> bool:
    """Whether the current call has a deadline."""
    return _DEADLINE.get() is not None


def past_deadline() -> bool:
    """Whether the current call has a deadline and it has passed."""
    deadline = _DEADLINE.get()
    return deadline is not None and time.monotonic() >= deadline


def stop_if_past_deadline() -> None:
    """Raise :class:`DeadlinePassed` when the current call's deadline has passed: a long step
    calls it between its units of work (a batch, a statement, a source), so a call past its
    deadline stops costing CPU within one unit.

    Raises:
        DeadlinePassed: the deadline has passed.
    """
    if past_deadline():
        raise DeadlinePassed("the call's deadline passed; its work stopped part-way")


__all__ = ["DeadlinePassed", "deadline_scope", "has_deadline", "past_deadline", "stop_if_past_deadline"]
