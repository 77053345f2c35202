"""Generators of hostile input files (prior stores, TOML settings, YAML matrices, audit answers).

Each module builds a list of :class:`Variant`: a file's bytes and a fragment its error message
must contain. The per-area tests open every variant through the library; tests/test_hostile_files.py
runs every CLI entry that reads such files on them in a subprocess (exit code, one-line error,
no traceback).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """One hostile file.

    Attributes:
        name: a short identifier (the test id).
        data: the file's bytes.
        expect: a fragment (regular expression) the error message must contain.
        suffix: the file name's ending (``.store``, ``.toml``, ...).
        when: ``open`` (the error comes when the file is read) or ``list`` (a store whose
            lookups are right and whose key listing fails).
    """

    name: str
    data: bytes
    expect: str
    suffix: str = ""
    when: str = "open"
