"""One type check for every setting, driven by the dataclass field annotations.

A setting reaches authorag as text (``AUTHORAG_*`` variables, ``NAME=VALUE`` variants) or as a
typed value (a TOML file, a JSON body, a flag's parsed value, a keyword argument).
:func:`check_setting` takes either and the field's annotation and returns the value in its
canonical type, or raises :class:`~authorag.errors.ConfigError` in one format:
``NAME must be <what is allowed>, got <what was received>``. :func:`check_fields` runs it over a
dataclass instance (the ``__post_init__`` of :class:`~authorag.compose.ScorerSettings`);
:func:`read_toml` reads a settings file with bounds (size, nesting) and UTF-8 checked.

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
from authorag.settings._toml import MAX_TOML_BYTES, MAX_TOML_NESTING, read_toml

__all__ = ["MAX_TOML_BYTES", "MAX_TOML_NESTING", "check_fields", "check_setting", "describe", "field_kinds",
           "read_toml"]
