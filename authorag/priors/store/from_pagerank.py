"""PageRank results → a prior store (both engines of ``authorag priors build`` write it).

Values are :func:`~authorag.priors.pagerank.rank_normalize` of the PageRank; the raw number
is the PageRank itself (float64); the header keeps the run info (engine, damping, tol, sizes).

Example:
    >>> import tempfile, os, numpy as np
    >>> from authorag.priors.store.mapped import PriorStore
    >>> path = os.path.join(tempfile.mkdtemp(), "pr.store")
    >>> _ = write_pagerank_store(path, ["a.org", "b.org"], np.array([0.3, 0.7]), name="links")
    >>> PriorStore(path)["b.org"].value, PriorStore(path)["b.org"].raw
    (1.0, 0.7)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.priors.pagerank import rank_normalize
from authorag.priors.store.mapped import write_store

TRANSFORM = "rank-normalized PageRank: rank / (n - 1), ties (within 1e-9) share the lowest rank"


def write_pagerank_store(path: str | Path, domains: Sequence[str], pagerank: NDArray[np.float64], *,
                         name: str = "pagerank", confidence: float = 0.7,
                         info: Mapping[str, Any] | None = None) -> Path:
    """Write the store of a PageRank run (value: rank-normalized PageRank; raw: PageRank)."""
    return write_store(path, domains, rank_normalize(pagerank), raw=pagerank, raw_dtype="f8", name=name,
                       confidence=confidence, transform=TRANSFORM, provenance=dict(info or {}))
