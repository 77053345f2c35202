"""``authorag priors import``: rank-list files → one prior store, resumable, with provenance.

Rows are read in chunks; each finished chunk is saved under ``<out>.parts/`` with a manifest
recording where it ended. A rerun with the same inputs and options continues after the last
saved chunk (the skipped lines are read but not parsed), so an interrupted import of a 100 M
row file does not start over. The parts folder is removed once the store is written.

Memory is bounded by ``memory`` (``--memory``): an import whose rows fit (about
:data:`IN_MEMORY_ROW_BYTES` per row) sorts them at once with :func:`write_store`; a bigger one
reads smaller chunks and writes the store by an external sort
(:func:`~authorag.priors.store.sort.write_store_sorted`). Both write the same bytes.

Example:
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> src = os.path.join(d, "top-1m.csv")
    >>> _ = open(src, "w").write("1,google.com\\n2,nih.gov\\n")
    >>> result = import_lists("tranco", [src], os.path.join(d, "tranco.store"))
    >>> result.entries, result.bad_rows
    (2, 0)
"""
from __future__ import annotations

import csv
import datetime as dt
import functools
import gzip
import hashlib
import io
import itertools
import json
import logging
import os
import re
import shutil
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast

import numpy as np

from authorag.errors import ConfigError
from authorag.priors.store.importers import (
    BadRow,
    RowPlan,
    bucket_from_name,
    import_format,
    is_header,
    resolve_plan,
)
from authorag.priors.store.mapped import PriorStore, write_store
from authorag.priors.store.sort import write_store_sorted

log = logging.getLogger(__name__)

DEFAULT_CHUNK_ROWS = 1_000_000
DEFAULT_MEMORY = 2 << 30
IN_MEMORY_ROW_BYTES = 300
"""Peak bytes per row of the in-memory build (measured: ~280, docs/results/scale/store.json)."""
CHUNK_ROW_BYTES = 400
"""Peak bytes per row of reading one chunk and writing its sorted run."""
MERGE_ROW_BYTES = 300
"""Peak bytes per row of one merge batch."""
MAX_LINE_CHARS = 1 << 16
"""Longest input line read (rank-list rows are under 300 characters)."""
_BATCH = 20_000
_DATE_IN_NAME = re.compile(r"(20\d\d)-?([01]\d)-?([0-3]\d)")
Progress = Callable[[int], None]


@dataclass
class ImportResult:
    """What an import did: the store written, counts, and the provenance kept in its header."""

    out: Path
    entries: int
    rows: int
    bad_rows: int
    resumed_rows: int
    provenance: dict[str, Any] = field(default_factory=dict[str, Any])


class _HashingReader(io.RawIOBase):
    """Reads a file while hashing its bytes (SHA-256) and reporting how many were read."""

    def __init__(self, raw: IO[bytes], progress: Progress | None) -> None:
        self._raw = raw
        self.sha256 = hashlib.sha256()
        self.done = 0
        self._progress = progress

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.sha256.update(data)
        self.done += n
        if self._progress is not None:
            self._progress(self.done)
        return n


def _open_lines(path: Path, progress: Progress | None) -> tuple[_HashingReader, IO[str]]:
    raw = path.open("rb")
    hashing = _HashingReader(raw, progress)
    buffered = io.BufferedReader(hashing, buffer_size=1 << 20)
    if buffered.peek(2)[:2] == b"\x1f\x8b":
        return hashing, io.TextIOWrapper(gzip.GzipFile(fileobj=buffered), encoding="utf-8", errors="replace", newline="")
    return hashing, io.TextIOWrapper(buffered, encoding="utf-8", errors="replace", newline="")


def _identity(paths: Sequence[Path], fmt: str, options: Mapping[str, Any]) -> dict[str, Any]:
    files = [{"path": str(p.resolve()), "bytes": p.stat().st_size, "mtime_ns": p.stat().st_mtime_ns} for p in paths]
    return {"format": fmt, "options": dict(options), "files": files}


def _read_manifest(path: Path) -> dict[str, Any] | None:
    """The manifest of an interrupted import, or None when it is not one (damaged, edited)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    chunks = data.get("chunks") if isinstance(data, dict) else None
    if not isinstance(chunks, list) or not all(isinstance(c, dict) and set(_CHUNK_FIELDS) <= set(c) for c in chunks):
        return None
    return cast(dict[str, Any], data)


_CHUNK_FIELDS = ("part", "file", "line", "rows", "bad")


class _Parts:
    """The ``<out>.parts`` folder: finished chunks and a manifest saying where each ended."""

    def __init__(self, out: Path, identity: dict[str, Any]) -> None:
        self.dir = out.with_name(out.name + ".parts")
        self.manifest_path = self.dir / "manifest.json"
        self.state: dict[str, Any] = {"identity": identity, "chunks": []}
        if self.manifest_path.exists():
            old = _read_manifest(self.manifest_path)
            if old is not None and old.get("identity") == identity:
                self.state = old
            else:
                log.warning("inputs or options changed since the interrupted import (or its manifest is "
                            "unreadable); starting over")
                shutil.rmtree(self.dir)

    def resume_point(self) -> tuple[int, int, int, int]:
        """(file index, lines done in that file, rows so far, bad rows so far)."""
        if not self.state["chunks"]:
            return 0, 0, 0, 0
        last = self.state["chunks"][-1]
        return last["file"], last["line"], last["rows"], last["bad"]

    def save(self, keys: list[str], raw: list[float], file: int, line: int, rows: int, bad: int) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        name = f"part-{len(self.state['chunks']):05d}.npz"
        blob = np.frombuffer("\n".join(keys).encode("utf-8"), dtype=np.uint8)
        with (self.dir / name).open("wb") as f:
            np.savez(f, keys=blob, raw=np.asarray(raw, dtype=np.float64))
        self.state["chunks"].append({"part": name, "file": file, "line": line, "rows": rows, "bad": bad})
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.state))
        os.replace(tmp, self.manifest_path)

    def iter_chunks(self) -> Iterator[tuple[list[str], np.ndarray[Any, Any]]]:
        """(keys, raw numbers) of each saved chunk, in input order."""
        for chunk in self.state["chunks"]:
            with np.load(self.dir / chunk["part"]) as data:
                text = data["keys"].tobytes().decode("utf-8")
                yield (text.split("\n") if text else []), data["raw"]

    def load(self) -> tuple[list[str], list[np.ndarray[Any, Any]]]:
        keys: list[str] = []
        raws: list[np.ndarray[Any, Any]] = []
        for chunk_keys, raw in self.iter_chunks():
            keys.extend(chunk_keys)
            raws.append(raw)
        return keys, raws

    def remove(self) -> None:
        if self.dir.exists():
            shutil.rmtree(self.dir)


@dataclass
class _Reader:
    fmt: str
    options: dict[str, Any]
    skip_bad: bool
    progress: Progress | None
    rows: int = 0
    bad: int = 0
    files: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])

    def batches_of(self, path: Path, skip_lines: int, size: int = _BATCH,
                   ) -> Iterator[tuple[int, list[str], list[float]]]:
        """(last line, keys, raws) per batch of rows after ``skip_lines``; counts bad rows."""
        hashing, text = _open_lines(path, self.progress)
        with text:
            plan, lines = self._plan(path, text)
            reader = csv.reader(lines, delimiter=plan.fmt.delimiter)
            done = sum(1 for _ in itertools.islice(reader, skip_lines))
            while rows := list(itertools.islice(reader, size)):
                first, done = done + 1, done + len(rows)
                index = None if all(rows) else [i for i, r in enumerate(rows) if r]  # blank lines
                keys, raws, bad = plan.parse_batch(rows if index is None else [rows[i] for i in index], 0)
                for i, exc in bad:
                    self._bad(path, first + (i if index is None else index[i]), exc)
                self.rows += len(keys)
                yield done, keys, raws
        self.files.append({"file": path.name, "sha256": hashing.sha256.hexdigest(), "bytes": hashing.done,
                           "date": _file_date(path, self.options.get("date"))})

    def _plan(self, path: Path, text: IO[str]) -> tuple[RowPlan, Iterator[str]]:
        """The row plan, and the file's lines from line 1 on (a header line as an empty line)."""
        fmt = import_format(self.fmt)
        opts = dict(self.options)
        if fmt.name == "cloudflare" and opts.get("bucket") is None:
            opts["bucket"] = bucket_from_name(path.name)
            if opts["bucket"] is None:
                raise ConfigError(f"{path.name}: no 'top-N' in the file name; give the bucket with --bucket N")
        lines = _bounded_lines(text, path)
        first = next(lines, "")
        row = next(csv.reader([first], delimiter=fmt.delimiter), [])
        if is_header(fmt, row):
            return resolve_plan(self.fmt, row, opts), itertools.chain(["\n"], lines)
        return resolve_plan(self.fmt, None, opts), itertools.chain([first], lines)

    def _bad(self, path: Path, line: int, exc: BadRow) -> None:
        self.bad += 1
        if not self.skip_bad:
            raise ConfigError(f"{path}:{line}: {exc}; fix the row or pass --skip-bad to skip such rows")
        if self.bad <= 5:
            log.warning("%s:%d: skipped (%s)", path, line, exc)


def _bounded_lines(text: IO[str], path: Path) -> Iterator[str]:
    """The lines of ``text``, none longer than :data:`MAX_LINE_CHARS` (a file without newlines,
    such as ``/dev/zero``, stops at its first line instead of filling memory)."""
    read = functools.partial(text.readline, MAX_LINE_CHARS)
    number = 0
    while True:
        try:
            line = read()
        except (OSError, EOFError, zlib.error) as exc:  # a damaged or truncated gzip stream
            raise ConfigError(f"{path}: cannot read past line {number} ({exc or type(exc).__name__}); "
                              "is the file damaged or truncated?") from exc
        if not line:
            return
        number += 1
        if len(line) >= MAX_LINE_CHARS and not line.endswith("\n"):
            raise ConfigError(f"{path}:{number}: a line longer than {MAX_LINE_CHARS:,} characters; a rank list "
                              "has one short row per line (is this the right file?)")
        yield line


def _file_date(path: Path, given: str | None) -> str:
    if given:
        return given
    m = _DATE_IN_NAME.search(path.name)
    if m:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    return dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC).date().isoformat()


def import_lists(fmt: str, files: Sequence[str | Path], out: str | Path, *, name: str | None = None,
                 options: Mapping[str, Any] | None = None, skip_bad: bool = False,
                 chunk_rows: int = DEFAULT_CHUNK_ROWS, progress: Progress | None = None,
                 memory: int | None = DEFAULT_MEMORY, extra_provenance: Mapping[str, Any] | None = None,
                 ) -> ImportResult:
    """Import rank-list files of one format into a prior store (resumable; see the module doc).

    Args:
        fmt: a name in :data:`authorag.priors.store.importers.FORMATS`.
        files: input files (plain or gzip); several files are merged, best value per key wins
            (e.g. all Cloudflare Radar buckets).
        out: the store file to write.
        name: source name in breakdowns (default: the format name, ``-`` as ``_``).
        options: ``measure`` (cc-webgraph), ``bucket`` (cloudflare), ``date`` (provenance).
        skip_bad: skip malformed rows (counted) instead of failing at the first one.
        chunk_rows: rows per saved chunk (the resume granularity; smaller when ``memory`` says so).
        progress: called with the bytes read so far of the current file.
        memory: the memory budget in bytes (None: no bound, always sort in memory).
        extra_provenance: more provenance to keep (``priors fetch`` adds the download's record).

    Raises:
        ConfigError: unknown format, missing file, bad header, or a bad row without ``skip_bad``.
    """
    spec = import_format(fmt)
    if memory is not None and memory < 1 << 20:
        raise ConfigError(f"memory must be at least 1 MiB, got {memory} bytes")
    if memory is not None:
        chunk_rows = max(1, min(chunk_rows, memory // CHUNK_ROW_BYTES))
    paths = [Path(f) for f in files]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise ConfigError(f"input file(s) not found: {', '.join(missing)}")
    special = [str(p) for p in paths if not p.is_file()]
    if special:
        raise ConfigError(f"input(s) {', '.join(special)} are not regular files (a folder or a device); "
                          "give the rank-list files themselves")
    opts = {k: v for k, v in dict(options or {}).items() if v is not None}
    out_path = Path(out)
    parts = _Parts(out_path, _identity(paths, fmt, opts))
    start_file, start_line, rows0, bad0 = parts.resume_point()
    reader = _Reader(fmt, opts, skip_bad, progress, rows0, bad0)
    for index, path in enumerate(paths):
        if index < start_file:  # finished before the interruption: read again only for its checksum
            _drain(reader.batches_of(path, 1 << 62))
            continue
        _read_file(reader, parts, index, path, start_line if index == start_file else 0, chunk_rows)
    if reader.rows == 0:
        parts.remove()
        raise ConfigError(_no_rows_message(fmt, paths, reader.bad))
    provenance: dict[str, Any] = {"format": fmt, "files": reader.files, "rows": reader.rows, "bad_rows": reader.bad,
                                  "options": opts, "imported": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                                  **dict(extra_provenance or {})}
    store_kw: dict[str, Any] = {"name": name or fmt.replace("-", "_"), "confidence": spec.confidence,
                                "transform": spec.transform_doc, "provenance": provenance}
    if memory is None or reader.rows * IN_MEMORY_ROW_BYTES <= memory:
        keys, raws = parts.load()
        raw = np.concatenate(raws) if raws else np.zeros(0)
        raw_out = raw.astype(np.uint32) if spec.raw_dtype == "u4" else raw
        write_store(out_path, keys, spec.transform(raw), raw=raw_out, raw_dtype=spec.raw_dtype, **store_kw)
    else:
        def chunks() -> Iterator[tuple[list[str], np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
            for keys, raw in parts.iter_chunks():
                yield keys, spec.transform(raw), raw

        write_store_sorted(out_path, chunks, raw_dtype=spec.raw_dtype, batch_rows=max(1, memory // MERGE_ROW_BYTES),
                           **store_kw)
    parts.remove()
    entries = len(PriorStore(out_path))
    return ImportResult(out_path, entries, reader.rows, reader.bad, rows0, provenance)


def _no_rows_message(fmt: str, paths: Sequence[Path], bad: int) -> str:
    files = ", ".join(str(p) for p in paths)
    skipped = f" ({bad} malformed rows skipped)" if bad else ""
    return (f"no {fmt} rows read from {files}{skipped}; no store was written. Is the file empty, an error page, "
            f"or another format than --format {fmt}?")


def _drain(rows: Iterator[Any]) -> None:
    for _ in rows:
        pass


def _read_file(reader: _Reader, parts: _Parts, index: int, path: Path, skip: int, chunk_rows: int) -> None:
    keys: list[str] = []
    raw: list[float] = []
    for line, batch_keys, batch_raw in reader.batches_of(path, skip, min(_BATCH, chunk_rows)):
        keys += batch_keys
        raw += batch_raw
        if len(keys) >= chunk_rows:
            parts.save(keys, raw, index, line, reader.rows, reader.bad)
            keys, raw = [], []
    parts.save(keys, raw, index + 1, 0, reader.rows, reader.bad)
