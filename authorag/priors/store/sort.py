"""Write a prior store from more rows than fit in memory: an external sort.

:func:`~authorag.priors.store.mapped.write_store` holds every key as a Python string and sorts them
at once (~280 bytes per row at peak: 28 GB for 100 M rows). :func:`write_store_sorted` takes
the rows as chunks instead and bounds the peak by the chunk and batch sizes:

1. **runs**: each chunk is fingerprinted, sorted by (fingerprint, value descending) and written
   to temporary files (fingerprints, values, raw numbers, the keys and their byte offsets);
2. **merge**: fingerprints are uniform on 0..2^64, so the fingerprint space is cut into equal
   ranges holding about ``batch_rows`` rows; each range is read from every run, sorted, and
   appended to the output sections (duplicates keep the best value, as in ``write_store``);
3. **assemble**: the bucket directory is computed in one pass over the sorted fingerprints and
   the sections are copied into the store file behind its header.

The file is byte-for-byte the one ``write_store`` writes for the same rows in the same order
(the same salt, ties broken by input order as its stable sort does); tests/priors/test_store_sort.py
checks it. Temporary files take about twice the store's size.

Example:
    >>> import tempfile, os, numpy as np
    >>> from authorag.priors.store.mapped import PriorStore
    >>> d = tempfile.mkdtemp()
    >>> chunks = lambda: iter([(["b.org", "a.org"], np.array([0.2, 0.9]), None), (["a.org"], np.array([0.5]), None)])
    >>> path = write_store_sorted(os.path.join(d, "x.store"), chunks, raw_dtype="none", batch_rows=2)
    >>> PriorStore(path)["a.org"].value, len(PriorStore(path))
    (0.8999999761581421, 2)
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError
from authorag.priors.store.mapped import (
    MAX_SALTS,
    RawDtype,
    bucket_bits,
    check_inputs,
    fingerprints_of,
    salt_for,
    store_header,
    write_sections,
)

Chunks = Callable[[], Iterator[tuple[Sequence[str], NDArray[np.float64], NDArray[Any] | None]]]
"""A function returning a fresh iterator of ``(keys, values, raw)`` chunks in input order (values
on 0–1; raw numbers or None). It is called again if a new salt is needed."""


class _Collision(Exception):
    """Two different keys share a fingerprint under this salt."""


@dataclass
class _Run:
    """One sorted chunk on disk; ``cuts`` are its row positions at the range boundaries.

    Nothing per row stays in memory (the key offsets are a file too), so the merge's memory does
    not grow with the number of rows.
    """

    stem: Path
    n: int
    cuts: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def read(self, lo: int, hi: int, rtype: str) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], list[str]]:
        fp = _read(self.stem.with_suffix(".fp"), "<u8", lo, hi)
        val = _read(self.stem.with_suffix(".val"), "<f8", lo, hi)
        raw = _read(self.stem.with_suffix(".raw"), "<" + rtype, lo, hi)
        offsets = _read(self.stem.with_suffix(".koff"), "<u8", lo, hi + 1)  # byte offsets of the keys
        start, end = int(offsets[0]), int(offsets[-1])
        with self.stem.with_suffix(".keys").open("rb") as f:
            f.seek(start)
            text = f.read(end - start).decode("utf-8")
        return fp, val, raw, text.split("\n")[:-1]


def _read(path: Path, dtype: str, lo: int, hi: int) -> NDArray[Any]:
    size = np.dtype(dtype).itemsize
    with path.open("rb") as f:
        return np.fromfile(f, dtype=dtype, count=hi - lo, offset=lo * size)


def write_store_sorted(path: str | Path, chunks: Chunks, *, raw_dtype: RawDtype = "u4", name: str = "store", axis: str = "authority",
                       confidence: float = 0.7, transform: str = "", provenance: Mapping[str, Any] | None = None,
                       batch_rows: int = 2_000_000, tmp_dir: str | Path | None = None) -> Path:
    """Write a store from chunks of rows with memory bounded by chunk size and ``batch_rows``.

    Args:
        chunks: see :data:`Chunks`.
        raw_dtype: how raw numbers are stored (``u4``, ``f4``, ``f8``; ``none``: not stored).
        batch_rows: rows per merge batch (the merge's memory is ~150 bytes per batch row).
        tmp_dir: where the sorted runs go (default: next to ``path``).
        name, axis, confidence, transform, provenance: as for :func:`write_store`.

    Raises:
        ConfigError: bad keys or values (as ``write_store``), or no collision-free salt.
    """
    out = Path(path)
    if batch_rows < 1:
        raise ConfigError(f"batch_rows must be >= 1, got {batch_rows}")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=out.name + ".sort-", dir=tmp_dir or out.parent))
    try:
        for attempt in range(MAX_SALTS):
            salt = salt_for(attempt)
            runs = [_write_run(work / f"run-{i:05d}", keys, vals, _raw(raw, i, vals, raw_dtype), salt, axis,
                               confidence) for i, (keys, vals, raw) in enumerate(chunks())]
            try:
                n = _merge(runs, work, raw_dtype, batch_rows)
            except _Collision:
                continue
            sections = [("dir", _directory(work, n), "u4"), ("fp", work / "out.fp", "u8"),
                        ("value", work / "out.val", "f4")]
            if raw_dtype != "none":
                sections.append(("raw", work / "out.raw", raw_dtype))
            sections.append(("keys", work / "out.keys", "bytes"))
            header = store_header(name=name, axis=axis, confidence=confidence, entries=n, bits=bucket_bits(n),
                                  salt=salt, transform=transform, provenance=provenance)
            return write_sections(out, header, sections)
        raise ConfigError(f"could not find collision-free fingerprints in {MAX_SALTS} salts; report this")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _raw(given: NDArray[Any] | None, index: int, vals: NDArray[np.float64], raw_dtype: RawDtype) -> NDArray[Any]:
    if raw_dtype == "none":
        return np.zeros(0)
    if given is None:
        raise ConfigError(f"chunk {index} has no raw numbers; give them or use raw_dtype='none'")
    raw = np.asarray(given)
    if raw.shape != vals.shape:
        raise ConfigError(f"chunk {index}: raw must have one number per key ({vals.shape[0]}), got {raw.shape}")
    return raw.astype("<" + raw_dtype)


def _write_run(stem: Path, keys: Sequence[str], vals: NDArray[np.float64], raw: NDArray[Any], salt: bytes,
               axis: str, confidence: float) -> _Run:
    vals = np.asarray(vals, dtype=np.float64)
    check_inputs(keys, vals, axis, confidence)
    fps = fingerprints_of(keys, salt)
    order = np.lexsort((-vals, fps))
    fps[order].tofile(stem.with_suffix(".fp"))
    vals[order].astype("<f8").tofile(stem.with_suffix(".val"))
    (raw[order] if raw.size else np.zeros(len(keys), dtype=raw.dtype)).tofile(stem.with_suffix(".raw"))
    encoded = [keys[int(i)].encode("utf-8") + b"\n" for i in order.tolist()]
    offsets = np.zeros(len(encoded) + 1, dtype=np.uint64)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    offsets.astype("<u8").tofile(stem.with_suffix(".koff"))
    stem.with_suffix(".keys").write_bytes(b"".join(encoded))
    return _Run(stem, len(keys))


def _merge(runs: list[_Run], work: Path, raw_dtype: RawDtype, batch_rows: int) -> int:
    """Merge the runs into out.fp/.val/.raw/.keys in fingerprint order; returns the entry count."""
    total = sum(r.n for r in runs)
    ranges = max(1, -(-total // batch_rows))
    bounds = np.array([(j << 64) // ranges for j in range(1, ranges)], dtype=np.uint64)
    for run in runs:
        fp = _read(run.stem.with_suffix(".fp"), "<u8", 0, run.n)
        run.cuts = np.concatenate([[0], np.searchsorted(fp, bounds), [run.n]]).astype(np.int64)
    rtype = "f8" if raw_dtype == "none" else raw_dtype
    n = 0
    names = ("fp", "val", "raw", "keys")
    files: dict[str, IO[bytes]] = {k: (work / f"out.{k}").open("wb") for k in names}
    try:
        for j in range(ranges):
            n += _merge_range([r.read(int(r.cuts[j]), int(r.cuts[j + 1]), rtype) for r in runs], files, n == 0,
                              raw_dtype)
    finally:
        for f in files.values():
            f.close()
    return n


def _merge_range(parts: list[tuple[NDArray[Any], NDArray[Any], NDArray[Any], list[str]]],
                 files: Mapping[str, IO[bytes]], first: bool, raw_dtype: RawDtype) -> int:
    if not any(p[0].size for p in parts):
        return 0
    fp = np.concatenate([p[0] for p in parts])
    val = np.concatenate([p[1] for p in parts])
    raw = np.concatenate([p[2] for p in parts])
    keys = [k for p in parts for k in p[3]]
    order = np.lexsort((-val, fp))  # stable: ties stay in run order, i.e. input order
    fp = fp[order]
    same = np.flatnonzero(fp[1:] == fp[:-1]) + 1
    if any(keys[order[i]] != keys[order[i - 1]] for i in same.tolist()):
        raise _Collision
    keep = np.ones(order.shape[0], dtype=bool)
    keep[same] = False
    kept = order[keep]
    files["fp"].write(fp[keep].astype("<u8").tobytes())
    files["val"].write(val[kept].astype("<f4").tobytes())
    if raw_dtype != "none":
        files["raw"].write(raw[kept].astype("<" + raw_dtype).tobytes())
    text = "\n".join([keys[i] for i in kept.tolist()]).encode("utf-8")
    files["keys"].write(text if first else b"\n" + text)
    return int(kept.shape[0])


def _directory(work: Path, n: int, step: int = 1 << 20) -> Path:
    """The bucket directory (first entry of each bucket) from the sorted fingerprints, streamed."""
    bits = bucket_bits(n)
    shift = np.uint64(64 - bits)
    out = work / "out.dir"
    next_bucket = 0
    with out.open("wb") as f:
        for lo in range(0, n, step):
            buckets = (_read(work / "out.fp", "<u8", lo, min(n, lo + step)) >> shift).astype(np.int64)
            last = int(buckets[-1])
            if last >= next_bucket:
                want = np.arange(next_bucket, last + 1)
                f.write((np.searchsorted(buckets, want, side="left") + lo).astype("<u4").tobytes())
                next_bucket = last + 1
        f.write(np.full((1 << bits) + 1 - next_bucket, n, dtype="<u4").tobytes())
    return out
