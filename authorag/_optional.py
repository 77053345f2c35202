"""Import optional dependencies with an install hint instead of a bare ImportError."""
from __future__ import annotations

import importlib
import json
from importlib import metadata
from types import ModuleType
from urllib.parse import unquote, urlparse

from authorag.errors import MissingDependencyError


def install_source() -> tuple[str, bool] | None:
    """Where this authorag was installed from (a clone or a wheel file) and whether editably.

    Read from the installer's record (``direct_url.json``, PEP 610); None when authorag was not
    installed from a local path (or not installed: run from a checkout on ``PYTHONPATH``).

    Example:
        >>> source = install_source()
        >>> source is None or isinstance(source[0], str)
        True
    """
    try:
        text = metadata.distribution("authorag").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    record = json.loads(text)
    url = urlparse(str(record.get("url", "")))
    if url.scheme != "file":
        return None
    return unquote(url.path), bool(record.get("dir_info", {}).get("editable"))


def install_hint(extra: str) -> str:
    """The pip command that adds ``extra``, naming where this authorag came from when known.

    authorag is not on a package index: ``pip install 'authorag[EXTRA]'`` works only against a
    local index, so the hint adds the command for the clone or wheel it was installed from.

    Example:
        >>> install_hint("server").startswith("pip install 'authorag[server]'")
        True
    """
    hint = f"pip install 'authorag[{extra}]'"
    source = install_source()
    if source is None:
        return hint
    path, editable = source
    return f"{hint} (this authorag came from {path}: pip install {'-e ' if editable else ''}'{path}[{extra}]')"


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` naming the extra to install.

    Example:
        >>> np = require("numpy", extra="core", feature="tests")
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"{feature} needs the Python package {module!r}, which is not installed. "
            f"Install it with: {install_hint(extra)}"
        ) from exc
