"""The :class:`~authorag.rerankers.authority.RerankPolicy` fields as user settings.

One list of fields (:data:`POLICY_FIELDS`, from the dataclass) becomes validation
(:func:`make_policy`), argparse options (:func:`add_policy_options`) and ``AUTHORAG_*``
environment variables (:func:`policy_from_env`, :func:`policy_to_env`) for every surface;
:mod:`authorag.adapters` re-exports them.

Example:
    >>> make_policy({"weight": 0.8, "allow": ["*.gov"]}).allow
    ('*.gov',)
"""
from __future__ import annotations

import argparse
import dataclasses
import re
import typing
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, get_args

from authorag.errors import ConfigError
from authorag.rerankers.authority import RerankPolicy
from authorag.settings import check_setting, field_kinds

ENV_PREFIX = "AUTHORAG_"
"""Prefix of the environment variables that set policy fields (``AUTHORAG_WEIGHT``)."""

POLICY_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RerankPolicy))
"""The :class:`RerankPolicy` field names, in declaration order (the one list)."""


def make_policy(fields: Mapping[str, Any], base: RerankPolicy | None = None) -> RerankPolicy:
    """A validated :class:`RerankPolicy` from ``fields`` (None values keep the default).

    Each value is checked against its field's type (:func:`authorag.settings.check_setting`); lists
    become tuples, so JSON/YAML values work for ``allow`` and ``deny``, and a string there is an
    error, not a list of characters.

    Raises:
        ConfigError: an unknown field, a value of the wrong type (``allow must be a list of
            strings, got '*.gov'``) or out of range (``weight must be in [0, 1], got 1.5``).
    """
    unknown = sorted(set(fields) - set(POLICY_FIELDS))
    if unknown:
        raise ConfigError(f"unknown policy field(s) {unknown}; known: {', '.join(POLICY_FIELDS)}")
    kinds = field_kinds(RerankPolicy)
    values = {k: check_setting(k, v, kinds[k]) for k, v in fields.items() if v is not None}
    return (RerankPolicy() if base is None else base).replace(**values)


def policy_fields(obj: object, names: Iterable[str] = POLICY_FIELDS) -> dict[str, Any]:
    """The policy fields ``obj`` carries as attributes (an adapter instance, parsed CLI args)."""
    return {name: getattr(obj, name) for name in names if hasattr(obj, name)}


@lru_cache(maxsize=1)
def policy_field_docs() -> dict[str, str]:
    """``name -> first sentence`` from the Attributes section of the RerankPolicy docstring
    (the help text of the CLI flags and the descriptions of the MCP ``rerank`` tool's policy).

    Example:
        >>> policy_field_docs()["weight"]
        'share of the source signal in the fused score, in [0, 1]'
    """
    out: dict[str, str] = {}
    name = ""
    for line in (RerankPolicy.__doc__ or "").split("Attributes:", 1)[-1].splitlines():
        head, sep, text = line.strip().partition(": ")
        if sep and head in POLICY_FIELDS:
            name, out[head] = head, text
        elif name and line.strip():
            out[name] += " " + line.strip()
    first = re.compile(r"(?<!e\.g)\. ")  # the first sentence, RST quotes removed
    return {k: first.split(v.replace("``", ""))[0].rstrip(".") for k, v in out.items()}


def add_policy_options(p: argparse.ArgumentParser, *, exclude: Iterable[str] = (), **defaults: Any) -> None:
    """Add one ``--flag`` per :class:`RerankPolicy` field (generated from the dataclass).

    ``defaults`` replace the policy defaults for this command (``authorag demo`` uses
    ``weight=0.5``); the help text shows the default that applies.
    """
    hints = typing.get_type_hints(RerankPolicy)
    base = RerankPolicy()
    docs = policy_field_docs()
    g = p.add_argument_group("rerank policy")
    for name in POLICY_FIELDS:
        if name in exclude:
            continue
        default = defaults.get(name, getattr(base, name))
        flag = "--" + name.replace("_", "-")
        kind = hints[name]
        args = [a for a in get_args(kind) if a is not type(None)]
        shown = "none" if default in (None, ()) else default
        help_text = f"{docs.get(name, name)} (default {shown})"
        if typing.get_origin(kind) is typing.Literal:
            g.add_argument(flag, choices=list(args), default=defaults.get(name), help=help_text)
        elif typing.get_origin(kind) is tuple:
            g.add_argument(flag, action="append", default=defaults.get(name), metavar="PATTERN", help=help_text)
        else:
            scalar = kind if isinstance(kind, type) else args[0]
            g.add_argument(flag, type=scalar, default=defaults.get(name), help=help_text)


def policy_from_env(environ: Mapping[str, str]) -> dict[str, Any]:
    """Policy fields set by ``AUTHORAG_<FIELD>`` variables (``AUTHORAG_WEIGHT=0.4``)."""
    out: dict[str, Any] = {}
    for name, kind in field_kinds(RerankPolicy).items():
        var = ENV_PREFIX + name.upper()
        raw = environ.get(var)
        if raw:
            out[name] = check_setting(var, raw, kind, text=True)
    return out


def policy_to_env(policy: RerankPolicy) -> dict[str, str]:
    """The ``AUTHORAG_*`` variables that reproduce the non-default fields of ``policy``."""
    base = RerankPolicy()
    out: dict[str, str] = {}
    for name in POLICY_FIELDS:
        value = getattr(policy, name)
        if value != getattr(base, name):
            out[ENV_PREFIX + name.upper()] = ",".join(value) if isinstance(value, tuple) else str(value)
    return out


__all__ = ["ENV_PREFIX", "POLICY_FIELDS", "add_policy_options", "make_policy", "policy_field_docs", "policy_fields",
           "policy_from_env", "policy_to_env"]
