"""Progress of long steps (assembling the judge model, judge calls) for whoever shows it.

Library code reports and never prints; a front end (the CLI) listens for the length of a
command and draws progress bars. Without a listener :func:`report` costs one list check.

Example:
    >>> seen = []
    >>> with listen(seen.append):
    ...     report("assemble model.gguf", 50, 100, unit="bytes")
    >>> seen
    [ProgressEvent(task='assemble model.gguf', done=50, total=100, unit='bytes')]
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import NamedTuple


class ProgressEvent(NamedTuple):
    """``done`` of ``total`` (None: unknown) ``unit`` of ``task``."""

    task: str
    done: int
    total: int | None
    unit: str


Listener = Callable[[ProgressEvent], None]
_LISTENERS: list[Listener] = []


def report(task: str, done: int, total: int | None = None, *, unit: str = "") -> None:
    """Tell the listeners (if any) that ``done`` of ``total`` units of ``task`` are finished."""
    if _LISTENERS:
        event = ProgressEvent(task, done, total, unit)
        for listener in tuple(_LISTENERS):
            listener(event)


@contextmanager
def listen(listener: Listener) -> Generator[None, None, None]:
    """Call ``listener`` with every :class:`ProgressEvent` reported inside the block."""
    _LISTENERS.append(listener)
    try:
        yield
    finally:
        _LISTENERS.remove(listener)


__all__ = ["Listener", "ProgressEvent", "listen", "report"]
