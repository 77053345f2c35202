"""A prior store carries a checksum and is verified whole once per file identity.

Before: one flipped bit changed nih.gov's stored value (0.90 -> 0.65) or dropped it and
``store-info`` exited 0; and every open scanned every array (+258 MB RSS for ``authorag score``
of three domains with a 10 M-domain store).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from authorag.cli import main
from authorag.errors import PriorUnavailable
from authorag.priors.store.mapped import PriorStore, _open, fingerprint, write_store
from authorag.priors.store.verify import CHECKSUM_FIELD, remember_verified, was_verified

KEYS = ["nih.gov", "cdc.gov", "example.com"] + [f"site{i}.org" for i in range(40)]
VALUES = [0.9, 0.8, 0.3] + [0.5] * 40


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTHORAG_CACHE_DIR", str(tmp_path / "cache"))


def _store(tmp_path: Path) -> Path:
    return write_store(tmp_path / "s.store", KEYS, VALUES, raw=list(range(1, len(KEYS) + 1)), name="s")


def _value_at(path: Path, key: str) -> int:
    """The file offset of ``key``'s float32 value."""
    store = PriorStore(path)
    fp, _, _ = store.arrays()
    i = int(np.flatnonzero(fp == fingerprint(key, bytes.fromhex(store.header["salt"])))[0])
    return int(store.header["sections"]["value"][0]) + 4 * i


def _settle(path: Path) -> None:
    """Make the file look written a minute ago (a fresh file is verified but not remembered)."""
    then = time.time() - 60
    os.utime(path, (then, then))


def _flip(path: Path, at: int, new: bytes) -> None:
    with path.open("r+b") as f:
        f.seek(at)
        f.write(new)


def test_a_flipped_value_bit_is_refused_at_open_and_by_store_info(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = _store(tmp_path)
    at = _value_at(path, "nih.gov")
    assert PriorStore(path)["nih.gov"].value == pytest.approx(0.9)
    _flip(path, at + 2, bytes([path.read_bytes()[at + 2] ^ 0x20]))  # 0.90 -> 0.65: still a valid value
    with pytest.raises(PriorUnavailable, match=r"s.store': its checksum does not match its contents"):
        PriorStore(path)
    assert main(["priors", "store-info", str(path)]) == 1
    assert "its checksum does not match its contents" in capsys.readouterr().err


def test_a_verified_file_is_remembered_and_a_changed_one_is_verified_again(tmp_path: Path) -> None:
    path = _store(tmp_path)
    header = PriorStore(path).header
    assert not was_verified(path, header)  # written just now: not remembered yet
    _settle(path)
    PriorStore(path)
    assert was_verified(path, header)
    _flip(path, _value_at(path, "nih.gov") + 2, b"\x26")  # in place: the identity changes with the file
    assert not was_verified(path, header)
    with pytest.raises(PriorUnavailable, match="its checksum does not match"):
        PriorStore(path)


def test_a_lookup_checks_the_bucket_it_reads(tmp_path: Path) -> None:
    """A remembered file is not scanned again; the entry a lookup reads is still checked."""
    path = _store(tmp_path)
    _flip(path, _value_at(path, "nih.gov"), np.float32("nan").tobytes())
    _settle(path)
    mm, header, _ = _open(path)  # the header only
    mm.close()
    remember_verified(path, header)  # as if this identity had been verified before the damage
    store = PriorStore(path)
    assert store["cdc.gov"].value == pytest.approx(0.8)
    with pytest.raises(PriorUnavailable, match=r"value of entry \d+ is nan; values must be finite numbers in \[0, 1\]"):
        store.get("nih.gov")


def test_store_info_verifies_and_shows_the_checksum(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = _store(tmp_path)
    assert main(["priors", "store-info", str(path)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["checksum"] == PriorStore(path).header[CHECKSUM_FIELD] and len(shown["checksum"]) == 32


def test_get_many_checks_the_entries_it_reads(tmp_path: Path) -> None:
    path = _store(tmp_path)
    _flip(path, _value_at(path, "nih.gov"), np.float32("inf").tobytes())
    _settle(path)
    mm, header, _ = _open(path)
    mm.close()
    remember_verified(path, header)
    store = PriorStore(path)
    assert store.get_many(["cdc.gov", "missing.org"])[0][0] == pytest.approx(0.8)
    with pytest.raises(PriorUnavailable, match=r"value of entry \d+ is inf"):
        store.get_many(["cdc.gov", "nih.gov"])


def test_a_store_without_a_checksum_still_opens_and_store_info_says_to_rebuild(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A store written before checksums: its arrays are checked; store-info warns."""
    from hostile.stores import edit

    old = tmp_path / "old.store"
    old.write_bytes(edit(_store(tmp_path).read_bytes(), lambda h: h.pop(CHECKSUM_FIELD)))
    assert PriorStore(old)["nih.gov"].value == pytest.approx(0.9)
    assert main(["priors", "store-info", str(old)]) == 0
    assert "has no checksum (written by an older authorag); rebuild it" in capsys.readouterr().err
