"""Command-line flags generated from a settings dataclass: one flag per field.

A field's flag is ``--`` + its name with dashes, its help the first sentence of the field in the
class docstring's ``Attributes`` section plus the default, its form from the annotation
(``bool``: ``--x/--no-x``; ``Literal``: choices; ``tuple``: repeatable). A field may say more
with ``dataclasses.field(metadata=flag(...))`` (other spellings, its own help, a metavar, a
group) or have no flag (``metadata=NO_FLAG``: secrets belong in the environment or the file).
"""
from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, get_args, get_origin

from authorag.settings._env import field_default
from authorag.settings._read import setting_kinds

_Group = argparse.ArgumentParser | argparse._ArgumentGroup  # pyright: ignore[reportPrivateUsage]


@dataclass(frozen=True, slots=True)
class Flag:
    """How a setting appears on the command line (see :func:`flag`)."""

    names: tuple[str, ...] = ()
    help: str | None = None
    metavar: str | None = None
    group: str | None = None


def flag(*names: str, help: str | None = None, metavar: str | None = None,  # argparse's word
         group: str | None = None) -> dict[str, Any]:
    """Field metadata for its flag: ``names`` (default ``--field-name``), ``help`` (``{default}``
    is replaced by the default that applies; default: the docstring sentence and the default),
    ``metavar``, and ``group`` (an argument group title)."""
    return {"flag": Flag(names, help, metavar, group)}


NO_FLAG: Mapping[str, Any] = {"flag": None}
"""Field metadata for a setting without a flag (read from the file and the environment only)."""


@cache
def field_docs(cls: type) -> Mapping[str, str]:
    """``name -> first sentence`` of each field in the ``Attributes`` section of ``cls``'s docstring.

    Example:
        >>> from authorag.policy import RerankPolicy
        >>> field_docs(RerankPolicy)["weight"]
        'share of the source signal in the fused score, in [0, 1]'
    """
    names = {f.name for f in dataclasses.fields(cls)}
    out: dict[str, str] = {}
    name = ""
    for line in (cls.__doc__ or "").split("Attributes:", 1)[-1].splitlines():
        head, sep, text = line.strip().partition(": ")
        if sep and head in names:
            name, out[head] = head, text
        elif name and line.strip():
            out[name] += " " + line.strip()
    first = re.compile(r"(?<!e\.g)\. ")  # the first sentence, RST quotes removed
    return {k: first.split(v.replace("``", ""))[0].rstrip(".") for k, v in out.items()}


def add_flags(p: _Group, cls: type, *, exclude: Iterable[str] = (), defaults: Mapping[str, Any] | None = None) -> None:
    """Add one flag per setting of ``cls`` to ``p`` (``dest`` is the field name).

    ``defaults`` replace the field defaults for this command (the help shows the default that
    applies); :func:`flag_values` reads the parsed flags back.
    """
    defaults = defaults or {}
    groups: dict[str, _Group] = {}
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for name, kind in setting_kinds(cls).items():
        spec = fields[name].metadata.get("flag", Flag())
        if name in exclude or spec is None:
            continue
        if spec.group is not None and spec.group not in groups:
            groups[spec.group] = p.add_argument_group(spec.group)
        target = p if spec.group is None else groups[spec.group]
        default = defaults.get(name)
        shown = _shown(field_default(fields[name]) if default is None else default)
        help_text = (spec.help or f"{field_docs(cls).get(name, name)} (default {{default}})").replace("{default}", shown)
        kw: dict[str, Any] = {"dest": name, "default": default, "help": help_text}
        if spec.metavar:
            kw["metavar"] = spec.metavar
        inner = _inner(kind)
        if inner is bool:
            kw["action"] = argparse.BooleanOptionalAction
        elif get_origin(inner) is Literal:
            kw["choices"] = list(get_args(inner))
        elif get_origin(inner) is tuple:
            kw["action"] = "append"
        elif inner is not str:
            kw["type"] = inner
        target.add_argument(*(spec.names or ("--" + name.replace("_", "-"),)), **kw)


def flag_values(args: argparse.Namespace, cls: type, *, exclude: Iterable[str] = ()) -> dict[str, Any]:
    """The settings of ``cls`` that :func:`add_flags` flags set in ``args`` (None: not given)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    return {name: getattr(args, name) for name in setting_kinds(cls)
            if name not in exclude and fields[name].metadata.get("flag", Flag()) is not None
            and getattr(args, name, None) is not None}


def _inner(kind: Any) -> Any:
    args = [a for a in get_args(kind) if a is not type(None)]
    return args[0] if type(None) in get_args(kind) and len(args) == 1 else kind


def _shown(value: Any) -> str:
    if value is None or value == ():
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return ",".join(value) if isinstance(value, tuple) else str(value)


__all__ = ["NO_FLAG", "Flag", "add_flags", "field_docs", "flag", "flag_values"]
