"""A compact, memory-mapped prior store for tens of millions of domains.

One file holds one source: a small JSON header (name, axis, confidence, provenance, the value
transform) and four arrays, read in place through ``mmap``::

    magic "AUTHORAG-STORE\\0\\1" | u64 header length | header JSON | 64-byte aligned sections:
    dir    uint32[2^B + 1]  first entry of each fingerprint bucket (top B bits)
    fp     uint64[n]        64-bit keyed BLAKE2b fingerprints of the keys, sorted
    value  float32[n]       value on 0–1, in fingerprint order
    raw    f4|f8|u4[n]      the source's own number (rank, PageRank, score), optional
    keys   bytes            the keys in fingerprint order, one per line (listing only)

Why fingerprints instead of binary search over sorted strings: a Python-level binary search
over 10 M keys takes ~24 probes, each building a bytes object from the mapped file; sorted
integer fingerprints with a bucket directory need one hash and one or two integer compares,
and a lookup touches three small arrays, never the key text (so a long-running process only
pages in ~17 bytes per entry). A lookup of a key that is not in the store matches a stored
fingerprint with probability n / 2^64 (5e-13 for 10 M keys); the builder re-salts the hash
until the stored keys' fingerprints are distinct, so stored keys never collide.

Example:
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "demo.store")
    >>> _ = write_store(path, ["nih.gov", "example.com"], [0.9, 0.4], raw=[12, 90000], name="demo")
    >>> store = PriorStore(path)
    >>> store["nih.gov"]
    SourceValue(name='demo', value=0.8999999761581421, raw=12)
    >>> store.get("missing.org") is None, len(store), sorted(store)
    (True, 2, ['example.com', 'nih.gov'])
"""
from __future__ import annotations

import hashlib
import json
import mmap
import os
import shutil
import stat
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

import numpy as np
from numpy.typing import ArrayLike, NDArray

from authorag.errors import ConfigError, PriorUnavailable
from authorag.priors.store.check import (
    MAGIC,
    MAGIC_NAME,
    bad_store,
    check_arrays,
    check_ends,
    check_header,
    check_start,
    header_json,
)
from authorag.priors.store.verify import CHECKSUM_FIELD, PLACEHOLDER, check_checksum
from authorag.priors.store.verify import remember_verified, seal, was_verified
from authorag.types import SourceValue
from authorag.validation import check_unit

STORE_SUFFIX = ".store"
RawDtype = Literal["f4", "f8", "u4", "none"]
_ALIGN = 64
_FORMAT_CHAR = {"u4": "I", "f4": "f", "f8": "d", "u8": "Q"}
MAX_SALTS = 8


def fingerprint(key: str, salt: bytes) -> int:
    """64-bit keyed BLAKE2b fingerprint of a key (little-endian integer).

    Example:
        >>> fingerprint("nih.gov", b"") == fingerprint("nih.gov", b"")
        True
    """
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8, salt=salt).digest(), "little")


def _digest(proto: Any, key: str) -> bytes:
    h = proto.copy()  # copying a keyed hasher is cheaper than building one with keyword arguments
    h.update(key.encode("utf-8"))
    return h.digest()


def salt_for(attempt: int) -> bytes:
    """The hash salt of the ``attempt``-th try (the builder moves on when stored keys collide)."""
    return attempt.to_bytes(16, "little")


def fingerprints_of(keys: Sequence[str], salt: bytes) -> NDArray[np.uint64]:
    """:func:`fingerprint` of every key, as a uint64 array."""
    proto = hashlib.blake2b(digest_size=8, salt=salt)
    data = b"".join(_digest(proto, k) for k in keys)
    return np.frombuffer(data, dtype="<u8").copy()


def bucket_bits(n: int) -> int:
    """About 2–4 entries per bucket: the directory costs ~1–2 bytes per entry."""
    return max(1, (n // 4).bit_length())


def write_store(path: str | Path, keys: Sequence[str], values: ArrayLike, *, raw: ArrayLike | None = None,
                raw_dtype: RawDtype | None = None, name: str = "store", axis: str = "authority",
                confidence: float = 0.7, transform: str = "", provenance: Mapping[str, Any] | None = None) -> Path:
    """Write a store file atomically; returns its path.

    Duplicate keys keep the entry with the highest value. Keys must be non-empty and free of
    newlines (use :func:`authorag.priors.sources.normalize_key` first).

    Args:
        keys: table keys (normalized hosts or registrable domains).
        values: 0–1 values, one per key.
        raw: the source's own numbers, one per key (ranks, PageRank values), or None.
        raw_dtype: ``u4`` (ranks), ``f4``, ``f8``; default ``u4`` for integer input, else ``f4``.
        name, axis, confidence: defaults for the source made from this store.
        transform: how raw numbers became values (shown by ``authorag priors store-info``).
        provenance: file name, date, row count, checksum... (kept in the header as given).

    Raises:
        ConfigError: mismatched lengths, values outside 0–1, a bad key, axis or confidence.
    """
    vals = np.asarray(values, dtype=np.float64)
    raw_arr, rtype = _raw_array(raw, raw_dtype, len(keys))
    check_inputs(keys, vals, axis, confidence)
    order, fps, salt = _sorted_unique(keys, vals)
    n = int(order.shape[0])
    bits = bucket_bits(n)
    buckets = (fps >> np.uint64(64 - bits)).astype(np.int64)
    directory = np.searchsorted(buckets, np.arange((1 << bits) + 1), side="left").astype("<u4")
    key_blob = "\n".join([keys[int(i)] for i in order.tolist()]).encode("utf-8")
    sections: list[tuple[str, bytes, str]] = [
        ("dir", directory.tobytes(), "u4"), ("fp", fps.astype("<u8").tobytes(), "u8"),
        ("value", vals[order].astype("<f4").tobytes(), "f4")]
    if raw_arr is not None:
        sections.append(("raw", raw_arr[order].astype("<" + rtype).tobytes(), rtype))
    sections.append(("keys", key_blob, "bytes"))
    header = store_header(name=name, axis=axis, confidence=confidence, entries=n, bits=bits, salt=salt,
                          transform=transform, provenance=provenance)
    return write_sections(Path(path), header, sections)


def store_header(*, name: str, axis: str, confidence: float, entries: int, bits: int, salt: bytes, transform: str,
                 provenance: Mapping[str, Any] | None) -> dict[str, Any]:
    """The header fields of a store file (the section layout is added when it is written)."""
    return {"format": 1, "name": name, "axis": axis, "confidence": confidence, "entries": entries,
            "bucket_bits": bits, "salt": salt.hex(), "transform": transform, "provenance": dict(provenance or {})}


def _raw_array(raw: ArrayLike | None, raw_dtype: RawDtype | None, n: int) -> tuple[NDArray[Any] | None, str]:
    if raw is None or raw_dtype == "none":
        return None, "none"
    arr = np.asarray(raw)
    if arr.shape != (n,):
        raise ConfigError(f"raw must have one number per key ({n}), got shape {arr.shape}")
    rtype = raw_dtype or ("u4" if np.issubdtype(arr.dtype, np.integer) else "f4")
    if rtype not in get_args(RawDtype):
        raise ConfigError(f"raw_dtype must be one of {get_args(RawDtype)}, got {rtype!r}")
    if rtype == "u4" and n and (int(arr.min()) < 0 or int(arr.max()) >= 2**32):
        raise ConfigError("raw ranks must fit in 0..2^32-1 for raw_dtype 'u4'; use 'f8'")
    if rtype != "u4" and n and not bool(np.isfinite(arr.astype("<" + rtype)).all()):
        i = int(np.argmin(np.isfinite(arr.astype("<" + rtype))))
        raise ConfigError(f"raw numbers must be finite in {rtype}, got {arr[i].item()!r} at position {i}")
    return arr, rtype


def check_inputs(keys: Sequence[str], vals: NDArray[np.float64], axis: str, confidence: float) -> None:
    """Raise ConfigError for values outside 0–1, empty or multi-line keys, a bad axis or confidence."""
    if vals.shape != (len(keys),):
        raise ConfigError(f"values must have one number per key ({len(keys)}), got shape {vals.shape}")
    if vals.size and not (np.all(vals >= 0.0) and np.all(vals <= 1.0)):
        raise ConfigError("store values must be in [0, 1] (NaN is not allowed); map the source's numbers "
                          "with a transform first")
    bad = next((k for k in keys if not k or "\n" in k), None)
    if bad is not None:
        raise ConfigError(f"store keys must be non-empty and contain no newline, got {bad!r}")
    if axis not in ("authority", "credibility"):
        raise ConfigError(f"axis must be 'authority' or 'credibility', got {axis!r}")
    check_unit("confidence", confidence)


def _sorted_unique(keys: Sequence[str], vals: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.uint64], bytes]:
    """Entry order (by fingerprint, best value per key) under the first salt without collisions."""
    for attempt in range(MAX_SALTS):
        salt = salt_for(attempt)
        fps = fingerprints_of(keys, salt)
        order = np.lexsort((-vals, fps))
        sorted_fp = fps[order]
        same = np.flatnonzero(sorted_fp[1:] == sorted_fp[:-1]) + 1
        if all(keys[order[i]] == keys[order[i - 1]] for i in same.tolist()):
            keep = np.ones(order.shape[0], dtype=bool)
            keep[same] = False
            return order[keep], sorted_fp[keep], salt
    raise ConfigError(f"could not find collision-free fingerprints in {MAX_SALTS} salts; report this")


def write_sections(path: Path, header: dict[str, Any], sections: Sequence[tuple[str, bytes | Path, str]]) -> Path:
    """Write a store file atomically from its header and sections (bytes, or a file to copy in)."""
    layout: dict[str, list[Any]] = {}
    header = {**header, CHECKSUM_FIELD: PLACEHOLDER}
    head_len = 4096
    sizes = [len(data) if isinstance(data, bytes) else data.stat().st_size for _, data, _ in sections]
    while True:  # the header holds the offsets, which depend on the header's length
        offset = _aligned(len(MAGIC) + 8 + head_len)
        for (sec_name, _, dtype), size in zip(sections, sizes):
            layout[sec_name] = [offset, size, dtype]
            offset = _aligned(offset + size)
        blob = json.dumps({**header, "sections": layout}, sort_keys=True).encode("utf-8")
        if len(blob) <= head_len:
            break
        head_len = _aligned(len(blob))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        f.write(MAGIC + len(blob).to_bytes(8, "little") + blob)
        for sec_name, data, _ in sections:
            f.seek(layout[sec_name][0])
            if isinstance(data, bytes):
                f.write(data)
            else:
                with data.open("rb") as src:
                    shutil.copyfileobj(src, f, 1 << 20)
        f.truncate(offset)  # the end of the last section, so empty sections still lie inside the file
    seal(tmp, {**header, "sections": layout}, blob, len(MAGIC) + 8)
    os.replace(tmp, path)
    return path


def _aligned(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def is_store(path: str | Path) -> bool:
    """True when ``path`` claims to be a prior store: a regular file named ``*.store`` or one that
    starts with the store's magic bytes (of any format version). :class:`PriorStore` then says
    what is wrong with it, if anything (a damaged store is never read as another kind of file)."""
    p = Path(path)
    if p.name.endswith(STORE_SUFFIX):
        return True
    try:
        if not stat.S_ISREG(p.stat().st_mode):
            return False
        with p.open("rb") as f:
            return f.read(len(MAGIC_NAME)) == MAGIC_NAME
    except OSError:
        return False


class PriorStore(Mapping[str, SourceValue]):
    """A read-only, memory-mapped ``key → SourceValue`` mapping (a prior-table source).

    The first open of a file verifies all of it, once per file identity
    (:mod:`~authorag.priors.store.verify`); later opens read only the header and the ends of the
    arrays, and lookups page in (and check) the bucket they touch. Processes that open
    the same file share its pages through the OS page cache. The mapping is released when the
    object is garbage-collected.

    Args:
        path: a file written by :func:`write_store` or ``authorag priors import``.
        name: the source name in breakdowns (default: the name in the file).

    Raises:
        PriorUnavailable: the file is missing, truncated or not a store.
    """

    def __init__(self, path: str | Path, *, name: str | None = None) -> None:
        if sys.byteorder != "little":
            raise PriorUnavailable("prior stores are little-endian; this machine is big-endian")
        self.path = Path(path)
        self._mm, self.header, self._data_start = _open(self.path)
        self.name: str = self.header["name"] if name is None else name
        self.axis: str = self.header["axis"]
        self.confidence: float = float(self.header["confidence"])
        self.provenance: Mapping[str, Any] = self.header.get("provenance", {})
        self._n = int(self.header["entries"])
        self._salt = bytes.fromhex(self.header["salt"])
        self._hasher = hashlib.blake2b(digest_size=8, salt=self._salt)
        self._shift = 64 - int(self.header["bucket_bits"])
        view = memoryview(self._mm)
        self._dir = self._view(view, "dir")
        self._fp = self._view(view, "fp")
        self._value = self._view(view, "value")
        self._raw = self._view(view, "raw") if "raw" in self.header["sections"] else None
        if was_verified(self.path, self.header):  # the header is checked; lookups check their bucket
            check_ends(self.path, self.header, self._dir, self._fp, self._view(view, "keys"))
        else:
            self.verify()

    def verify(self) -> dict[str, Any]:
        """Verify the whole file: every array (:func:`~authorag.priors.store.check.check_arrays`) and
        the checksum (:mod:`~authorag.priors.store.verify`); remembered for this file's identity.
        Returns :meth:`info`, with ``checksum`` ``None`` for a store written without one.

        Raises:
            PriorUnavailable: naming the file and what is wrong.
        """
        keys = self._view(memoryview(self._mm), "keys")
        check_arrays(self.path, self.header, self._dir, self._fp, self._value, self._raw, keys)
        check_checksum(self.path, self.header, self._data_start)
        remember_verified(self.path, self.header)
        return self.info() | {"checksum": self.header.get(CHECKSUM_FIELD)}

    def _view(self, view: memoryview, section: str) -> memoryview:
        offset, length, dtype = self.header["sections"][section]
        sliced: Any = view[offset:offset + length]  # memoryview.cast is typed for literal formats only
        return sliced if dtype == "bytes" else sliced.cast(_FORMAT_CHAR[dtype])

    def get(self, key: str, default: SourceValue | None = None) -> SourceValue | None:  # type: ignore[override]
        """The entry for ``key`` or ``default`` (one hash, one or two integer compares)."""
        hasher = self._hasher.copy()
        hasher.update(key.encode("utf-8"))
        h = int.from_bytes(hasher.digest(), "little")
        b = h >> self._shift
        fp = self._fp
        lo, hi = self._dir[b], self._dir[b + 1]
        if not lo <= hi <= self._n:
            raise bad_store(self.path, f"bucket {b} of section 'dir' runs from {lo} to {hi} of {self._n} entries")
        for i in range(lo, hi):
            if fp[i] == h:
                value = self._value[i]
                if not 0.0 <= value <= 1.0:  # NaN fails too
                    raise bad_store(self.path, f"value of entry {i} is {value!r}; values must be finite numbers "
                                               "in [0, 1]")
                return SourceValue(self.name, value, None if self._raw is None else self._raw[i])
        return default

    def __getitem__(self, key: str) -> SourceValue:
        hit = self.get(key)
        if hit is None:
            raise KeyError(key)
        return hit

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[str]:
        """Keys in file order (reads the key section; for listing, not for lookups)."""
        offset, length, _ = self.header["sections"]["keys"]
        if not length:
            return
        try:
            keys = bytes(self._mm[offset:offset + length]).decode("utf-8").split("\n")
        except UnicodeDecodeError as exc:
            raise bad_store(self.path, f"section 'keys' is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        if len(keys) != self._n:
            raise bad_store(self.path, f"section 'keys' holds {len(keys)} keys, the header says {self._n}")
        yield from keys

    def arrays(self) -> tuple[NDArray[np.uint64], NDArray[np.float32], NDArray[Any] | None]:
        """(fingerprints, values, raw) as read-only numpy views, in file order."""
        fp = np.frombuffer(self._fp, dtype=np.uint64)
        val = np.frombuffer(self._value, dtype=np.float32)
        raw = None if self._raw is None else np.frombuffer(self._raw, dtype=self._raw.format)
        return fp, val, raw

    def get_many(self, keys: Sequence[str]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Vectorized lookup: (values, raw) as float64 with NaN where a key is absent."""
        if not self._n:
            return np.full(len(keys), np.nan), np.full(len(keys), np.nan)
        fp, val, raw = self.arrays()
        want = fingerprints_of(keys, self._salt)
        pos = np.minimum(np.searchsorted(fp, want), self._n - 1)
        hit = fp[pos] == want
        values = np.where(hit, val[pos].astype(np.float64), np.nan)
        bad = np.flatnonzero(hit & ~((values >= 0.0) & (values <= 1.0)))  # the entries read are checked, as in get()
        if len(bad):
            i = int(pos[int(bad[0])])
            raise bad_store(self.path, f"value of entry {i} is {float(val[i])!r}; values must be finite "
                                       "numbers in [0, 1]")
        raws = np.full(len(keys), np.nan) if raw is None else np.where(hit, raw[pos].astype(np.float64), np.nan)
        return values, raws

    def info(self) -> dict[str, Any]:
        """The header without the section layout: name, axis, entries, transform, provenance."""
        return {k: v for k, v in self.header.items() if k not in ("sections", "salt", "bucket_bits")} | {
            "path": str(self.path), "bytes": self.path.stat().st_size}

    def __repr__(self) -> str:
        return f"PriorStore({str(self.path)!r}, name={self.name!r}, entries={self._n})"


def _open(path: Path) -> tuple[mmap.mmap, dict[str, Any], int]:
    """Map a store file after checking its magic bytes and header (see :mod:`store_check`)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # before opening: opening a pipe waits for a writer
            raise PriorUnavailable(f"prior store {str(path)!r} is not a regular file (a device or a pipe); "
                                   "give a file written by 'authorag priors import' or 'priors build'")
        with path.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            start = f.read(len(MAGIC) + 8)
            head_len = check_start(path, start, size)
            data_start = len(MAGIC) + 8 + head_len
            header = check_header(path, header_json(path, f.read(head_len)), data_start=data_start, size=size)
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ), header, data_start
    except OSError as exc:
        raise PriorUnavailable(f"cannot open prior store {str(path)!r} ({exc.strerror or exc})") from exc
