"""The one type check for every setting, driven by the dataclass field annotations.

A setting reaches authorag as text (``AUTHORAG_*`` variables, ``NAME=VALUE`` variants) or as a
typed value (a TOML file, a JSON body, a flag's parsed value, a keyword argument).
:func:`check_setting` takes either and the field's annotation and returns the value in its
canonical type, or raises :class:`~authorag.errors.ConfigError` in one format:
``NAME must be <what is allowed>, got <what was received>``. It knows ``bool``, ``int``,
``float``, ``str``, ``Literal[...]``, ``X | None`` and ``tuple[X, ...]``, so a new field of
those types needs no edit here.

Text is strict: booleans are ``true/false/yes/no/on/off/1/0``; ``1.5`` is not an integer;
lists are comma-separated. Typed values are strict too: ``learned = "false"`` (a string) is
not a boolean, ``max_judge_calls = true`` or ``1.5`` is not an integer, and a string where a list
is expected is an error, never a list of characters.
"""
from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, Union, cast, get_args, get_origin

from authorag.errors import ConfigError

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@cache
def field_kinds(cls: type) -> Mapping[str, Any]:
    """The resolved annotation of every field of the dataclass ``cls`` (aliases expanded)."""
    hints = typing.get_type_hints(cls)
    return types.MappingProxyType({f.name: hints[f.name] for f in dataclasses.fields(cls)})


def describe(kind: Any) -> str:
    """What ``kind`` allows, as the error message says it (``"true or false"``, ``"a list of strings"``).

    Example:
        >>> describe(Literal["a", "b"] | None)
        "one of 'a', 'b' (or unset)"
    """
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return " or ".join(describe(a) for a in inner) + (" (or unset)" if len(inner) < len(args) else "")
    if origin is Literal:
        return "one of " + ", ".join(map(repr, args))
    if origin is tuple:
        return "a list of strings" if args[0] is str else f"a list of values, each {describe(args[0])}"
    names = {bool: "true or false", int: "an integer", float: "a finite number", str: "a string"}
    if kind in names:
        return names[kind]
    raise TypeError(f"check_setting cannot check the annotation {kind!r}")


def check_setting(name: str, value: object, kind: Any, *, text: bool = False, sep: str = ",") -> Any:
    """``value`` checked against the annotation ``kind`` and converted to its canonical type.

    Args:
        name: the setting as the user wrote it (``learned``, ``AUTHORAG_LEARNED``), for the error.
        value: text (``text=True``) or a typed value (TOML, JSON, keyword arguments; lists are
            accepted for tuples).
        kind: a field annotation (see the module docstring for the kinds it knows).
        sep: the list separator in text.

    Raises:
        ConfigError: ``learned must be true or false, got 'false'``.
        TypeError: an annotation this checker does not know (a programming error).
    """
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if value is None and len(inner) < len(args):
            return None
        if len(inner) != 1:
            raise TypeError(f"check_setting cannot check the annotation {kind!r}")
        return _check(name, value, inner[0], kind, text, sep)
    return _check(name, value, kind, kind, text, sep)


def _check(name: str, value: object, kind: Any, shown: Any, text: bool, sep: str) -> Any:
    origin, args = get_origin(kind), get_args(kind)
    if origin is tuple:
        if len(args) != 2 or args[1] is not Ellipsis:
            raise TypeError(f"check_setting cannot check the annotation {kind!r}")
        if text and isinstance(value, str):
            items: list[Any] = [p.strip() for p in value.split(sep) if p.strip()]
        elif isinstance(value, list | tuple):
            items = list(cast(list[Any], value))
        else:
            raise _wrong(name, value, shown)
        return tuple(_check(f"{name}[{i}]", v, args[0], args[0], text, sep) for i, v in enumerate(items))
    if text:
        if not isinstance(value, str):
            raise _wrong(name, value, shown)
        return _from_text(name, value, kind, shown)
    return _typed(name, value, kind, shown)


def _typed(name: str, value: object, kind: Any, shown: Any) -> Any:
    if get_origin(kind) is Literal:
        if any(value == a and type(value) is type(a) for a in get_args(kind)):
            return value
        raise _wrong(name, value, shown)
    if kind is bool and isinstance(value, bool):
        return value
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    if kind is str and isinstance(value, str):
        return value
    describe(kind)  # an annotation it does not know raises TypeError here
    raise _wrong(name, value, shown)


def _from_text(name: str, raw: str, kind: Any, shown: Any) -> Any:
    low = raw.strip().lower()
    if kind is bool and low in _TRUE + _FALSE:
        return low in _TRUE
    if kind is int and low.lstrip("+-").replace("_", "").isdigit():
        try:
            return int(low)
        except ValueError:  # more digits than Python converts
            raise _wrong(name, raw, shown) from None
    if kind is float:
        try:
            number = float(low)
        except ValueError:
            number = math.nan
        if math.isfinite(number):
            return number
    if kind is str:
        return raw
    if get_origin(kind) is Literal and raw.strip() in get_args(kind):
        return raw.strip()
    describe(kind)
    raise _wrong(name, raw, shown)


def _wrong(name: str, value: object, kind: Any) -> ConfigError:
    shown = repr(value)
    return ConfigError(f"{name} must be {describe(kind)}, got {shown if len(shown) <= 80 else shown[:77] + '...'}")


def check_fields(obj: Any) -> None:
    """:func:`check_setting` on every field of the dataclass instance ``obj`` (typed values),
    storing the canonical value (lists become tuples, ints floats). For ``__post_init__``.

    Raises:
        ConfigError: the first field whose value does not fit its annotation.
        TypeError: a field whose annotation the checker does not know, naming the class and field.
    """
    for name, kind in field_kinds(type(obj)).items():
        value = getattr(obj, name)
        try:
            checked = check_setting(name, value, kind)
        except TypeError as exc:  # a field of a kind this module does not know yet: say where
            raise TypeError(f"{type(obj).__name__}.{name}: {exc}; teach authorag/settings/_check.py that kind") from None
        if checked is not value:
            object.__setattr__(obj, name, checked)  # frozen dataclasses allow this in __post_init__


__all__ = ["check_fields", "check_setting", "describe", "field_kinds"]
