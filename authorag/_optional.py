"""Import optional dependencies with an install hint instead of a bare ImportError."""
from __future__ import annotations

import importlib
from types import ModuleType

from authorag.errors import MissingDependencyError


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
            f"Install it with: pip install 'authorag[{extra}]'"
        ) from exc
