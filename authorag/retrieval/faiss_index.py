"""FaissIndex: inner-product vector search with ``faiss-cpu`` (flat, IVF or HNSW), saved to disk.

Vectors are expected L2-normalized (as :class:`~authorag.relevance.dense.DenseEncoder` returns
them), so inner product equals cosine similarity.

- ``flat`` (``IndexFlatIP``): exact search, no training; right up to ~100k vectors.
- ``ivf`` (``IndexIVFFlat``): k-means into ``nlist`` lists, search ``nprobe`` of them;
  trained on a random sample of at most ``train_size`` vectors. Approximate; fast on millions.
- ``hnsw`` (``IndexHNSWFlat``): graph search with ``m`` links per node; ``ef_search`` trades
  recall for speed. No training, but building is slower than IVF on large sets.

Needs the ``embeddings`` extra: ``pip install 'authorag[embeddings]'``.
"""
from __future__ import annotations

import json
import logging
import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from authorag._optional import require
from authorag.errors import ConfigError
from authorag.validation import check_choice, check_positive_int

logger = logging.getLogger(__name__)

IndexKind = Literal["flat", "ivf", "hnsw"]
FORMAT_VERSION = 1
INDEX_FILE = "index.faiss"
META_FILE = "index.json"

Vectors = NDArray[np.float32]
Positions = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class IndexOptions:
    """How a :class:`FaissIndex` is built and searched (validated on construction).

    Attributes:
        kind: ``"flat"``, ``"ivf"`` or ``"hnsw"``.
        nlist: IVF lists; None picks :func:`auto_nlist` at build time (``4 * sqrt(n)``, capped
            so that k-means has the 39 training points per centroid faiss asks for).
        nprobe: IVF lists searched per query (capped at ``nlist``).
        m: HNSW links per node.
        ef_construction: HNSW build-time beam width.
        ef_search: HNSW search-time beam width.
        train_size: at most this many vectors (a seeded random sample) train the IVF quantizer.
        seed: sampling seed.
    """

    kind: IndexKind = "flat"
    nlist: int | None = None
    nprobe: int = 16
    m: int = 32
    ef_construction: int = 80
    ef_search: int = 64
    train_size: int = 100_000
    seed: int = 0

    def __post_init__(self) -> None:
        check_choice("kind", self.kind, get_args(IndexKind))
        for name in ("nprobe", "m", "ef_construction", "ef_search", "train_size"):
            check_positive_int(name, getattr(self, name))
        check_positive_int("nlist", self.nlist, optional=True)


def auto_nlist(n: int, train_size: int | None = None) -> int:
    """Default IVF list count: ``4 * sqrt(n)``, at most (training points // 39), at least 1.

    Example:
        >>> auto_nlist(1_000_000), auto_nlist(1_000_000, train_size=100_000), auto_nlist(12)
        (4000, 2564, 1)
    """
    trained = n if train_size is None else min(n, train_size)
    return max(1, min(int(4 * math.sqrt(n)), trained // 39))


def as_vectors(vectors: Any, dim: int | None = None) -> Vectors:
    """``vectors`` as a C-contiguous float32 matrix, checked for shape and finite values."""
    arr = np.ascontiguousarray(vectors, dtype=np.float32)
    if arr.ndim != 2 or (dim is not None and arr.shape[1] != dim) or arr.shape[1] == 0:
        want = f"(n, {dim})" if dim is not None else "(n, dim) with dim >= 1"
        raise ConfigError(f"vectors must have shape {want}, got {arr.shape}")
    if not np.isfinite(arr).all():
        raise ConfigError("vectors contain NaN or infinite values; normalize them before indexing")
    return arr


class FaissIndex:
    """A faiss inner-product index with its options, saved and loaded as a directory.

    Build with :meth:`build`, reload with :meth:`load`. Positions returned by :meth:`search`
    are 0-based insertion order; ``-1`` never leaves this class.

    Example:
        >>> import numpy as np
        >>> x = np.eye(4, dtype=np.float32)
        >>> idx = FaissIndex.build(x)
        >>> scores, positions = idx.search(x[2:3], top_k=2)
        >>> positions[0].tolist()[0], float(scores[0][0])
        (2, 1.0)
    """

    def __init__(self, index: Any, options: IndexOptions) -> None:
        self._faiss = require("faiss", extra="embeddings", feature="FaissIndex")
        self.index = index
        self.options = options

    @classmethod
    def build(cls, vectors: Any, options: IndexOptions | None = None, **option_fields: Any) -> FaissIndex:
        """Build an index over ``vectors`` (shape ``(n, dim)``, L2-normalized).

        ``options`` or keyword fields of :class:`IndexOptions` (``kind="ivf"``, ``nprobe=32``...).

        Raises:
            ConfigError: bad options or vectors, or an IVF index asked for with no vectors.
            MissingDependencyError: ``faiss-cpu`` is not installed.
        """
        faiss = require("faiss", extra="embeddings", feature="FaissIndex")
        opts = options if options is not None else IndexOptions(**option_fields)
        if options is not None and option_fields:
            raise ConfigError("pass either options= or option keywords, not both")
        arr = as_vectors(vectors)
        n, dim = arr.shape
        if opts.kind == "flat":
            index = faiss.IndexFlatIP(dim)
        elif opts.kind == "hnsw":
            index = faiss.IndexHNSWFlat(dim, opts.m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = opts.ef_construction
            index.hnsw.efSearch = opts.ef_search
        else:
            index, opts = _train_ivf(faiss, arr, opts)
        out = cls(index, opts)
        out.add(arr)
        logger.info("built %s index: %d vectors of dim %d", opts.kind, n, dim)
        return out

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return int(self.index.d)

    @property
    def kind(self) -> IndexKind:
        """``"flat"``, ``"ivf"`` or ``"hnsw"``."""
        return self.options.kind

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def add(self, vectors: Any) -> None:
        """Append ``vectors``; they get the next positions in order."""
        arr = as_vectors(vectors, self.dim)
        if arr.shape[0]:
            self.index.add(arr)

    def search(self, queries: Any, top_k: int) -> tuple[Vectors, Positions]:
        """The ``top_k`` best positions per query row, best first, with their inner products.

        Rows may be shorter than ``top_k`` when the index holds fewer vectors (or an IVF probe
        finds fewer): both arrays then have the common shortest width, never ``-1`` entries.
        """
        check_positive_int("top_k", top_k)
        q = as_vectors(queries, self.dim)
        k = min(top_k, len(self))
        if k == 0 or q.shape[0] == 0:
            return np.zeros((q.shape[0], 0), np.float32), np.zeros((q.shape[0], 0), np.int64)
        scores, positions = self.index.search(q, k)
        width = int((positions >= 0).all(axis=0).sum())  # IVF may find fewer than k
        return scores[:, :width].astype(np.float32), positions[:, :width].astype(np.int64)

    def reconstruct(self, positions: Any) -> Vectors:
        """The stored vectors at ``positions`` (flat/HNSW exactly; IVF via a direct map)."""
        pos = np.asarray(positions, dtype=np.int64).reshape(-1)
        if pos.size and (pos.min() < 0 or pos.max() >= len(self)):
            raise ConfigError(f"positions must be in [0, {len(self)}), got {pos.min()}..{pos.max()}")
        if self.kind == "ivf" and self.index.direct_map.type == 0:
            self.index.make_direct_map()  # kept up to date by later adds, and saved with the index
        if not pos.size:
            return np.zeros((0, self.dim), np.float32)
        return np.asarray(self.index.reconstruct_batch(pos), dtype=np.float32)

    def save(self, directory: str | Path) -> Path:
        """Write ``index.faiss`` and ``index.json`` into ``directory`` (created if needed)."""
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        self._faiss.write_index(self.index, str(path / INDEX_FILE))
        meta = {"format": FORMAT_VERSION, "metric": "inner_product", "dim": self.dim,
                "count": len(self), "options": asdict(self.options)}
        (path / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: str | Path) -> FaissIndex:
        """Read an index written by :meth:`save`.

        Raises:
            ConfigError: the directory lacks the index files or has another format version.
        """
        faiss = require("faiss", extra="embeddings", feature="FaissIndex")
        path = Path(directory)
        meta = _read_meta(path)
        index = faiss.read_index(str(path / INDEX_FILE))
        opts = IndexOptions(**meta["options"])
        out = cls(index, opts)
        if len(out) != meta["count"] or out.dim != meta["dim"]:
            raise ConfigError(f"{path / INDEX_FILE} holds {len(out)}x{out.dim} vectors but "
                                   f"{META_FILE} says {meta['count']}x{meta['dim']}; rebuild the index")
        return out

    def __repr__(self) -> str:
        return f"FaissIndex(kind={self.kind!r}, count={len(self)}, dim={self.dim})"


def _train_ivf(faiss: Any, arr: Vectors, opts: IndexOptions) -> tuple[Any, IndexOptions]:
    n, dim = arr.shape
    if n == 0:
        raise ConfigError("an IVF index needs vectors to train on; use kind='flat' for an empty index")
    nlist = auto_nlist(n, opts.train_size) if opts.nlist is None else opts.nlist
    if nlist > n:
        raise ConfigError(f"nlist must be <= the number of vectors ({n}), got {nlist}; "
                          "lower nlist or use kind='flat'")
    sample = arr
    if n > opts.train_size:
        rows = np.random.default_rng(opts.seed).choice(n, size=opts.train_size, replace=False)
        sample = arr[np.sort(rows)]
    quantizer = faiss.IndexFlatIP(dim)
    index = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
    index.cp.seed = opts.seed
    index.train(sample)
    index.nprobe = min(opts.nprobe, nlist)
    return index, replace(opts, nlist=nlist, nprobe=min(opts.nprobe, nlist))


def _read_meta(path: Path) -> dict[str, Any]:
    meta_path = path / META_FILE
    if not meta_path.is_file() or not (path / INDEX_FILE).is_file():
        raise ConfigError(f"no saved index in {str(path)!r}: expected {INDEX_FILE} and {META_FILE}; "
                               "build one and call .save(directory) first")
    meta: dict[str, Any] = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT_VERSION:
        raise ConfigError(f"{meta_path} has format {meta.get('format')!r}; this authorag reads "
                               f"format {FORMAT_VERSION}. Rebuild the index.")
    return meta
