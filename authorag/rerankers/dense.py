"""Deprecated location: import from :mod:`authorag.relevance.dense` (moved in 0.2; this shim goes in 0.3)."""
from __future__ import annotations

import warnings

from authorag.relevance.dense import DenseEncoder, DenseRelevance, default_model_path

warnings.warn(
    "authorag.rerankers.dense moved to authorag.relevance.dense; import from there",
    DeprecationWarning, stacklevel=2)

__all__ = ["DenseEncoder", "DenseRelevance", "default_model_path"]
