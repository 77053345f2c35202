"""The :class:`~authorag.rerankers.authority.RerankPolicy` fields as user settings.

One list of fields (:data:`POLICY_FIELDS`, from the dataclass) becomes validation
(:func:`make_policy`), argparse options (:func:`add_policy_options`), the ``[reranker]`` table of
the settings file and ``AUTHORAG_*`` environment variables (:func:`policy_from_env`,
:func:`policy_to_env`) for every surface, all through :mod:`authorag.settings`;
:mod:`authorag.adapters` re-exports them.

Example:
    >>> make_policy({"weight": 0.8, "allow": ["*.gov"]}).allow
    ('*.gov',)
"""
from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from authorag.errors import ConfigError
from authorag.rerankers.authority import RerankPolicy
from authorag.settings import add_flags, check_setting, env_values, field_docs, field_kinds, read_settings

POLICY_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RerankPolicy))
"""The :class:`RerankPolicy` field names, in declaration order (the one list)."""
POLICY_TABLE = "reranker"
"""The settings file's table of policy fields (``[reranker]``)."""


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


def policy_field_docs() -> dict[str, str]:
    """``name -> first sentence`` from the Attributes section of the RerankPolicy docstring
    (the help text of the CLI flags and the descriptions of the MCP ``rerank`` tool's policy).

    Example:
        >>> policy_field_docs()["weight"]
        'share of the source signal in the fused score, in [0, 1]'
    """
    return dict(field_docs(RerankPolicy))


def add_policy_options(p: argparse.ArgumentParser, *, exclude: Iterable[str] = (), **defaults: Any) -> None:
    """Add one ``--flag`` per :class:`RerankPolicy` field (:func:`authorag.settings.add_flags`).

    ``defaults`` replace the policy defaults for this command (``authorag demo`` uses
    ``weight=0.5``); the help text shows the default that applies.
    """
    add_flags(p.add_argument_group("rerank policy"), RerankPolicy, exclude=exclude, defaults=defaults)


def policy_from_env(environ: Mapping[str, str] | None = None, **overrides: Any) -> dict[str, Any]:
    """Policy fields set by the ``[reranker]`` table of the ``AUTHORAG_CONFIG`` file and by
    ``AUTHORAG_<FIELD>`` variables (``AUTHORAG_WEIGHT=0.4``), then ``overrides`` (None skipped):
    :func:`authorag.settings.read_settings`. Pass the result to :func:`make_policy`."""
    return read_settings(RerankPolicy, POLICY_TABLE, environ, overrides)


def policy_to_env(policy: RerankPolicy) -> dict[str, str]:
    """The ``AUTHORAG_*`` variables that reproduce the non-default fields of ``policy``."""
    return env_values(policy, changed_only=True)


__all__ = ["POLICY_FIELDS", "POLICY_TABLE", "add_policy_options", "make_policy", "policy_field_docs", "policy_fields",
           "policy_from_env", "policy_to_env"]
