"""A dict that holds at most a given number of entries: the one bound of the library's memos.

:class:`BoundedDict` is an ordered dict whose :meth:`~BoundedDict.put` forgets the oldest entries
once the bound is passed (first in, first out). A memo that should keep what is used most moves
a hit to the end (``move_to_end``) and so forgets the least recently used instead. Reads are the
dict's own (``get``, ``in``, ``[]``): no bookkeeping on a hit.

Example:
    >>> memo: BoundedDict[str, int] = BoundedDict(2)
    >>> for key, value in [("a", 1), ("b", 2), ("c", 3)]:
    ...     memo.put(key, value)
    >>> list(memo.items())
    [('b', 2), ('c', 3)]
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, TypeVar

from authorag.errors import ConfigError

K = TypeVar("K")
V = TypeVar("V")


class BoundedDict(OrderedDict[K, V]):
    """An ordered dict of at most ``limit`` entries, filled with :meth:`put`.

    Args:
        limit: entries kept at most; None: no bound; 0: nothing is kept.

    Raises:
        ConfigError: ``limit`` is negative or not an integer.
    """

    def __init__(self, limit: int | None) -> None:
        super().__init__()
        if limit is not None and (type(limit) is not int or limit < 0):
            raise ConfigError(f"limit must be an integer >= 0 (0 keeps nothing) or None (no bound), got {limit!r}")
        self.limit = limit

    def put(self, key: K, value: V) -> None:
        """Remember ``value`` under ``key`` (a known key keeps its place), then forget the oldest
        entries past the limit."""
        limit = self.limit
        if limit == 0:
            return
        self[key] = value
        if limit is None:
            return
        while len(self) > limit:
            try:
                self.popitem(last=False)
            except KeyError:  # another thread emptied it between the length check and the pop
                return

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.limit,), None, None, iter(self.items()))

    def __repr__(self) -> str:
        return f"BoundedDict(limit={self.limit!r}, entries={len(self)})"


__all__ = ["BoundedDict"]
