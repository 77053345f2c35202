"""The one reader: a dataclass's settings from the TOML file, the environment and explicit values.

Precedence: the field defaults < the file's table (``AUTHORAG_CONFIG`` or ``--config``) <
``AUTHORAG_*`` variables < explicit values (flags, keyword arguments; None skipped). Every value
goes through :func:`~authorag.settings.check_setting`; the fields are the dataclass's, so a new
field is read from all three without an edit here.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

from authorag.errors import ConfigError
from authorag.settings._check import check_setting, field_kinds
from authorag.settings._env import CONFIG_ENV, env_name, process_environ
from authorag.settings._toml import read_toml

T = TypeVar("T")
TABLES = ("scorer", "reranker", "server")
"""The tables of a settings file: :class:`~authorag.compose.ScorerSettings`,
:class:`~authorag.policy.RerankPolicy`, :class:`~authorag.server.config.ServerConfig`.
A file without any of them holds scorer settings at the top level."""


def setting_kinds(cls: type) -> dict[str, Any]:
    """The annotation of every field of ``cls`` that is a setting (nested dataclasses are not:
    they are read from their own table)."""
    return {name: kind for name, kind in field_kinds(cls).items()
            if not (isinstance(kind, type) and dataclasses.is_dataclass(kind))}


def config_tables(path: str | Path) -> dict[str, dict[str, Any]]:
    """The tables of a settings file, values not yet checked (:func:`config_table` checks one).

    Raises:
        ConfigError: the file cannot be read (:func:`~authorag.settings.read_toml`), a table name
            is unknown, a table is not a table, or keys sit outside the tables of a file that has them.
    """
    p = Path(path)
    data = read_toml(p, fix=f"; set {CONFIG_ENV} (or --config) to a TOML file")
    where = f"config file {p}"
    present = [t for t in TABLES if t in data]
    if not present:
        return {"scorer": data}
    for name in present:
        if not isinstance(data[name], dict):
            raise ConfigError(f"{where}: {name!r} must be a table ([{name}]), got {type(data[name]).__name__}")
    rest = sorted(set(data) - set(TABLES))
    tables = [k for k in rest if isinstance(data[k], dict)]
    if tables:
        raise ConfigError(f"{where}: unknown table(s) {tables}; known: {', '.join(f'[{t}]' for t in TABLES)}")
    if rest:
        raise ConfigError(f"{where}: {rest} outside the [scorer] table (or [reranker], [server]); move each "
                          "setting into its table")
    return {name: cast(dict[str, Any], data[name]) for name in present}


def config_table(path: str | Path, table: str, cls: type) -> dict[str, Any]:
    """The ``[table]`` of a settings file as ``cls`` field values, each checked (empty when absent).

    Raises:
        ConfigError: see :func:`config_tables`; an unknown key (naming the known ones) or a value
            of the wrong type, naming the file.
    """
    values = config_tables(path).get(table, {})
    where = f"config file {path}"
    kinds = setting_kinds(cls)
    unknown = sorted(set(values) - set(kinds))
    if unknown:
        hint = "" if table != "scorer" else "; rerank policy settings go in [reranker], server settings in [server]"
        raise ConfigError(f"{where}: unknown {table} setting(s) {unknown}; known: {', '.join(sorted(kinds))}{hint}")
    return {k: check_setting(f"{where}: {k}", v, kinds[k]) for k, v in values.items()}


def read_settings(cls: type, table: str, environ: Mapping[str, str] | None = None,
                  overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``cls`` field values: the file's ``[table]`` < ``AUTHORAG_*`` in ``environ`` (default: the
    process environment) < ``overrides`` (None values skipped), each checked against its field.

    Example:
        >>> @dataclasses.dataclass
        ... class S:
        ...     learned: bool = False
        ...     limit: int = 5
        >>> read_settings(S, "scorer", {"AUTHORAG_LEARNED": "yes", "AUTHORAG_LIMIT": "7"}, {"limit": 9})
        {'learned': True, 'limit': 9}

    Raises:
        ConfigError: a value that does not fit its field, naming the variable or file key.
        TypeError: an override that is not a field of ``cls``.
    """
    env = process_environ(environ)
    kinds = setting_kinds(cls)
    values: dict[str, Any] = {}
    path = env.get(CONFIG_ENV)
    if path:
        values.update(config_table(path, table, cls))
    for name, kind in kinds.items():
        raw = env.get(env_name(name))
        if raw:
            values[name] = check_setting(env_name(name), raw, kind, text=True)
    for name, value in (overrides or {}).items():
        if name not in kinds:
            raise TypeError(f"{cls.__name__} has no setting {name!r}; settings: {', '.join(kinds)}")
        if value is not None:
            values[name] = check_setting(name, value, kinds[name])
    return values


def build(cls: type[T], values: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> T:
    """``cls(**values)``, its range errors naming where the settings came from when a file was read."""
    path = process_environ(environ).get(CONFIG_ENV)
    try:
        return cls(**values)
    except ConfigError as exc:
        if not path:
            raise
        raise ConfigError(f"{exc} (settings from config file {path}, AUTHORAG_* variables and flags)") from exc


def read_variant(variant: str, cls: type, *, where: str, what: str, exclude: Iterable[str] = (),
                 note: str = "", sep: str = "+") -> dict[str, Any]:
    """``NAME=VALUE,NAME=VALUE`` (a benchmark method's variant) as ``cls`` field values, checked as
    text, lists joined by ``sep``; ``exclude`` names fields a variant may not set.

    Example:
        >>> @dataclasses.dataclass
        ... class S:
        ...     learned: bool = False
        ...     names: tuple[str, ...] = ()
        >>> read_variant("learned=on,names=a+b", S, where="default", what="S field")
        {'learned': True, 'names': ('a', 'b')}

    Raises:
        ConfigError: a part that is not ``NAME=VALUE`` for a field (listing them), or a bad value.
    """
    kinds, out = setting_kinds(cls), {}
    for part in (p for p in variant.split(",") if p):
        key, eq, raw = part.partition("=")
        if not eq or key not in kinds or key in exclude:
            raise ConfigError(f"{where}: {part!r} is not NAME=VALUE for a {what}{note}; fields: "
                              f"{', '.join(sorted(kinds))}")
        out[key] = check_setting(f"{where}: setting {key}", raw, kinds[key], text=True, sep=sep)
    return out


__all__ = ["TABLES", "build", "config_table", "config_tables", "read_settings", "read_variant", "setting_kinds"]
