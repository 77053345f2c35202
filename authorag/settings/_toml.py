"""A TOML settings file read with bounds: size, UTF-8, nesting (checked before the parser runs)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from authorag.errors import ConfigError

MAX_TOML_BYTES = 1 << 20
"""Largest settings file read."""
MAX_TOML_NESTING = 32
"""Deepest nesting accepted in a settings file: brackets, braces, and dotted key parts on a line
(the TOML parser's memory grows with the square of a dotted key's length)."""


def read_toml(path: str | Path, *, what: str = "config file", fix: str = "") -> dict[str, Any]:
    """A TOML settings file as a dict: read with a size bound, as UTF-8, nesting checked first.

    Args:
        what: how the file is named in errors (``config file``).
        fix: appended to the error for a file that cannot be read (where to point instead).

    Raises:
        ConfigError: the file is missing, too big, not UTF-8, nested too deeply or not TOML,
            naming the file (and the line where known).
    """
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_TOML_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{what} {p}: cannot read it ({exc.strerror or exc}){fix}") from exc
    if len(data) > MAX_TOML_BYTES:
        raise ConfigError(f"{what} {p}: larger than {MAX_TOML_BYTES >> 20} MiB; a settings file is a few lines")
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")  # editors that write a byte-order mark
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{what} {p}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8") from None
    line = _too_deep(text)
    if line:
        raise ConfigError(f"{what} {p}:{line}: nested deeper than {MAX_TOML_NESTING} levels; settings are "
                          "plain values and lists")
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{what} {p}: not valid TOML ({exc})") from exc


def _too_deep(text: str) -> int:
    """The first line whose nesting (open brackets and braces, or unquoted dots) passes the limit, or 0.

    Strings and comments are skipped, so dots in URLs and numbers inside quotes do not count.
    """
    depth, quote, line, dots, i = 0, "", 1, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and quote[0] == '"':
                i += 2
                continue
            if text.startswith(quote, i):
                i, quote = i + len(quote), ""
                continue
            if c == "\n":
                line, dots = line + 1, 0
        elif c in "\"'":
            quote = c * 3 if text.startswith(c * 3, i) else c
            i += len(quote)
            continue
        elif c == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif c == "\n":
            line, dots = line + 1, 0
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == ".":
            dots += 1
        if depth > MAX_TOML_NESTING or dots > MAX_TOML_NESTING:
            return line
        i += 1
    return 0


__all__ = ["MAX_TOML_BYTES", "MAX_TOML_NESTING", "read_toml"]
