"""Deprecated location: import from :mod:`authorag.relevance.registry` (moved in 0.2; this shim goes in 0.3)."""
from __future__ import annotations

import warnings

from authorag.relevance.registry import (
    RELEVANCE_REGISTRY,
    RelevanceEntry,
    RelevanceName,
    load_relevance,
)

warnings.warn(
    "authorag.rerankers.relevance moved to authorag.relevance.registry; import from there",
    DeprecationWarning, stacklevel=2)

__all__ = ["RELEVANCE_REGISTRY", "RelevanceEntry", "RelevanceName", "load_relevance"]
