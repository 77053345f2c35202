"""One settings path: file, environment and flags, read from the dataclasses' fields, checked once.

The settings of authorag are three frozen dataclasses: :class:`~authorag.compose.ScorerSettings`
(which authority tiers run), :class:`~authorag.policy.RerankPolicy` (how authority
and relevance fuse) and :class:`~authorag.server.config.ServerConfig` (the server's limits and
threads). Each is read the same way, by :func:`read_settings`:

    field defaults < the TOML file's table (``AUTHORAG_CONFIG`` or ``--config``: ``[scorer]``,
    ``[reranker]``, ``[server]``) < ``AUTHORAG_<FIELD>`` variables < flags or arguments

and its flags come from :func:`add_flags`. Every value, text or typed, goes through
:func:`check_setting`, whose errors have one format: ``NAME must be <what is allowed>, got
<what was received>``. A field added to one of the dataclasses is read from the file, the
environment and its flag with no edit elsewhere.

The environment is read here only (:mod:`authorag.settings._env`): besides the settings
variables, :func:`cache_dir` (``AUTHORAG_CACHE_DIR``), :func:`results_dir` (``AUTHORAG_RESULTS``),
:func:`openai_api_key` (``OPENAI_API_KEY``) and :func:`env_text` (a variable a data file names).

Example:
    >>> check_setting("AUTHORAG_LEARNED", "no", bool, text=True)
    False
    >>> check_setting("exclude_sources", ["moz"], tuple[str, ...])
    ('moz',)
    >>> check_setting("learned", "false", bool)
    Traceback (most recent call last):
    ...
    authorag.errors.ConfigError: learned must be true or false, got 'false'
"""
from __future__ import annotations

from authorag.settings._check import check_fields, check_setting, describe, field_kinds
from authorag.settings._env import (
    CONFIG_ENV,
    ENV_PREFIX,
    cache_dir,
    env_name,
    env_text,
    env_values,
    export_env,
    field_default,
    openai_api_key,
    process_environ,
    results_dir,
)
from authorag.settings._flags import NO_FLAG, Flag, add_flags, field_docs, flag, flag_values
from authorag.settings._read import (
    TABLES,
    build,
    config_table,
    config_tables,
    read_settings,
    read_variant,
    setting_kinds,
)
from authorag.settings._toml import MAX_TOML_BYTES, MAX_TOML_NESTING, read_toml

__all__ = ["CONFIG_ENV", "ENV_PREFIX", "MAX_TOML_BYTES", "MAX_TOML_NESTING", "NO_FLAG", "TABLES", "Flag", "add_flags",
           "build", "cache_dir", "check_fields", "check_setting", "config_table", "config_tables", "describe",
           "env_name", "env_text", "env_values", "export_env", "field_default", "field_docs", "field_kinds", "flag",
           "flag_values", "openai_api_key", "process_environ", "read_settings", "read_toml", "read_variant",
           "results_dir", "setting_kinds"]
