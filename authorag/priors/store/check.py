"""Checks a prior-store file before it is used: the header, every offset, the arrays.

A store is read in place (``mmap``), so nothing in its header may be trusted: a length, an
offset or a bucket count taken as given can point outside the file, allocate without limit or
make every lookup wrong. :func:`check_header` validates each header field by its type and
range and every section against the file's size; :func:`check_arrays` checks what a lookup
relies on (a monotone bucket directory that ends at the entry count, sorted fingerprints, values
finite and in [0, 1], raw numbers finite, the first and last key hashing to their fingerprints).
Every error is a :class:`~authorag.errors.PriorUnavailable` naming the file and the field.

Example:
    >>> check_header("x.store", {"format": 1}, data_start=64, size=64)
    Traceback (most recent call last):
    ...
    authorag.errors.PriorUnavailable: prior store 'x.store': header field 'name' is missing; rebuild the store with 'authorag priors import' or 'priors build'
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from authorag.errors import PriorUnavailable

MAGIC = b"AUTHORAG-STORE\x00\x01"
"""The first bytes of a store file: the name, then the format version (big-endian)."""
MAGIC_NAME = MAGIC[:-2]
MAX_HEADER_BYTES = 16 << 20
"""Largest store header read (real headers are a few KB; provenance included)."""
MAX_BUCKET_BITS = 32
SECTION_DTYPES: Mapping[str, tuple[str, ...]] = {"dir": ("u4",), "fp": ("u8",), "value": ("f4",),
                                                  "raw": ("u4", "f4", "f8"), "keys": ("bytes",)}
"""The sections a store may hold and the dtypes each may have (``raw`` is optional)."""
ITEMSIZE = {"u4": 4, "f4": 4, "f8": 8, "u8": 8}
_CHUNK = 1 << 20  # entries checked at a time: temporaries stay at a few MB whatever the store's size
_FIX = "rebuild the store with 'authorag priors import' or 'priors build'"


def bad_store(path: str | Path, problem: str) -> PriorUnavailable:
    """The error for a damaged or forged store file (file, problem, how to fix it)."""
    return PriorUnavailable(f"prior store {str(path)!r}: {problem}; {_FIX}")


def _field(path: str | Path, header: Mapping[str, Any], name: str, kinds: type | tuple[type, ...]) -> Any:
    if name not in header:
        raise bad_store(path, f"header field {name!r} is missing")
    value = header[name]
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise bad_store(path, f"header field {name!r} has the wrong type ({type(value).__name__}: {_short(value)})")
    return value


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _int_in(path: str | Path, header: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
    value = cast(int, _field(path, header, name, int))
    if not lo <= value <= hi:
        raise bad_store(path, f"header field {name!r} must be in [{lo}, {hi}], got {value}")
    return value


def check_header(path: str | Path, header: object, *, data_start: int, size: int) -> dict[str, Any]:
    """The header as a dict once every field and section is valid for a file of ``size`` bytes
    whose sections may start at ``data_start``.

    Raises:
        PriorUnavailable: a missing or mistyped field, a value out of range, or a section that
            lies outside the file, overlaps another or has the wrong length for the entry count.
    """
    if not isinstance(header, dict):
        raise bad_store(path, f"the header is {type(header).__name__}, not a JSON object")
    h = cast(dict[str, Any], header)
    _int_in(path, h, "format", 1, 1)
    if not _field(path, h, "name", str):
        raise bad_store(path, "header field 'name' is empty")
    if _field(path, h, "axis", str) not in ("authority", "credibility"):
        raise bad_store(path, f"header field 'axis' must be 'authority' or 'credibility', got {_short(h['axis'])}")
    confidence = float(_field(path, h, "confidence", (int, float)))
    if not (math.isfinite(confidence) and 0.0 <= confidence <= 1.0):
        raise bad_store(path, f"header field 'confidence' must be in [0, 1], got {confidence!r}")
    n = _int_in(path, h, "entries", 0, 2**32 - 1)
    bits = _int_in(path, h, "bucket_bits", 1, MAX_BUCKET_BITS)
    salt = _field(path, h, "salt", str)
    try:
        if len(bytes.fromhex(salt)) > 16:
            raise ValueError("longer than 16 bytes")
    except ValueError as exc:
        raise bad_store(path, f"header field 'salt' is not a hash salt ({exc})") from None
    _field(path, h, "transform", str)
    _check_provenance(path, h.get("provenance", {}))
    _check_sections(path, _field(path, h, "sections", dict), n=n, bits=bits, data_start=data_start, size=size)
    return h


def _check_provenance(path: str | Path, provenance: object) -> None:
    if not isinstance(provenance, dict):
        raise bad_store(path, f"header field 'provenance' must be an object, got {type(provenance).__name__}")
    files = cast(dict[str, Any], provenance).get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, dict) for f in cast(list[Any], files)):
        raise bad_store(path, "header field 'provenance.files' must be a list of objects")


def _check_sections(path: str | Path, sections: dict[str, Any], *, n: int, bits: int, data_start: int,
                    size: int) -> None:
    unknown = sorted(set(sections) - set(SECTION_DTYPES))
    if unknown:
        raise bad_store(path, f"unknown section(s) {unknown}")
    spans: list[tuple[int, int, str]] = []
    for name, dtypes in SECTION_DTYPES.items():
        if name not in sections:
            if name == "raw":
                continue
            raise bad_store(path, f"section {name!r} is missing")
        entry = sections[name]
        if (not isinstance(entry, list) or len(cast(list[Any], entry)) != 3
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in cast(list[Any], entry)[:2])):
            raise bad_store(path, f"section {name!r} must be [offset, length, dtype], got {_short(entry)}")
        offset, length, dtype = cast(list[Any], entry)
        if dtype not in dtypes:
            raise bad_store(path, f"section {name!r} has dtype {_short(dtype)}, expected {' or '.join(dtypes)}")
        if offset < data_start or length < 0 or offset + length > size:
            raise bad_store(path, f"section {name!r} ({offset}+{length} bytes) lies outside the file's data "
                                  f"({data_start}..{size} bytes): truncated or damaged")
        want = _section_length(name, dtype, n, bits)
        if want is not None and length != want:
            raise bad_store(path, f"section {name!r} holds {length} bytes, {want} expected for {n} entries")
        if name == "keys" and n and length < 2 * n - 1:
            raise bad_store(path, f"section 'keys' holds {length} bytes, too few for {n} keys")
        spans.append((offset, offset + length, name))
    spans.sort()
    for (_, end, first), (start, _, second) in itertools.pairwise(spans):
        if start < end:
            raise bad_store(path, f"sections {first!r} and {second!r} overlap")


def _section_length(name: str, dtype: str, n: int, bits: int) -> int | None:
    if name == "dir":
        return ((1 << bits) + 1) * 4
    if name == "keys":
        return None
    return n * ITEMSIZE[dtype]


def check_arrays(path: str | Path, header: Mapping[str, Any], directory: memoryview, fp: memoryview,
                 value: memoryview, raw: memoryview | None, keys: memoryview) -> None:
    """Check what lookups rely on (see the module docstring); reads the arrays in chunks.

    Raises:
        PriorUnavailable: naming the file, the section and the first bad entry.
    """
    _dir_ends(path, header, directory)
    _monotone(path, "dir", np.frombuffer(directory, dtype="<u4"), strict=False)
    _monotone(path, "fp", np.frombuffer(fp, dtype="<u8"), strict=True)
    _finite(path, "value", np.frombuffer(value, dtype="<f4"), unit=True)
    if raw is not None and raw.format in ("f", "d"):
        _finite(path, "raw", np.frombuffer(raw, dtype=np.float32 if raw.format == "f" else np.float64), unit=False)
    if int(header["entries"]):
        _check_end_keys(path, header, np.frombuffer(fp, dtype="<u8"), keys)


def check_ends(path: str | Path, header: Mapping[str, Any], directory: memoryview, fp: memoryview,
               keys: memoryview) -> None:
    """What every open checks, in a few reads: the directory runs from 0 to the entry count, and
    the first and last key hash to the first and last fingerprint."""
    _dir_ends(path, header, directory)
    if int(header["entries"]):
        _check_end_keys(path, header, np.frombuffer(fp, dtype="<u8"), keys)


def _dir_ends(path: str | Path, header: Mapping[str, Any], directory: memoryview) -> None:
    n, first, last = int(header["entries"]), int(directory[0]), int(directory[-1])
    if first != 0 or last != n:
        raise bad_store(path, f"section 'dir' runs from {first} to {last}, expected 0 to {n}")


def _monotone(path: str | Path, section: str, arr: NDArray[Any], *, strict: bool) -> None:
    for lo in range(0, max(len(arr) - 1, 0), _CHUNK):
        part = arr[lo:lo + _CHUNK + 1]
        ok = part[1:] > part[:-1] if strict else part[1:] >= part[:-1]
        if not bool(ok.all()):
            i = lo + int(np.argmin(ok)) + 1
            order = "increasing" if strict else "non-decreasing"
            raise bad_store(path, f"section {section!r} is not {order} at entry {i}")


def _finite(path: str | Path, section: str, arr: NDArray[Any], *, unit: bool) -> None:
    for lo in range(0, len(arr), _CHUNK):
        part = arr[lo:lo + _CHUNK]
        ok = np.isfinite(part)
        if unit:
            ok &= (part >= 0.0) & (part <= 1.0)
        if not bool(ok.all()):
            i = lo + int(np.argmin(ok))
            what = "finite numbers in [0, 1]" if unit else "finite numbers"
            raise bad_store(path, f"{section} of entry {i} is {float(arr[i])!r}; {section}s must be {what}")


def _check_end_keys(path: str | Path, header: Mapping[str, Any], fps: NDArray[Any], keys: memoryview) -> None:
    """The first and last key must hash to the first and last fingerprint (salt, order, alignment)."""
    first, last = _end_key(keys, first=True), _end_key(keys, first=False)
    salt = bytes.fromhex(str(header["salt"]))
    for key, want, where in ((first, fps[0], "first"), (last, fps[-1], "last")):
        got = int.from_bytes(hashlib.blake2b(key, digest_size=8, salt=salt).digest(), "little")
        if got != int(want):
            raise bad_store(path, f"the {where} key {key[:60]!r} does not match its fingerprint (wrong salt, "
                                  "or the sections do not belong together)")


def _end_key(keys: memoryview, *, first: bool) -> bytes:
    """The first (or last) newline-separated key, read in growing windows (keys may be long)."""
    window = 4096
    while True:
        part = bytes(keys[:window] if first else keys[-window:])
        if first and b"\n" in part:
            return part.split(b"\n", 1)[0]
        if not first and b"\n" in part:
            return part.rsplit(b"\n", 1)[1]
        if window >= len(keys):
            return part
        window *= 16


def check_start(path: Path, start: bytes, size: int) -> int:
    """The header length after the magic bytes, checked against the file size."""
    if start[:len(MAGIC_NAME)] != MAGIC_NAME:
        raise PriorUnavailable(f"{str(path)!r} is not an authorag prior store (bad magic bytes) nor a gzip CSV "
                               "prior file; write one with 'authorag priors import' or 'priors build'")
    if start[:len(MAGIC)] != MAGIC:
        version = int.from_bytes(start[len(MAGIC_NAME):len(MAGIC)], "big")
        raise PriorUnavailable(f"prior store {str(path)!r} has format version {version} in its magic bytes; this "
                               "authorag reads version 1; rebuild it with this version")
    if len(start) < len(MAGIC) + 8:
        raise bad_store(path, "the file ends inside its header length: truncated")
    head_len = int.from_bytes(start[len(MAGIC):], "little")
    if head_len > min(MAX_HEADER_BYTES, size - len(start)):
        raise bad_store(path, f"the header length {head_len} exceeds the file ({size} bytes) or the "
                              f"{MAX_HEADER_BYTES >> 20} MiB limit: truncated or damaged")
    return head_len


def header_json(path: Path, blob: bytes) -> object:
    """The header JSON (numbers only: NaN and infinities are refused)."""
    def no_constants(name: str) -> object:
        raise ValueError(f"{name} is not a JSON number")

    try:
        return json.loads(blob, parse_constant=no_constants)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise bad_store(path, f"the header is not valid JSON ({str(exc)[:80] or type(exc).__name__})") from None


__all__ = ["ITEMSIZE", "MAGIC", "MAGIC_NAME", "MAX_HEADER_BYTES", "SECTION_DTYPES", "bad_store", "check_arrays",
           "check_ends", "check_header", "check_start", "header_json"]
