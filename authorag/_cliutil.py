"""Small helpers shared by the CLI command modules (input reading, JSON output)."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from authorag.errors import ConfigError

Subparsers = argparse._SubParsersAction  # pyright: ignore[reportPrivateUsage]
"""The type of ``parser.add_subparsers()``; argparse exposes it under a private name only."""

JSON_VERSION = 1
"""Version of the CLI's JSON output shapes."""


def read_lines(path: str) -> list[str]:
    """Non-empty, non-comment lines of a file (``-`` reads stdin)."""
    text = sys.stdin.read() if path == "-" else _read_text(path)
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read input file {path!r}: {exc.strerror}") from exc


def read_jsonl(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON object line; a bad line raises naming its number."""
    text = sys.stdin.read() if path == "-" else _read_text(path)
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{n}: not valid JSON ({exc.msg}); each line must be one JSON object") from exc
        if not isinstance(obj, dict):
            raise ConfigError(f"{path}:{n}: expected a JSON object like {{\"url\": ..., \"text\": ...}}, got {type(obj).__name__}")
        yield n, obj


def write_jsonl(rows: Iterable[dict[str, Any]]) -> None:
    """Write one compact JSON object per line to stdout."""
    for row in rows:
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
