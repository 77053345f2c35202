"""The process environment: the only place authorag reads (and, for worker processes, sets) it.

Settings fields are ``AUTHORAG_`` + the field name in upper case (:func:`env_name`). The other
variables authorag honours have a named function each: :func:`cache_dir`, :func:`results_dir`,
:func:`openai_api_key`, :func:`env_text` (a variable a data file names, such as a list's API
token). Only the Spark launcher (``authorag.spark``, ``authorag.cli.spark``) reads the environment
elsewhere: it talks to Spark's own variables.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ENV_PREFIX = "AUTHORAG_"
"""Prefix of every settings variable (``AUTHORAG_WEIGHT``, ``AUTHORAG_JUDGE``, ``AUTHORAG_MAX_DOCUMENTS``)."""
CONFIG_ENV = ENV_PREFIX + "CONFIG"
"""The variable naming the TOML settings file (the ``--config`` flag's fallback)."""


def env_name(field: str) -> str:
    """The variable of a settings field.

    Example:
        >>> env_name("judge_base_url")
        'AUTHORAG_JUDGE_BASE_URL'
    """
    return ENV_PREFIX + field.upper()


def process_environ(environ: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """``environ``, or the process environment when it is None (the readers' default)."""
    return os.environ if environ is None else environ


def env_text(name: str) -> str | None:
    """The process environment's value of ``name`` (None when unset)."""
    return os.environ.get(name)


def export_env(values: Mapping[str, str]) -> None:
    """Set variables in this process's environment, for the worker processes it starts."""
    os.environ.update(values)


def cache_dir() -> Path:
    """The authorag cache directory (not created here): ``$AUTHORAG_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/authorag``, else ``~/.cache/authorag``.

    Example:
        >>> isinstance(cache_dir(), Path)
        True
    """
    explicit = os.environ.get(ENV_PREFIX + "CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "authorag"


def results_dir() -> Path:
    """Where ``bench run`` writes by default: ``$AUTHORAG_RESULTS``, else
    ``$XDG_DATA_HOME/authorag/bench`` (``~/.local/share/authorag/bench``). Never the repo's
    committed ``benchmarks/results``: that changes only through its reproduce script."""
    env = os.environ.get(ENV_PREFIX + "RESULTS")
    if env:
        return Path(env).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "authorag" / "bench"


def openai_api_key() -> str:
    """``$OPENAI_API_KEY`` for an OpenAI-compatible endpoint given no key (``no-key`` when unset:
    local servers accept any)."""
    return os.environ.get("OPENAI_API_KEY", "no-key")


def env_values(obj: Any, *, changed_only: bool = False, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """The ``AUTHORAG_*`` variables that reproduce the dataclass instance ``obj`` (for worker
    processes): every field but None values, nested dataclasses and ``skip``; with
    ``changed_only``, only fields that differ from their default. Lists are comma-joined,
    booleans ``true``/``false``.

    Example:
        >>> @dataclasses.dataclass
        ... class S:
        ...     learned: bool = False
        ...     names: tuple[str, ...] = ()
        >>> env_values(S(True, ("a", "b")))
        {'AUTHORAG_LEARNED': 'true', 'AUTHORAG_NAMES': 'a,b'}
    """
    out: dict[str, str] = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if value is None or f.name in skip or dataclasses.is_dataclass(value):
            continue
        if changed_only and value == field_default(f):
            continue
        text = ",".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else str(value)
        out[env_name(f.name)] = text
    return out


def field_default(f: dataclasses.Field[Any]) -> Any:
    """The default of the dataclass field ``f`` (its factory called; None when it has none)."""
    if f.default is not dataclasses.MISSING:
        return f.default
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else None


__all__ = ["CONFIG_ENV", "ENV_PREFIX", "cache_dir", "env_name", "env_text", "env_values", "export_env", "field_default",
           "openai_api_key", "process_environ", "results_dir"]
