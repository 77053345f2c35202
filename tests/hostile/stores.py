"""Crafted prior-store files: truncations, forged headers and lengths, bad arrays (>= 85 variants).

Every variant starts from a valid store written by ``write_store`` and breaks one thing. All of
them must give a ``PriorUnavailable`` that names the file (``when="open"``), or, for damage only a
key listing can see, open with correct lookups and fail when listed (``when="list"``).
"""
from __future__ import annotations

import copy
import gzip
import json
import struct
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from authorag.priors.store.mapped import MAGIC, write_store
from hostile import Variant

KEYS = [f"site{i}.org" for i in range(50)]
VALUES = [i / 49 for i in range(50)]
_START = len(MAGIC) + 8


def base(raw: str = "u4") -> bytes:
    """A valid store of the 50 keys above (raw ranks as ``u4``, or PageRank-like ``f8``)."""
    with tempfile.TemporaryDirectory() as d:
        if raw == "f8":
            path = write_store(Path(d) / "b.store", KEYS, VALUES, raw=np.linspace(0.001, 0.05, 50), raw_dtype="f8")
        else:
            path = write_store(Path(d) / "b.store", KEYS, VALUES, raw=list(range(1, 51)), name="t")
        return path.read_bytes()


def header_of(data: bytes) -> dict[str, Any]:
    n = int.from_bytes(data[len(MAGIC):_START], "little")
    return json.loads(data[_START:_START + n])


def with_blob(data: bytes, blob: bytes, length: int | None = None) -> bytes:
    """``data`` with its header JSON replaced by ``blob`` (sections stay where they were)."""
    first = min(v[0] for v in header_of(data)["sections"].values())
    assert _START + len(blob) <= first, "the new header must fit before the first section"
    head = MAGIC + (len(blob) if length is None else length).to_bytes(8, "little") + blob
    return head + b"\0" * (first - len(head)) + data[first:]


def edit(data: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    header = copy.deepcopy(header_of(data))
    change(header)
    return with_blob(data, json.dumps(header).encode())


def _set(*path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(h: dict[str, Any]) -> None:
        node = h
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _drop(*path: str) -> Callable[[dict[str, Any]], None]:
    def change(h: dict[str, Any]) -> None:
        node = h
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


def section(data: bytes, name: str) -> tuple[int, int]:
    offset, length, _ = header_of(data)["sections"][name]
    return offset, length


def patch(data: bytes, at: int, new: bytes) -> bytes:
    return data[:at] + new + data[at + len(new):]


def _array_edit(data: bytes, name: str, dtype: str, change: Callable[[np.ndarray[Any, Any]], None]) -> bytes:
    offset, length = section(data, name)
    arr = np.frombuffer(data[offset:offset + length], dtype=dtype).copy()
    change(arr)
    return patch(data, offset, arr.tobytes())


def _value(v: float) -> Callable[[np.ndarray[Any, Any]], None]:
    def change(a: np.ndarray[Any, Any]) -> None:
        a[17] = v
    return change


def _truncations(good: bytes) -> list[Variant]:
    cuts = {"empty": 0, "1-byte": 1, "half-magic": 8, "magic-only": 16, "in-length": 20, "no-header": _START,
            "mid-header": _START + 100, "header-end": _START + len(json.dumps(header_of(good))) - 1}
    for name in ("dir", "fp", "value", "raw", "keys"):
        offset, length = section(good, name)
        cuts[f"at-{name}"] = offset
        cuts[f"mid-{name}"] = offset + length // 2
    offset, length = section(good, "keys")
    cuts["last-key-byte"] = offset + length - 1  # the end of the file is padding
    expect = {"empty": "bad magic", "1-byte": "bad magic", "half-magic": "bad magic", "magic-only": "truncated",
              "in-length": "truncated", "no-header": "exceeds the file", "mid-header": "exceeds the file",
              "header-end": "exceeds the file"}
    return [Variant(f"cut-{name}", good[:at], expect.get(name, "lies outside the file|truncated"), ".store")
            for name, at in cuts.items()]


def _magic(good: bytes) -> list[Variant]:
    out = [
        Variant("magic-first-byte", b"B" + good[1:], "bad magic"),
        Variant("magic-zeros", b"\0" * 16 + good[16:], "bad magic"),
        Variant("magic-lowercase", good[:16].lower() + good[16:], "bad magic"),
        Variant("magic-version-0", good[:14] + b"\0\0" + good[16:], "format version 0"),
        Variant("magic-version-2", good[:14] + b"\0\2" + good[16:], "format version 2"),
        Variant("magic-version-ffff", good[:14] + b"\xff\xff" + good[16:], "format version 65535"),
        Variant("gzip-named-store", gzip.compress(b"domain,pagerank,score,in_degree\n"), "bad magic"),
        Variant("zip-named-store", b"PK\x03\x04" + b"\0" * 100, "bad magic"),
        Variant("text-named-store", b"1,google.com\n2,nih.gov\n", "bad magic"),
    ]
    return [Variant(v.name, v.data, v.expect, ".store") for v in out]


def _lengths(good: bytes) -> list[Variant]:
    blob_len = len(json.dumps(header_of(good)))
    cases = {"len-zero": 0, "len-one": 1, "len-short": blob_len - 5, "len-2^63": 2**63, "len-max": 2**64 - 1,
             "len-file+1": len(good) + 1, "len-17MiB": 17 << 20, "len-into-sections": len(good) - _START - 10}
    expect = {"len-zero": "not valid JSON", "len-one": "not valid JSON", "len-short": "not valid JSON",
              "len-into-sections": "not valid JSON"}
    return [Variant(name, good[:len(MAGIC)] + struct.pack("<Q", n) + good[_START:],
                    expect.get(name, "exceeds the file"), ".store") for name, n in cases.items()]


def _json_blobs(good: bytes) -> list[Variant]:
    blobs = {
        "json-garbage": b"{not json", "json-list": b"[1, 2, 3]", "json-number": b"42", "json-null": b"null",
        "json-string": b'"header"', "json-latin1": '{"name": "caf\xe9"}'.encode("latin-1"),
        "json-deep-list": b"[" * 50_000 + b"]" * 50_000, "json-deep-object": b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
        "json-nan": json.dumps(header_of(good)).replace('"confidence": 0.7', '"confidence": NaN').encode(),
        "json-infinity": json.dumps(header_of(good)).replace('"confidence": 0.7', '"confidence": Infinity').encode(),
        "json-trailing": json.dumps(header_of(good)).encode() + b" trailing",
    }
    expect = {"json-list": "not a JSON object", "json-number": "not a JSON object", "json-null": "not a JSON object",
              "json-string": "not a JSON object"}
    out: list[Variant] = []
    for name, blob in blobs.items():
        data = (with_blob(good, blob) if _START + len(blob) <= section(good, "dir")[0]
                else MAGIC + len(blob).to_bytes(8, "little") + blob)  # a big header: the file is just that
        out.append(Variant(name, data, expect.get(name, "not valid JSON"), ".store"))
    return out


_FIELDS: list[tuple[str, tuple[str, ...], Any, str]] = [
    ("format-missing", ("format",), None, "'format' is missing"),
    ("format-2", ("format",), 2, r"'format' must be in \[1, 1\]"),
    ("format-string", ("format",), "1", "'format' has the wrong type"),
    ("format-true", ("format",), True, "'format' has the wrong type"),
    ("name-missing", ("name",), None, "'name' is missing"),
    ("name-empty", ("name",), "", "'name' is empty"),
    ("name-number", ("name",), 5, "'name' has the wrong type"),
    ("axis-other", ("axis",), "popularity", "'axis' must be"),
    ("axis-list", ("axis",), ["authority"], "'axis' has the wrong type"),
    ("confidence-negative", ("confidence",), -0.1, r"'confidence' must be in \[0, 1\]"),
    ("confidence-1.5", ("confidence",), 1.5, r"'confidence' must be in \[0, 1\]"),
    ("confidence-1e30", ("confidence",), 1e30, r"'confidence' must be in \[0, 1\]"),
    ("confidence-string", ("confidence",), "0.5", "'confidence' has the wrong type"),
    ("confidence-bool", ("confidence",), True, "'confidence' has the wrong type"),
    ("entries-missing", ("entries",), None, "'entries' is missing"),
    ("entries-negative", ("entries",), -1, r"'entries' must be in \[0,"),
    ("entries-2^64", ("entries",), 2**64, r"'entries' must be in \[0,"),
    ("entries-float", ("entries",), 50.0, "'entries' has the wrong type"),
    ("entries-plus-one", ("entries",), 51, "section 'fp' holds 400 bytes, 408 expected"),
    ("entries-minus-one", ("entries",), 49, "section 'fp' holds 400 bytes, 392 expected"),
    ("entries-zero", ("entries",), 0, "section 'fp' holds 400 bytes, 0 expected"),
    ("bits-zero", ("bucket_bits",), 0, r"'bucket_bits' must be in \[1, 32\]"),
    ("bits-negative", ("bucket_bits",), -3, r"'bucket_bits' must be in \[1, 32\]"),
    ("bits-64", ("bucket_bits",), 64, r"'bucket_bits' must be in \[1, 32\]"),
    ("bits-1000", ("bucket_bits",), 1000, r"'bucket_bits' must be in \[1, 32\]"),
    ("bits-plus-one", ("bucket_bits",), 5, "section 'dir' holds 68 bytes, 132 expected"),
    ("bits-minus-one", ("bucket_bits",), 3, "section 'dir' holds 68 bytes, 36 expected"),
    ("salt-not-hex", ("salt",), "zz", "'salt' is not a hash salt"),
    ("salt-too-long", ("salt",), "00" * 17, "'salt' is not a hash salt"),
    ("salt-number", ("salt",), 0, "'salt' has the wrong type"),
    ("salt-other", ("salt",), "01" + "00" * 15, "does not match its fingerprint"),
    ("transform-number", ("transform",), 3, "'transform' has the wrong type"),
    ("provenance-list", ("provenance",), [], "'provenance' must be an object"),
    ("provenance-files-string", ("provenance", "files"), "top-1m.csv", "'provenance.files' must be a list"),
    ("provenance-files-numbers", ("provenance", "files"), [1, 2], "'provenance.files' must be a list"),
    ("sections-missing", ("sections",), None, "'sections' is missing"),
    ("sections-list", ("sections",), [], "'sections' has the wrong type"),
    ("section-unknown", ("sections", "extra"), [0, 0, "u4"], r"unknown section\(s\) \['extra'\]"),
    ("section-dir-missing", ("sections", "dir"), None, "section 'dir' is missing"),
    ("section-fp-missing", ("sections", "fp"), None, "section 'fp' is missing"),
    ("section-value-missing", ("sections", "value"), None, "section 'value' is missing"),
    ("section-keys-missing", ("sections", "keys"), None, "section 'keys' is missing"),
    ("section-short-entry", ("sections", "fp"), [4288, 400], r"section 'fp' must be \[offset, length, dtype\]"),
    ("section-string-offset", ("sections", "fp"), ["4288", 400, "u8"], r"must be \[offset, length, dtype\]"),
    ("section-float-length", ("sections", "fp"), [4288, 400.0, "u8"], r"must be \[offset, length, dtype\]"),
    ("section-bool-offset", ("sections", "fp"), [True, 400, "u8"], r"must be \[offset, length, dtype\]"),
    ("section-object", ("sections", "fp"), {"offset": 4288}, r"must be \[offset, length, dtype\]"),
    ("overlap-value-on-fp", ("sections", "value"), [4288, 200, "f4"], "overlap"),
]

_SLOTS: list[tuple[str, str, int, Any, str]] = [  # one element of a section's [offset, length, dtype]
    ("dtype-value-f8", "value", 2, "f8", "section 'value' has dtype 'f8', expected f4"),
    ("dtype-fp-u4", "fp", 2, "u4", "section 'fp' has dtype 'u4', expected u8"),
    ("dtype-raw-i8", "raw", 2, "i8", "section 'raw' has dtype 'i8'"),
    ("offset-negative", "fp", 0, -64, "lies outside the file"),
    ("offset-in-header", "fp", 0, 0, "lies outside the file"),
    ("offset-beyond-file", "fp", 0, 10**12, "lies outside the file"),
    ("offset-2^70", "keys", 0, 2**70, "lies outside the file"),
    ("length-negative", "keys", 1, -1, "lies outside the file"),
    ("length-beyond-file", "keys", 1, 10**9, "lies outside the file"),
    ("keys-too-short", "keys", 1, 20, "too few for 50 keys"),
]


def _slot(name: str, slot: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(h: dict[str, Any]) -> None:
        h["sections"][name][slot] = value
    return change


def _fields(good: bytes) -> list[Variant]:
    out = [Variant(f"field-{name}", edit(good, _drop(*path) if value is None else _set(*path, value=value)), expect,
                   ".store") for name, path, value, expect in _FIELDS]
    return out + [Variant(f"section-{name}", edit(good, _slot(sec, slot, value)), expect, ".store")
                  for name, sec, slot, value, expect in _SLOTS]


def _arrays(good: bytes, pagerank: bytes) -> list[Variant]:
    n = len(KEYS)
    keys_at, keys_len = section(good, "keys")
    first_key = good[keys_at:good.index(b"\n", keys_at)]
    out = [Variant(f"value-{label}", _array_edit(good, "value", "<f4", _value(v)),
                   r"value of entry 17 is .*; values must be finite numbers in \[0, 1\]")
           for label, v in (("nan", float("nan")), ("inf", float("inf")), ("-inf", float("-inf")),
                            ("1e30", 1e30), ("negative", -0.5), ("above-one", 1.0001), ("3.4e38", 3.4e38))]
    out += [Variant(f"raw-{label}", _array_edit(pagerank, "raw", "<f8", _value(v)),
                    "raw of entry 17 is .*; raws must be finite numbers")
            for label, v in (("nan", float("nan")), ("inf", float("inf")), ("-inf", float("-inf")))]

    def dir_last(a: np.ndarray[Any, Any]) -> None:
        a[-1] = n + 5

    def dir_first(a: np.ndarray[Any, Any]) -> None:
        a[0] = 1

    def dir_dip(a: np.ndarray[Any, Any]) -> None:
        a[5] = a[4] - 1 if a[4] else 40

    def fp_swap(a: np.ndarray[Any, Any]) -> None:
        a[10], a[11] = a[11], a[10]

    def fp_same(a: np.ndarray[Any, Any]) -> None:
        a[21] = a[20]

    out += [
        Variant("dir-end-beyond-entries", _array_edit(good, "dir", "<u4", dir_last), "section 'dir' runs from 0 to 55"),
        Variant("dir-start-not-zero", _array_edit(good, "dir", "<u4", dir_first), "section 'dir' runs from 1 to 50"),
        Variant("dir-not-monotone", _array_edit(good, "dir", "<u4", dir_dip), "'dir' is not non-decreasing"),
        Variant("fp-swapped", _array_edit(good, "fp", "<u8", fp_swap), "'fp' is not increasing at entry 11"),
        Variant("fp-duplicate", _array_edit(good, "fp", "<u8", fp_same), "'fp' is not increasing at entry 21"),
        Variant("fp-zeroed", patch(good, section(good, "fp")[0], b"\0" * 400), "'fp' is not increasing"),
        Variant("first-key-changed", patch(good, keys_at, b"X"), "the first key .* does not match its fingerprint"),
        Variant("last-key-changed", patch(good, keys_at + keys_len - 1, b"X"), "the last key .* does not match"),
        Variant("keys-shifted", patch(good, keys_at, first_key[1:] + b"\n" + b"s"),
                "the first key .* does not match"),
        # damage only a listing reads: the checksum refuses it at the first open
        Variant("keys-not-utf8", patch(good, keys_at + 40, b"\xff\xfe"), "its checksum does not match its contents"),
        Variant("keys-joined", patch(good, good.index(b"\n", keys_at + 30), b"-"),
                "its checksum does not match its contents"),
        Variant("value-bit-flip", patch(good, section(good, "value")[0] + 4 * 17 + 2, b"\x7f"),
                "its checksum does not match its contents"),
    ]
    return [Variant(v.name, v.data, v.expect, ".store", v.when) for v in out]


def store_variants() -> list[Variant]:
    """Every crafted store (the test asserts there are at least 85)."""
    good, pagerank = base(), base("f8")
    return _truncations(good) + _magic(good) + _lengths(good) + _json_blobs(good) + _fields(good) + \
        _arrays(good, pagerank)
