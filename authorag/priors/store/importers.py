"""Public domain rank lists → prior-store rows: one registry of formats, one transform each.

==================  =========================================  ==================================
format              input (as the publisher documents it)      value on 0–1
==================  =========================================  ==================================
``tranco``          ``rank,domain``, no header                 web log-rank of ``rank``
``umbrella``        ``rank,domain`` (DNS names), no header     web log-rank of ``rank``
``majestic``        Majestic Million CSV with header            web log-rank of ``GlobalRank``
                    (``GlobalRank,...,Domain,...``)
``cloudflare``      Radar bucket file: header ``domain``,       web log-rank of the bucket's
                    one per row; bucket from ``--bucket`` or    geometric middle (top 1000 →
                    ``top-N`` / ``top_N`` in the file name      rank √(500·1000) ≈ 707)
``openpagerank``    ``"Rank","Domain","Open Page Rank"``        ``Open Page Rank / 10``
``cc-webgraph``     Common Crawl host/domain ranks (TSV,        web log-rank of
                    header ``#harmonicc_pos #harmonicc_val      ``#harmonicc_pos`` (or ``#pr_pos``
                    #pr_pos #pr_val #host_rev ...``), names     with ``measure="pr"``)
                    reversed (``com.example``)
==================  =========================================  ==================================

The **web log-rank** places a rank on the whole web rather than on the list:
``1 − log10(rank) / log10(WEB_DOMAINS)`` with ``WEB_DOMAINS = 3.6e8`` (about the number of
registered domain names, Verisign's Domain Name Industry Brief 2024). Rank 1 → 1.0, rank 100 →
0.77, rank 15k → 0.51 (the shipped ``majestic`` source puts its 15k-th entry at 0.55), rank 1 M
→ 0.30, rank 100 M → 0.06. Lists of different lengths therefore agree on what a rank means.

Example:
    >>> round(float(web_log_rank(np.array([1, 100, 1_000_000]))[2]), 2)
    0.3
    >>> plan = resolve_plan("tranco", None, {})
    >>> plan.parse_row(["12", "Example.COM"], 1)
    ('example.com', 12.0)
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from authorag.errors import ConfigError
from authorag.priors.sources import normalize_key
from authorag.priors.store.mapped import RawDtype

WEB_DOMAINS = 3.6e8
"""Registered domain names on the web (Verisign DNIB 2024: ~360 M); rank scale of the transform."""

CLOUDFLARE_BUCKETS = (200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000)
"""Cloudflare Radar's popularity buckets (each file lists the top N, including smaller buckets)."""

Measure = Literal["harmonicc", "pr"]
ImportFormatName = Literal["tranco", "umbrella", "majestic", "cloudflare", "openpagerank", "cc-webgraph"]


class BadRow(ValueError):
    """One input row cannot be read; the message says why (the caller adds file and line)."""


def web_log_rank(rank: NDArray[Any]) -> NDArray[np.float64]:
    """``1 − log10(rank) / log10(WEB_DOMAINS)``, clipped to [0, 1] (see the module docstring)."""
    r = np.maximum(np.asarray(rank, dtype=np.float64), 1.0)
    return np.clip(1.0 - np.log10(r) / math.log10(WEB_DOMAINS), 0.0, 1.0)


def _opr_value(raw: NDArray[Any]) -> NDArray[np.float64]:
    return np.clip(np.asarray(raw, dtype=np.float64) / 10.0, 0.0, 1.0)


def _cloudflare_value(raw: NDArray[Any]) -> NDArray[np.float64]:
    buckets, inverse = np.unique(np.asarray(raw, dtype=np.int64), return_inverse=True)
    ranks = np.array([cloudflare_rank(int(b)) for b in buckets.tolist()], dtype=np.float64)
    return web_log_rank(ranks[inverse])


def cloudflare_rank(bucket: int) -> float:
    """The rank a Radar bucket stands for: geometric middle of the bucket's bounds.

    Example:
        >>> round(cloudflare_rank(1000)), round(cloudflare_rank(200))
        (707, 14)
    """
    if bucket not in CLOUDFLARE_BUCKETS:
        raise ConfigError(f"Cloudflare Radar bucket must be one of {CLOUDFLARE_BUCKETS}, got {bucket}")
    i = CLOUDFLARE_BUCKETS.index(bucket)
    lower = 1 if i == 0 else CLOUDFLARE_BUCKETS[i - 1]
    return math.sqrt(lower * bucket)


@dataclass(frozen=True, slots=True)
class ImportFormat:
    """One registered input format.

    Attributes:
        name: ``--format`` value.
        description: one line for ``--help`` and docs.
        delimiter: field separator.
        header: names of (key column, raw column) in the header; None for header-less files.
        positions: (key, raw) column indices for header-less files.
        reversed_keys: names are written reversed (``com.example.www``).
        raw_dtype: how the raw number is stored (``u4`` ranks, ``f4`` scores).
        transform: raw numbers → 0–1 values (vectorized).
        transform_doc: the transform in words, kept in the store header.
        confidence: default weight of the source in a prior table.
    """

    name: str
    description: str
    delimiter: str
    header: tuple[tuple[str, ...], tuple[str, ...]] | None
    positions: tuple[int, int]
    reversed_keys: bool
    raw_dtype: RawDtype
    transform: Callable[[NDArray[Any]], NDArray[np.float64]]
    transform_doc: str
    confidence: float


_LOG_RANK_DOC = "web log-rank: 1 - log10(rank) / log10(3.6e8), clipped to [0, 1]"

FORMATS: Mapping[str, ImportFormat] = MappingProxyType({f.name: f for f in (
    ImportFormat("tranco", "Tranco list: rank,domain (no header)", ",", None, (1, 0), False, "u4",
                 web_log_rank, _LOG_RANK_DOC, 0.7),
    ImportFormat("umbrella", "Cisco Umbrella popularity list: rank,DNS name (no header)", ",", None, (1, 0),
                 False, "u4", web_log_rank, _LOG_RANK_DOC, 0.5),
    ImportFormat("majestic", "Majestic Million CSV (header GlobalRank,...,Domain,...)", ",",
                 (("domain",), ("globalrank",)), (0, 0), False, "u4", web_log_rank, _LOG_RANK_DOC, 0.7),
    ImportFormat("cloudflare", "Cloudflare Radar bucket file (header 'domain'; bucket from name or --bucket)",
                 ",", (("domain",), ()), (0, 0), False, "u4", _cloudflare_value,
                 "web log-rank of the bucket's geometric middle sqrt(previous bucket * bucket)", 0.6),
    ImportFormat("openpagerank", "Open PageRank CSV (header Rank,Domain,Open Page Rank)", ",",
                 (("domain",), ("open page rank", "page_rank_decimal", "openpagerank")), (0, 0), False, "f4",
                 _opr_value, "Open Page Rank (0-10) / 10", 0.6),
    ImportFormat("cc-webgraph", "Common Crawl web-graph host or domain ranks (TSV with # header, reversed names)",
                 "\t", (("host_rev", "domain_rev"), ("harmonicc_pos",)), (0, 0), True, "u4", web_log_rank,
                 _LOG_RANK_DOC + " of the chosen measure's position", 0.6),
)})


def import_format(name: str) -> ImportFormat:
    """The registry entry for ``name``; raises ConfigError listing the known formats."""
    try:
        return FORMATS[name]
    except KeyError:
        raise ConfigError(f"unknown import format {name!r}; choose one of {', '.join(FORMATS)}") from None


_PLAIN_HOST = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)+")


@cache
def _suffixes() -> tuple[frozenset[str], frozenset[str]]:
    """(every public suffix, every top-level label) from tldextract's bundled snapshot."""
    import tldextract

    extractor = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)
    tlds = frozenset(s.lstrip("*.!") for s in extractor.tlds)
    return tlds, frozenset(s.rsplit(".", 1)[-1] for s in tlds)


def fast_key(raw: str) -> str | None:
    """``normalize_key`` for list entries, with a fast path for plain lower-case host names.

    A plain ASCII host under a known top-level label that does not start with ``www.`` is
    already a table key (``normalize_key`` parses it through the public suffix list, far slower
    than this check). Everything else goes through ``normalize_key``.

    Example:
        >>> fast_key("Example.com"), fast_key("www.nih.gov"), fast_key("foo.notatld")
        ('example.com', 'nih.gov', None)
    """
    key = raw.strip().lower().rstrip(".")
    if _PLAIN_HOST.fullmatch(key) and not key.startswith("www."):
        suffixes, tops = _suffixes()
        if key.rsplit(".", 1)[-1] in tops and key not in suffixes:
            return key
    return normalize_key(raw.strip())


@dataclass(frozen=True, slots=True)
class RowPlan:
    """How to read the rows of one file: resolved column positions and the raw number."""

    fmt: ImportFormat
    key_col: int
    raw_col: int | None
    constant_raw: float | None

    def parse_row(self, row: Sequence[str], line: int) -> tuple[str, float]:
        """(table key, raw number) of one row; raises :class:`BadRow` saying what is wrong."""
        need = max(self.key_col, -1 if self.raw_col is None else self.raw_col) + 1
        if len(row) < need:
            raise BadRow(f"expected at least {need} fields, got {len(row)}: {list(row)[:4]}")
        name = row[self.key_col].strip().strip("'\"")
        if self.fmt.reversed_keys:
            name = ".".join(reversed(name.split(".")))
        key = fast_key(name) if name else None
        if key is None:
            raise BadRow(f"{row[self.key_col]!r} is not a host or domain name")
        if self.raw_col is None:
            return key, float(self.constant_raw or 0.0)
        return key, _number(row[self.raw_col], self.fmt.raw_dtype)


    def parse_batch(self, rows: Sequence[Sequence[str]], first_line: int,
                    ) -> tuple[list[str], list[float], list[tuple[int, BadRow]]]:
        """:meth:`parse_row` over many rows at once: (keys, raws, [(line, error)] of bad rows).

        Plain rows take a vectorized path (one C-level pass per step); a row that fails any
        fast check goes through :meth:`parse_row`, which finds and words the problem.
        """
        ok, keys, raws = self._fast(rows)
        out_keys: list[str] = []
        out_raw: list[float] = []
        bad: list[tuple[int, BadRow]] = []
        for i, good in enumerate(ok):
            if good:
                out_keys.append(keys[i])
                out_raw.append(raws[i])
                continue
            try:
                key, raw = self.parse_row(rows[i], first_line + i)
            except BadRow as exc:
                bad.append((first_line + i, exc))
                continue
            out_keys.append(key)
            out_raw.append(raw)
        return out_keys, out_raw, bad

    def _fast(self, rows: Sequence[Sequence[str]]) -> tuple[list[bool], list[str], list[float]]:
        width = max(self.key_col, -1 if self.raw_col is None else self.raw_col) + 1
        if any(len(r) < width for r in rows):
            return [False] * len(rows), [], []
        names = [r[self.key_col] for r in rows]
        if self.fmt.reversed_keys:
            names = [".".join(reversed(n.split("."))) for n in names]
        keys = list(map(str.lower, names))
        suffixes, tops = _suffixes()
        ok = [m is not None and not k.startswith("www.") and k.rpartition(".")[2] in tops and k not in suffixes
              for k, m in zip(keys, map(_PLAIN_HOST.fullmatch, keys))]
        if self.raw_col is None:
            return ok, keys, [float(self.constant_raw or 0.0)] * len(rows)
        try:
            nums = np.array([r[self.raw_col] for r in rows], dtype=np.float64)
        except ValueError:
            return [False] * len(rows), [], []
        good = np.isfinite(nums) & (nums >= 0)
        if self.fmt.raw_dtype == "u4":
            good &= (nums >= 1) & (nums == np.floor(nums))
        return [a and b for a, b in zip(ok, good.tolist())], keys, nums.tolist()


def _number(text: str, dtype: RawDtype) -> float:
    try:
        value = float(text.strip().strip("'\""))
    except ValueError:
        raise BadRow(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0 or (dtype == "u4" and (value < 1 or value != int(value))):
        kind = "a rank (integer >= 1)" if dtype == "u4" else "a non-negative number"
        raise BadRow(f"{text!r} is not {kind}")
    return value


def _header_names(header: Sequence[str]) -> list[str]:
    return [h.strip().strip("'\"").lstrip("#").strip().lower() for h in header]


def resolve_plan(fmt_name: str, header: Sequence[str] | None, options: Mapping[str, Any]) -> RowPlan:
    """Column positions for ``fmt_name`` given a file's header row and the import options.

    Options: ``measure`` (cc-webgraph: ``harmonicc`` or ``pr``), ``bucket`` (cloudflare).

    Raises:
        ConfigError: a needed column is missing (the message lists the header it read).
    """
    fmt = import_format(fmt_name)
    if fmt.header is None:
        return RowPlan(fmt, fmt.positions[0], fmt.positions[1], None)
    if header is None:
        raise ConfigError(f"format {fmt.name!r} needs a header row naming its columns; none was read")
    names = _header_names(header)
    key_col = _find(names, fmt.header[0], fmt.name, header)
    if fmt.name == "cloudflare":
        cloudflare_rank(int(options["bucket"]))  # validates the bucket
        return RowPlan(fmt, key_col, None, float(options["bucket"]))
    raw_names = fmt.header[1]
    if fmt.name == "cc-webgraph":
        measure = options.get("measure", "harmonicc")
        if measure not in get_args(Measure):
            raise ConfigError(f"measure must be one of {get_args(Measure)}, got {measure!r}")
        raw_names = (f"{measure}_pos",)
    return RowPlan(fmt, key_col, _find(names, raw_names, fmt.name, header), None)


def _find(names: list[str], wanted: tuple[str, ...], fmt: str, header: Sequence[str]) -> int:
    for w in wanted:
        if w in names:
            return names.index(w)
    raise ConfigError(f"format {fmt!r}: the header {list(header)} has no column {' or '.join(wanted)}; "
                      "is this the right --format?")


_BUCKET_IN_NAME = re.compile(r"top[-_]?(\d+)(k|m)?", re.IGNORECASE)


def bucket_from_name(file_name: str) -> int | None:
    """The Radar bucket named in a file name (``...top-1000000...``, ``top_10k``), or None.

    Example:
        >>> bucket_from_name("cloudflare-radar_top-10000-domains_20240101.csv")
        10000
    """
    m = _BUCKET_IN_NAME.search(file_name)
    if m is None:
        return None
    scale = {"k": 1_000, "m": 1_000_000}.get((m.group(2) or "").lower(), 1)
    return int(m.group(1)) * scale


def is_header(fmt: ImportFormat, row: Sequence[str]) -> bool:
    """True when the first row of a file is a header (formats with a header; or a
    header-less format's file whose rank column is not a number)."""
    if fmt.header is not None:
        return True
    if not row or len(row) <= fmt.positions[1]:
        return False
    try:
        float(row[fmt.positions[1]])
    except ValueError:
        return True
    return False
