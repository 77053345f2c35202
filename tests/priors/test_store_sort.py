"""The external-sort store writer and bounded-memory ``priors import``: the same bytes as the
in-memory build (duplicates, ties, several files and chunks, empty input), a clear --memory error."""
from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from authorag.cli import main
from authorag.errors import ConfigError
from authorag.priors.store.import_job import import_lists
from authorag.priors.store.mapped import MAGIC, PriorStore, write_store
from authorag.priors.store.sort import write_store_sorted


def _header(data: bytes) -> dict[str, Any]:
    size = int.from_bytes(data[len(MAGIC):len(MAGIC) + 8], "little")
    return json.loads(data[len(MAGIC) + 8:len(MAGIC) + 8 + size])


def _same_bytes_but_import_time(a: Path, b: Path) -> None:
    """Equal files once b's import timestamp and the checksum that covers it (same lengths, in the
    header) are a's: the two imports may fall in different seconds. Each file's own checksum holds."""
    da, db = a.read_bytes(), b.read_bytes()
    ta, tb = (_header(d)["provenance"]["imported"] for d in (da, db))
    ca, cb = (_header(d)["checksum"] for d in (da, db))
    assert len(ta) == len(tb) and len(ca) == len(cb)
    assert da == db.replace(tb.encode(), ta.encode(), 1).replace(cb.encode(), ca.encode(), 1)
    assert ta != tb or ca == cb  # the same second: the same bytes, checksum included
    for path in (a, b):
        assert PriorStore(path).verify()["checksum"] == _header(path.read_bytes())["checksum"]


def _rows(n: int, seed: int) -> list[tuple[int, str]]:
    """Tranco-like rows with repeated domains (lower and equal ranks later in the file)."""
    rng = np.random.default_rng(seed)
    rows = [(i, f"site{int(rng.integers(0, n * 2 // 3))}.{['com', 'org', 'co.uk'][i % 3]}") for i in range(1, n + 1)]
    rows += [(rank, name) for rank, name in rows[:50]]  # exact duplicates: equal values, first wins
    return rows


@pytest.mark.parametrize("fmt", ["tranco", "openpagerank"])
def test_external_import_writes_the_bytes_of_the_in_memory_import(tmp_path: Path, fmt: str) -> None:
    files = []
    for i, seed in enumerate((0, 1)):  # two files: chunks end at file ends as well as every 777 rows
        rows = _rows(3000, seed)
        if fmt == "tranco":
            text = "".join(f"{r},{d}\n" for r, d in rows)
        else:
            text = '"Rank","Domain","Open Page Rank"\n' + "".join(f'"{r}","{d}","{(r * 7) % 1000 / 100:.2f}"\n'
                                                                  for r, d in rows)
        path = tmp_path / f"list{i}.csv.gz"
        path.write_bytes(gzip.compress(text.encode()))
        files.append(path)
    in_memory = import_lists(fmt, files, tmp_path / "mem.store", memory=None)
    external = import_lists(fmt, files, tmp_path / "ext.store", chunk_rows=777, memory=1 << 20)
    assert external.entries == in_memory.entries and 3000 < in_memory.entries < 6100
    _same_bytes_but_import_time(in_memory.out, external.out)
    assert not list(tmp_path.glob("*.sort-*")) and not list(tmp_path.glob("*.parts"))


def _chunked(keys: list[str], vals: np.ndarray[Any, Any], raw: np.ndarray[Any, Any], size: int) -> Any:
    def chunks() -> Iterator[tuple[list[str], Any, Any]]:
        for lo in range(0, len(keys), size):
            yield keys[lo:lo + size], vals[lo:lo + size], raw[lo:lo + size]
    return chunks


@pytest.mark.parametrize(("n", "chunk", "batch"), [(0, 5, 5), (1, 5, 5), (500, 7, 5), (500, 64, 100), (500, 500, 10_000)])
def test_write_store_sorted_equals_write_store(tmp_path: Path, n: int, chunk: int, batch: int) -> None:
    rng = np.random.default_rng(n)
    keys = [f"k{int(i)}.org" for i in rng.integers(0, max(1, n // 2), n)]  # many repeats
    vals = rng.integers(0, 4, n) / 4  # many ties: input order decides, as in write_store
    raw = rng.integers(1, 10**6, n)
    kw: dict[str, Any] = {"name": "demo", "confidence": 0.6, "transform": "t", "provenance": {"rows": n}}
    ref = write_store(tmp_path / "ref.store", keys, vals, raw=raw, raw_dtype="u4", **kw)
    out = write_store_sorted(tmp_path / "ext.store", _chunked(keys, vals, raw, chunk), raw_dtype="u4",
                             batch_rows=batch, **kw)
    assert out.read_bytes() == ref.read_bytes()
    store = PriorStore(out)
    assert len(store) == len(set(keys))
    if n:
        best = max(range(n), key=lambda i: (vals[i], -i) if keys[i] == keys[0] else (-1.0, 0))
        assert store[keys[0]].raw == raw[best]


def test_write_store_sorted_checks_rows_like_write_store(tmp_path: Path) -> None:
    bad = _chunked(["a.org", "b\norg"], np.array([0.5, 0.5]), np.array([1, 2]), 2)
    with pytest.raises(ConfigError, match=r"store keys must be non-empty and contain no newline, got 'b\\norg'"):
        write_store_sorted(tmp_path / "x.store", bad)
    over = _chunked(["a.org"], np.array([1.5]), np.array([1]), 1)
    with pytest.raises(ConfigError, match=r"store values must be in \[0, 1\]"):
        write_store_sorted(tmp_path / "x.store", over)
    assert not (tmp_path / "x.store").exists() and not list(tmp_path.glob("*.sort-*"))


def test_cli_memory_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "top-1m.csv"
    src.write_text("".join(f"{i},site{i}.com\n" for i in range(1, 5001)))
    assert main(["priors", "import", "--format", "tranco", str(src), "--out", str(tmp_path / "t.store"),
                 "--memory", "1M", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == 5000
    assert PriorStore(tmp_path / "t.store")["site4999.com"].raw == 4999
    assert main(["priors", "import", "--format", "tranco", str(src), "--out", str(tmp_path / "u.store"),
                 "--memory", "2 gigs"]) != 0
    assert "--memory must be a size like 512M or 4G (or 'none'), got '2 gigs'" in capsys.readouterr().err
    with pytest.raises(ConfigError, match=r"memory must be at least 1 MiB, got 1000 bytes"):
        import_lists("tranco", [src], tmp_path / "v.store", memory=1000)
