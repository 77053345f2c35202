"""A prior store's checksum, and the memory of which store files were verified whole.

A store's header holds ``checksum``: a BLAKE2b digest of the header itself (without that field)
and every byte after it, written by :func:`seal` when the store is written. Verifying the whole
file (the checksum and :func:`~authorag.priors.store.check.check_arrays`) reads all of it, which
a process that looks up three domains should not pay on every start. So a file is verified
whole once per identity (path, device, inode, size, modification and change times, checksum)
and that is remembered in the cache directory (``verified-stores/``); a later open of the same
file checks its header and the buckets it reads. ``authorag priors store-info`` always verifies
the whole file. A file modified in the last couple of seconds is verified but not remembered: its
modification time may not yet tell a later write apart.

Example:
    >>> import tempfile, os
    >>> from authorag.priors.store.mapped import PriorStore, write_store
    >>> path = write_store(os.path.join(tempfile.mkdtemp(), "s.store"), ["nih.gov"], [0.9])
    >>> PriorStore(path).verify()["checksum"] == PriorStore(path).header["checksum"]
    True
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from authorag.priors.store.check import bad_store

log = logging.getLogger(__name__)

CHECKSUM_FIELD = "checksum"
"""The header field with the store's digest (hex)."""
PLACEHOLDER = "0" * 32
"""The checksum written first, then replaced by the digest (same length: the header does not move)."""
SETTLED_S = 2.0
"""A file modified more recently than this is not remembered as verified."""
_BLOCK = 1 << 20


def digest(f: BinaryIO, header: Mapping[str, Any], data_start: int) -> str:
    """The checksum of a store: its header without :data:`CHECKSUM_FIELD`, then the bytes from
    ``data_start`` to the end, read in blocks (with ``read``: the file is not mapped, so the
    process's memory does not grow with it)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(json.dumps({k: v for k, v in header.items() if k != CHECKSUM_FIELD}, sort_keys=True).encode("utf-8"))
    f.seek(data_start)
    while block := f.read(_BLOCK):
        h.update(block)
    return h.hexdigest()


def seal(path: Path, header: Mapping[str, Any], blob: bytes, blob_at: int) -> None:
    """Replace the placeholder checksum in the header ``blob`` written at ``blob_at`` of ``path``
    by the file's digest."""
    with path.open("r+b") as f:
        value = digest(f, header, blob_at + len(blob))
        f.seek(blob_at)
        old, new = f'"{CHECKSUM_FIELD}": "{PLACEHOLDER}"', f'"{CHECKSUM_FIELD}": "{value}"'
        f.write(blob.replace(old.encode(), new.encode(), 1))


def check_checksum(path: Path, header: Mapping[str, Any], data_start: int) -> None:
    """Raise PriorUnavailable when the file's digest is not the one in its header."""
    want = header.get(CHECKSUM_FIELD)
    if want is None:
        return
    if not isinstance(want, str) or len(want) != len(PLACEHOLDER):
        raise bad_store(path, f"header field {CHECKSUM_FIELD!r} is not a checksum")
    with path.open("rb") as f:
        got = digest(f, header, data_start)
    if got != want:
        raise bad_store(path, f"its checksum does not match its contents (stored {want[:12]}..., computed "
                              f"{got[:12]}...): the file was changed or damaged after it was written")


def _marker(path: Path, header: Mapping[str, Any]) -> tuple[Path, float] | None:
    """The file that says this identity was verified, and the file's modification time."""
    from authorag.settings import cache_dir

    try:
        st = path.stat()
        identity = "\0".join(str(x) for x in (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size,
                                             st.st_mtime_ns, st.st_ctime_ns, header.get(CHECKSUM_FIELD)))
    except OSError:
        return None
    name = hashlib.blake2b(identity.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    return cache_dir() / "verified-stores" / name, st.st_mtime


def was_verified(path: Path, header: Mapping[str, Any]) -> bool:
    """True when this file, unchanged, was verified whole before."""
    marker = _marker(path, header)
    return marker is not None and marker[0].exists()


def remember_verified(path: Path, header: Mapping[str, Any]) -> None:
    """Remember that this file was verified whole (nothing when it changed too recently, or when
    the cache directory cannot be written: it is then verified again on its next open)."""
    marker = _marker(path, header)
    if marker is None or time.time() - marker[1] < SETTLED_S:
        return
    try:
        marker[0].parent.mkdir(parents=True, exist_ok=True)
        marker[0].touch()
    except OSError as exc:
        log.debug("cannot remember the verified store %s (%s)", path, exc)


__all__ = ["CHECKSUM_FIELD", "PLACEHOLDER", "SETTLED_S", "check_checksum", "digest", "remember_verified", "seal",
           "was_verified"]
