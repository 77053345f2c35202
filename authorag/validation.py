"""Parameter checks shared by every module: one message format for each kind of mistake.

Each check returns the value it accepted and raises :class:`~authorag.errors.ConfigError` with
the parameter's name, what is allowed and what was received:

* ``fusion must be one of 'linear', 'rrf', got 'sum'``
* ``weight must be in [0, 1], got 1.5``
* ``top_k must be a positive integer, got 0`` (``... or None`` when None is allowed)

Example:
    >>> check_unit("weight", 0.25)
    0.25
    >>> check_positive_int("top_k", None, optional=True) is None
    True
    >>> check_choice("fusion", "sum", ("linear", "rrf"))
    Traceback (most recent call last):
    ...
    authorag.errors.ConfigError: fusion must be one of 'linear', 'rrf', got 'sum'
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from authorag.errors import ConfigError

T = TypeVar("T")


def check_choice(name: str, value: T, allowed: Iterable[object]) -> T:
    """``value`` when it is one of ``allowed``.

    Raises:
        ConfigError: ``fusion must be one of 'linear', 'rrf', got 'sum'``.
    """
    options = tuple(allowed)
    if value not in options:
        raise ConfigError(f"{name} must be one of {', '.join(map(repr, options))}, got {value!r}")
    return value


def is_unit(value: object) -> bool:
    """True for a real number (not a bool) in [0, 1]."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= float(value) <= 1.0


def check_unit(name: str, value: float | None, *, optional: bool = False) -> float | None:
    """``value`` when it is a number in [0, 1] (or None with ``optional``).

    Raises:
        ConfigError: ``weight must be in [0, 1], got 1.5``.
    """
    if value is None and optional:
        return None
    if not is_unit(value):
        raise ConfigError(f"{name} must be in [0, 1]{' or None' if optional else ''}, got {value!r}")
    return value


def is_positive_int(value: object) -> bool:
    """True for an int (not a bool) >= 1."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def check_positive_int(name: str, value: int | None, *, optional: bool = False) -> int | None:
    """``value`` when it is an int >= 1 (or None with ``optional``).

    Raises:
        ConfigError: ``top_k must be a positive integer, got 0``.
    """
    if value is None and optional:
        return None
    if not is_positive_int(value):
        raise ConfigError(f"{name} must be a positive integer{' or None' if optional else ''}, got {value!r}")
    return value


def listed_positions(positions: Sequence[int], shown: int = 10) -> str:
    """Positions for an error message: the first ``shown``, then how many more.

    Example:
        >>> listed_positions([2, 5]), listed_positions(list(range(1, 14)))
        ('2, 5', '1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more')
    """
    rest = len(positions) - shown
    return ", ".join(map(str, positions[:shown])) + (f" and {rest} more" if rest > 0 else "")


__all__ = ["check_choice", "check_positive_int", "check_unit", "is_positive_int", "is_unit", "listed_positions"]
