"""AuthorityBench-open ranking tasks: labelled items on an ordinal level scale.

Families (see docs/benchmarks.md for the exact label rules):

* ``domainauth-web-{fine,coarse}``: Majestic top-15k, equal-frequency deciles of RefSubNets.
* ``domainauth-news-{fine,coarse}``: CC-News PageRank, level10 = min(9, floor(10·pr)).
* ``credauth-mbfc`` (6 levels of MBFC factual reporting), ``credauth-baly`` (3 levels).
* ``entityauth-{basketball,movies,songs}-{fine,coarse}``: Wikidata sitelinks, log bins.
* ``tail-trec2019``, ``hosted-urls``: comparison tracks of ``authorag bench compare`` (:mod:`authorag.benchmarks.tracks.tasks`).

:func:`authorag.benchmarks.registry.load_task` builds any task by name.

Example:
    >>> task = TASK_BUILDERS["domainauth-news-fine"]()
    >>> task.n_levels, task.label_source
    (10, 'ccnews_pagerank')
"""
from __future__ import annotations

import csv
import gzip
import hashlib
import json
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

from authorag.domains import parse_host

ItemKind = Literal["domain", "entity", "document"]
_EMPTY: Mapping[str, Any] = MappingProxyType({})
MBFC_LEVELS = ("very-low", "low", "mixed", "mostly-factual", "high", "very-high")
BALY_LEVELS = ("low", "mixed", "high")
ENTITY_CAP_PER_LEVEL = 1000
"""EntityAuth pools keep at most this many entities per level (seed 0): level 0 holds most items."""


@dataclass(frozen=True, slots=True)
class BenchItem:
    """One labelled item: a domain, an entity or a document.

    Attributes:
        key: unique id within the task (normalized host, entity name, doc id).
        url: URL or host handed to authority scorers ("" for entities).
        level: gold label on the task's scale (0 = lowest).
        level10: the 10-level label where the task has one (pair settings use it), else None.
        text: text handed to with-text judges (entity name, page text).
        meta: extra fields (raw value, fold...).
    """

    key: str
    url: str
    level: int
    level10: int | None = None
    text: str = ""
    meta: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True)
class RankTask:
    """A ranking task: items with ordinal levels, evaluated listwise (LE) and pairwise (PE).

    Attributes:
        name: registry name.
        family: ``domainauth`` | ``credauth`` | ``entityauth``.
        n_levels: size of the label scale of ``level``.
        label_source: prior source the labels come from (excluded from priors), or None.
        item_kind: what an item is.
        items: all items.
        data_files: vendored files the task reads (checksummed in every result).
        description: one line for ``authorag bench list``.
    """

    name: str
    family: str
    n_levels: int
    label_source: str | None
    item_kind: ItemKind
    items: tuple[BenchItem, ...]
    data_files: tuple[str, ...]
    description: str

    def by_level(self) -> dict[int, list[BenchItem]]:
        """Items grouped by ``level`` (every level of the scale present, possibly empty)."""
        out: dict[int, list[BenchItem]] = {lvl: [] for lvl in range(self.n_levels)}
        for item in self.items:
            out[item.level].append(item)
        return out

    def pair_scale(self) -> tuple[int, Callable[[BenchItem], int]]:
        """The scale pairs are defined on: 10 levels where the task has them, else its own."""
        if all(i.level10 is not None for i in self.items):
            return 10, lambda i: int(i.level10)  # type: ignore[arg-type]
        return self.n_levels, lambda i: i.level


# ----------------------------------------------------------------------------- data access

def _open_text(package: str, name: str) -> str:
    with resources.files(package).joinpath(name).open("rb") as raw:
        data = raw.read()
    return (gzip.decompress(data) if name.endswith(".gz") else data).decode("utf-8")


def read_rows(package: str, name: str) -> Iterator[dict[str, str]]:
    """Rows of a vendored CSV (``package`` is ``authorag.data`` or ``authorag.benchmarks.data``)."""
    csv.field_size_limit(2**31 - 1)
    yield from csv.DictReader(_open_text(package, name).splitlines(keepends=True))


def file_sha256(package: str, name: str) -> str:
    """SHA-256 of a vendored file's bytes as shipped."""
    with resources.files(package).joinpath(name).open("rb") as raw:
        return hashlib.sha256(raw.read()).hexdigest()


def normalize_key(raw: str) -> str | None:
    """Vendored row key → table key (host without ``www.``); None for a broken row like ``.com``."""
    parsed = parse_host(raw, strict=False)
    return next(iter(parsed.lookup_keys()), None)


# ----------------------------------------------------------------------------- label rules

def decile_levels(values: Sequence[float], n_levels: int = 10) -> list[int]:
    """Equal-frequency levels: floor(n_levels · (#values strictly below) / n); ties share a level.

    Example:
        >>> decile_levels([5, 1, 3, 3, 9], n_levels=5)
        [3, 0, 1, 1, 4]
    """
    ordered = sorted(values)
    n = len(ordered)
    import bisect

    return [min(n_levels - 1, (n_levels * bisect.bisect_left(ordered, v)) // n) for v in values]


def pagerank_levels(pr: float) -> tuple[int, int]:
    """(level10, level5) of a rank-normalized PageRank: min(9, ⌊10·pr⌋), min(4, ⌊5·pr⌋)."""
    return min(9, math.floor(10 * pr)), min(4, math.floor(5 * pr))


def log_bin_levels(values: Sequence[float]) -> list[int]:
    """EntityAuth levels: edges = logspace(log10 min, log10 max, 11); clip(digitize − 1, 0, 9).

    The clip matters at the lower edge: the first edge is 10**log10(min), which can round
    above ``min``, so ``digitize`` would return 0 and the level −1.

    Example:
        >>> log_bin_levels([5, 10, 40, 500])
        [0, 1, 4, 9]
    """
    arr = np.asarray(values, dtype=np.float64)
    edges = np.logspace(math.log10(float(arr.min())), math.log10(float(arr.max())), 11)
    return np.clip(np.digitize(arr, edges) - 1, 0, 9).astype(int).tolist()


def _cap_levels(items: list[BenchItem], cap: int, seed: int = 0) -> list[BenchItem]:
    rng = random.Random(seed)
    groups: dict[int, list[BenchItem]] = {}
    for item in items:
        groups.setdefault(item.level if item.level10 is None else item.level10, []).append(item)
    out: list[BenchItem] = []
    for level in sorted(groups):
        group = groups[level]
        out.extend(group if len(group) <= cap else rng.sample(group, cap))
    return out


# ----------------------------------------------------------------------------- builders

def _dedupe(rows: Iterator[tuple[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for raw, value in rows:
        key = normalize_key(raw)
        if key is not None and (key not in out or out[key] < value):
            out[key] = value
    return out


def _web(coarse: bool) -> RankTask:
    values = _dedupe((r["domain"], float(r["ref_subnets"])) for r in read_rows("authorag.data", "majestic_top15k.csv.gz"))
    keys = sorted(values)
    levels = decile_levels([values[k] for k in keys])
    items = tuple(BenchItem(k, k, lvl // 2 if coarse else lvl, lvl, k, {"ref_subnets": values[k]})
                  for k, lvl in zip(keys, levels))
    return RankTask(f"domainauth-web-{'coarse' if coarse else 'fine'}", "domainauth", 5 if coarse else 10,
                    "majestic", "domain", items, ("authorag.data/majestic_top15k.csv.gz",),
                    "Majestic top-15k, deciles of referring subnets (head of the web only)")


def _news(coarse: bool) -> RankTask:
    values = _dedupe((r["domain"], float(r["pagerank"])) for r in read_rows("authorag.data", "ccnews_pagerank.csv.gz"))
    items = tuple(BenchItem(k, k, pagerank_levels(v)[1 if coarse else 0], pagerank_levels(v)[0], k, {"pagerank": v})
                  for k, v in sorted(values.items()))
    return RankTask(f"domainauth-news-{'coarse' if coarse else 'fine'}", "domainauth", 5 if coarse else 10,
                    "ccnews_pagerank", "domain", items, ("authorag.data/ccnews_pagerank.csv.gz",),
                    "CC-News link-graph PageRank levels (news domains)")


def _bare_domain_rows(rows: Iterator[tuple[str, int]]) -> list[BenchItem]:
    seen: set[str] = set()
    out: list[BenchItem] = []
    for raw, level in rows:
        if "/" in raw:  # MBFC rates some site sections (al.com/birmingham): not a domain item
            continue
        key = normalize_key(raw)
        if key is None or key in seen:
            continue
        seen.add(key)
        out.append(BenchItem(key, key, level, None, key, {"raw": raw}))
    return out


def _mbfc() -> RankTask:
    rows = ((r["domain"], MBFC_LEVELS.index(r["reporting"]))
            for r in read_rows("authorag.benchmarks.data", "mbfc2026.csv.gz") if r["reporting"] in MBFC_LEVELS)
    return RankTask("credauth-mbfc", "credauth", 6, None, "domain", tuple(_bare_domain_rows(rows)),
                    ("authorag.benchmarks.data/mbfc2026.csv.gz",),
                    "MBFC factual reporting, 6 levels (very-low … very-high), snapshot 2026-08-19")


def baly_host(raw: str) -> str:
    """Baly 2018 source id → host: ``who.int-en`` → ``who.int``; ``a.com-blogs-news`` → ``a.com``."""
    if parse_host(raw, strict=False).kind == "domain":
        return raw
    dot = raw.find(".")
    dash = raw.find("-", dot)
    return raw[:dash] if dot >= 0 and dash > 0 else raw


def _baly() -> RankTask:
    splits = json.loads(_open_text("authorag.benchmarks.data", "baly2018_splits.json"))
    fold_of = {src: int(fold) for fold, parts in splits.items() for src in parts["test"]}
    items: list[BenchItem] = []
    for r in read_rows("authorag.benchmarks.data", "baly2018.csv.gz"):
        host = baly_host(r["domain"])
        items.append(BenchItem(r["domain"], host, BALY_LEVELS.index(r["fact"]), None, host,
                               {"fold": fold_of.get(r["domain"], -1), "bias": r["bias"]}))
    return RankTask("credauth-baly", "credauth", 3, None, "domain", tuple(items),
                    ("authorag.benchmarks.data/baly2018.csv.gz", "authorag.benchmarks.data/baly2018_splits.json"),
                    "Baly et al. 2018 factuality (low/mixed/high), items carry their 5-fold test fold")


_ENTITY_KIND = {"basketball": "basketball player", "movies": "movie", "songs": "song"}


def _entities(domain: str, coarse: bool) -> RankTask:
    file = f"entities_{domain}.csv.gz"
    rows = list(read_rows("authorag.benchmarks.data", file))
    levels = log_bin_levels([float(r["popularity"]) for r in rows])
    items = [BenchItem(r["entity"], "", lvl // 2 if coarse else lvl, lvl, r["entity"],
                       {"popularity": int(r["popularity"]), "kind": _ENTITY_KIND[domain]})
             for r, lvl in zip(rows, levels)]
    items = _cap_levels(items, ENTITY_CAP_PER_LEVEL)
    return RankTask(f"entityauth-{domain}-{'coarse' if coarse else 'fine'}", "entityauth", 5 if coarse else 10,
                    None, "entity", tuple(items), (f"authorag.benchmarks.data/{file}",),
                    f"Ni et al. 2025 {domain}, Wikidata sitelinks in 10 log bins (cap {ENTITY_CAP_PER_LEVEL}/level)")


TASK_BUILDERS: Mapping[str, Callable[[], RankTask]] = MappingProxyType({
    "domainauth-web-fine": lambda: _web(False),
    "domainauth-web-coarse": lambda: _web(True),
    "domainauth-news-fine": lambda: _news(False),
    "domainauth-news-coarse": lambda: _news(True),
    "credauth-mbfc": _mbfc,
    "credauth-baly": _baly,
    **{f"entityauth-{d}-{g}": (lambda d=d, g=g: _entities(d, g == "coarse"))
       for d in ("basketball", "movies", "songs") for g in ("fine", "coarse")},
})
"""The ranking tasks defined here, name -> builder (:mod:`authorag.benchmarks.registry` joins every task)."""


def data_checksums(files: Sequence[str]) -> dict[str, str]:
    """``{"package/file": sha256}`` for ``RankTask.data_files`` style names."""
    out: dict[str, str] = {}
    for spec in files:
        package, name = spec.rsplit("/", 1)
        out[spec] = file_sha256(package, name)
    return out
