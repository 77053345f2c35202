"""Registrable-domain link graphs from hyperlink edge lists (TSV/CSV/Parquet) or HTML outlinks.

Every endpoint (a page URL or a bare host) is mapped to its registrable domain with
:func:`authorag.domains.parse_host`; links inside one domain (``a.example.com`` →
``b.example.com``) are self-links and dropped; repeated domain pairs become one edge whose
weight is the number of links (or the sum of a weight column, for pre-aggregated lists).
Unreadable rows are skipped and counted, never fatal.

Nothing here keeps a Python object per edge: endpoints go into ``array('i')`` buffers and
are aggregated with numpy, so a 10 M-row edge file needs about 100 MB beyond the host index.

Example:
    >>> g = graph_from_pairs([("https://a.example.com/x", "https://b.example.com/y"),
    ...                       ("https://en.wikipedia.org/wiki/X", "https://www.nih.gov/")])
    >>> g.domains, g.num_edges, g.self_links
    (('example.com', 'wikipedia.org', 'nih.gov'), 1, 1)
"""
from __future__ import annotations

import csv
import gzip
import io
import itertools
import logging
import re
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

import numpy as np
from numpy.typing import NDArray

from authorag._optional import require
from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.validation import check_choice

log = logging.getLogger(__name__)

EdgeFormat = Literal["auto", "tsv", "csv", "parquet"]
Progress = Callable[[int], None]
"""Progress callback: receives the amount of work done so far (bytes or files)."""

_SKIP = -1
_QUERY_OR_FRAGMENT = re.compile(r"[?#]")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:(?!\d)", re.IGNORECASE)
_REPORT_EVERY = 1 << 16


@dataclass(frozen=True, slots=True)
class DomainGraph:
    """A weighted directed graph between registrable domains.

    Attributes:
        domains: node names; node ``i`` is ``domains[i]``.
        src: source node of each unique edge (int32).
        dst: target node of each unique edge (int32).
        weight: number of links behind each edge, or the sum of their weights (float64).
        rows: input rows (links) read.
        self_links: rows dropped because both ends are in one domain.
        skipped: rows dropped because an end could not be read, by reason.
    """

    domains: tuple[str, ...]
    src: NDArray[np.int32]
    dst: NDArray[np.int32]
    weight: NDArray[np.float64]
    rows: int = 0
    self_links: int = 0
    skipped: dict[str, int] = field(default_factory=dict[str, int])

    @property
    def num_nodes(self) -> int:
        """Number of domains (including ones whose only links were self-links)."""
        return len(self.domains)

    @property
    def num_edges(self) -> int:
        """Number of distinct (source, target) domain pairs."""
        return int(self.src.shape[0])

    @property
    def num_skipped(self) -> int:
        """Total rows skipped as unreadable."""
        return sum(self.skipped.values())

    def summary(self) -> dict[str, object]:
        """JSON-ready counts (used by the CLI)."""
        return {"nodes": self.num_nodes, "edges": self.num_edges, "rows": self.rows,
                "links": float(self.weight.sum()), "self_links": self.self_links,
                "skipped": self.num_skipped, "skipped_by_reason": dict(self.skipped)}


def _authority(text: str) -> str:
    """The ``host[:port]`` part of a URL or bare host, by plain string splitting (no validation)."""
    parts = text.split("/", 3)  # "https://host/path" -> ["https:", "", "host", "path"]
    if len(parts) >= 3 and parts[1] == "" and (parts[0] == "" or parts[0].endswith(":")):
        authority = parts[2]
    else:
        authority = parts[0]
    if "?" in authority or "#" in authority:
        authority = _QUERY_OR_FRAGMENT.split(authority, maxsplit=1)[0]
    return authority


class DomainGraphBuilder:
    """Accumulates links between URLs/hosts and aggregates them into a :class:`DomainGraph`.

    Example:
        >>> b = DomainGraphBuilder()
        >>> b.add("en.wikipedia.org", "nih.gov")
        True
        >>> b.add("not a url", "nih.gov")
        False
        >>> b.build().skipped
        {'invalid': 1}
    """

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._domains: list[str] = []
        self._by_text: dict[str, int] = {}
        self._by_authority: dict[str, int | str] = {}
        self._src = array("i")
        self._dst = array("i")
        self._weight: array[float] | None = None
        self._skipped: Counter[str] = Counter()
        self._rows = 0

    def node(self, url: str) -> int | str:
        """Node id of ``url``'s registrable domain, or the reason it cannot be read."""
        hit = self._by_text.get(url)
        if hit is not None:
            return hit
        text = url.strip()
        if "://" not in text[:16] and _SCHEME.match(text):
            return "unsupported scheme"
        key = _authority(text)
        found = self._by_authority.get(key)
        if found is None:
            found = self._resolve(key)
            self._by_authority[key] = found
        if key == url and isinstance(found, int):
            self._by_text[url] = found
        return found

    def _resolve(self, authority: str) -> int | str:
        parsed = parse_host(authority, strict=False)
        if parsed.domain is None or (parsed.kind == "domain" and "." not in parsed.domain):
            return "invalid"  # unreadable, or a bare top-level domain ("com", "target")
        if parsed.kind == "localhost":
            return "localhost"
        node = self._ids.get(parsed.domain)
        if node is None:
            node = self._ids[parsed.domain] = len(self._domains)
            self._domains.append(parsed.domain)
        return node

    def add(self, src: str, dst: str, weight: float | None = None) -> bool:
        """Record one link (``weight`` links when given); returns False (and counts the reason)
        when an end is unreadable."""
        self._rows += 1
        a = self.node(src)
        b = self.node(dst)
        if isinstance(a, str):
            self._skipped[a] += 1
            return False
        if isinstance(b, str):
            self._skipped[b] += 1
            return False
        if weight is not None or self._weight is not None:
            if weight is None or not weight >= 0 or weight == float("inf"):
                self._skipped["bad weight"] += 1
                return False
            if self._weight is None:  # first weighted row: earlier rows weigh 1
                self._weight = array("d", [1.0]) * len(self._src)
            self._weight.append(weight)
        self._src.append(a)
        self._dst.append(b)
        return True

    def skip(self, reason: str) -> None:
        """Count a row that could not be read at all (wrong column count, bad JSON)."""
        self._rows += 1
        self._skipped[reason] += 1

    def build(self) -> DomainGraph:
        """Aggregate the recorded links: drop self-links, merge repeats into weights."""
        n = max(len(self._domains), 1)
        key = np.frombuffer(self._src, dtype=np.intc).astype(np.int64)
        dst = np.frombuffer(self._dst, dtype=np.intc)
        keep = key != dst
        self_links = int(keep.shape[0] - np.count_nonzero(keep))
        key *= n  # in place: one int64 array per link is the peak, not three
        key += dst
        weight = None if self._weight is None else np.frombuffer(self._weight, dtype=np.float64)[keep]
        pairs, counts = _sum_repeats(key[keep], weight)
        graph = DomainGraph(
            domains=tuple(self._domains),
            src=(pairs // n).astype(np.int32),
            dst=(pairs % n).astype(np.int32),
            weight=counts,
            rows=self._rows,
            self_links=self_links,
            skipped=dict(self._skipped),
        )
        if graph.num_skipped:
            log.info("skipped %d of %d rows: %s", graph.num_skipped, self._rows, dict(self._skipped))
        return graph


def _sum_repeats(key: NDArray[np.int64], weight: NDArray[np.float64] | None,
                 ) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Distinct keys (sorted) and, per key, the number of repeats or the sum of their weights."""
    if weight is None:
        key.sort()  # in place; np.unique(return_counts=True) would copy and argsort
    else:
        order = np.argsort(key, kind="stable")
        key, weight = key[order], weight[order]
    if key.shape[0] == 0:
        return key, np.zeros(0, dtype=np.float64)
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    if weight is None:
        counts = np.diff(np.append(starts, key.shape[0])).astype(np.float64)
    else:
        counts = np.add.reduceat(weight, starts)
    return key[starts], counts


def graph_from_pairs(pairs: Iterable[tuple[str, str]]) -> DomainGraph:
    """The domain graph of in-memory ``(source URL/host, target URL/host)`` links."""
    builder = DomainGraphBuilder()
    for src, dst in pairs:
        builder.add(src, dst)
    return builder.build()


def detect_format(path: str | Path) -> Literal["tsv", "csv", "parquet"]:
    """Edge-file format from the file name (``.tsv``/``.txt``, ``.csv``, ``.parquet``, optional ``.gz``)."""
    name = Path(path).name.lower().removesuffix(".gz")
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    if name.endswith(".csv"):
        return "csv"
    if name.endswith((".tsv", ".txt", ".edges")):
        return "tsv"
    raise ConfigError(f"cannot tell the format of edge file {str(path)!r} from its name; "
                      "pass format='tsv', 'csv' or 'parquet' (CLI: --format)")


def _column(spec: str | int, header: Sequence[str] | None, what: str) -> int:
    if isinstance(spec, int) or spec.isdigit():
        if header is not None and int(spec) >= len(header):
            raise ConfigError(f"{what} column index {spec} is out of range; the file has {len(header)} "
                              f"columns {list(header)}")
        return int(spec)
    if header is None or spec not in header:
        raise ConfigError(f"{what} column {spec!r} not found; the header has {list(header or [])}. "
                          "Pass a column name from the header or a 0-based index")
    return list(header).index(spec)


def _is_header(row: Sequence[str], cols: tuple[int, int]) -> bool:
    """True when the first row names columns instead of holding a readable link."""
    # Hosts and URLs contain a dot or a colon; column names ("source", "target") do not. Do not ask
    # parse_host: "target" is a real top-level domain.
    return not any("." in row[c] or ":" in row[c] for c in cols if c < len(row))


@dataclass(frozen=True, slots=True)
class _Columns:
    src: str | int
    dst: str | int
    weight: str | int | None = None

    @property
    def named(self) -> bool:
        """True when any column is given by name (the file then needs a header)."""
        return any(isinstance(c, str) and not c.isdigit() for c in (self.src, self.dst, self.weight))

    def indices(self, header: Sequence[str] | None) -> tuple[int, int, int | None]:
        return (_column(self.src, header, "source"), _column(self.dst, header, "target"),
                None if self.weight is None else _column(self.weight, header, "weight"))


def _number(text: object) -> float:
    """A weight cell as float; NaN (rejected by the builder) when it is not a number."""
    if isinstance(text, (int, float)):
        return float(text)
    try:
        return float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return float("nan")


def _open_text(path: Path) -> tuple[io.BufferedReader, io.TextIOWrapper]:
    raw = path.open("rb")
    stream: io.BufferedIOBase = gzip.GzipFile(fileobj=raw) if path.name.lower().endswith(".gz") else raw
    return raw, io.TextIOWrapper(stream, encoding="utf-8", errors="replace", newline="")


def _read_delimited(path: Path, delimiter: str, cols: _Columns, builder: DomainGraphBuilder,
                    progress: Progress | None) -> None:
    raw, text = _open_text(path)
    with raw, text:
        reader = csv.reader(text, delimiter=delimiter)
        first = next(reader, None)
        if first is None:
            return
        header = first if cols.named else None
        s, d, w = cols.indices(header)
        need = max(s, d, -1 if w is None else w)
        if header is None and not _is_header(first, (s, d)):
            reader = itertools.chain([first], reader)
        elif header is None:
            log.info("treating the first row %s of %s as a header", first, path)
        for i, row in enumerate(reader):
            if len(row) <= need:
                builder.skip("missing column")
            elif w is None:
                builder.add(row[s], row[d])
            else:
                builder.add(row[s], row[d], _number(row[w]))
            if progress is not None and i % _REPORT_EVERY == 0:
                progress(raw.tell())
        if progress is not None:
            progress(raw.tell())


def _read_parquet(path: Path, cols: _Columns, builder: DomainGraphBuilder,
                  progress: Progress | None) -> None:
    pq = require("pyarrow.parquet", extra="bench", feature="Reading Parquet edge files")
    pfile = pq.ParquetFile(str(path))
    names: list[str] = list(pfile.schema_arrow.names)
    picked = [names[i] for i in cols.indices(names) if i is not None]
    done = 0
    for batch in pfile.iter_batches(columns=picked, batch_size=1 << 16):
        columns = [batch.column(i).to_pylist() for i in range(len(picked))]
        weights = columns[2] if len(columns) == 3 else itertools.repeat(None)
        for a, b, wt in zip(columns[0], columns[1], weights):
            if not (isinstance(a, str) and isinstance(b, str)):
                builder.skip("missing value")
            else:
                builder.add(a, b, None if len(columns) == 2 else _number(wt))
        done += batch.num_rows
        if progress is not None:
            progress(done)


def read_edges(
    path: str | Path,
    *,
    format: EdgeFormat = "auto",  # the CLI flag is --format
    src_col: str | int = 0,
    dst_col: str | int = 1,
    weight_col: str | int | None = None,
    progress: Progress | None = None,
) -> DomainGraph:
    """Read a hyperlink edge list (page URL → page URL or host → host) into a domain graph.

    Args:
        path: TSV, CSV (optionally ``.gz``) or Parquet file, one link per row.
        format: ``auto`` picks from the file name.
        src_col, dst_col: column names (header required) or 0-based indices. With indices, a
            first row whose cells are not hosts (``src\\tdst``) is treated as a header.
        weight_col: optional column with a link count per row (for lists already aggregated
            elsewhere, e.g. ``src_domain, dst_domain, n_links``); rows with a missing, negative
            or non-numeric weight are skipped as ``bad weight``. Without it every row is one link.
        progress: called with bytes read (TSV/CSV) or rows read (Parquet).

    Raises:
        ConfigError: unknown format or column. MissingDependencyError: Parquet without pyarrow.

    Example:
        >>> g = read_edges("links.tsv")  # doctest: +SKIP
    """
    check_choice("format", format, get_args(EdgeFormat))
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"edge file {str(p)!r} does not exist")
    fmt = detect_format(p) if format == "auto" else format
    builder = DomainGraphBuilder()
    cols = _Columns(src_col, dst_col, weight_col)
    if fmt == "parquet":
        _read_parquet(p, cols, builder, progress)
    else:
        _read_delimited(p, "\t" if fmt == "tsv" else ",", cols, builder, progress)
    return builder.build()
