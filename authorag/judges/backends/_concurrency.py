"""Per-event-loop state for async backends.

asyncio primitives and async HTTP clients bind to the loop that first uses them, and tests
(and some apps) run several loops in one process; this keeps one instance per running loop.

Example:
    >>> import asyncio
    >>> sems = PerLoop(lambda: asyncio.Semaphore(2))
    >>> async def same() -> bool: return sems.get() is sems.get()
    >>> asyncio.run(same())
    True
"""
from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    """Lazily build one ``T`` per running asyncio loop (thread-safe)."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._items: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    def get(self) -> T:
        """The instance for the running loop (call from inside a coroutine)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            item = self._items.get(loop)
            if item is None:
                item = self._factory()
                self._items[loop] = item
            return item

    def pop(self) -> T | None:
        """Forget and return the running loop's instance (None if it has none)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            return self._items.pop(loop, None)

    def items(self) -> list[T]:
        """Every instance built so far (for closing)."""
        with self._lock:
            return list(self._items.values())


__all__ = ["PerLoop"]
