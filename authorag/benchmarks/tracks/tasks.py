"""The comparison tracks (those that chose the default composition) as ranking tasks: the tail population and hosted content.

* ``tail-trec2019``: every page domain of TREC HM 2019 (the RAGAuth-open pages), labelled by
  NIST credibility aggregated over the domain's judged pages: level 2 = every page credible,
  1 = mixed, 0 = none. The three-level rule keeps all the information (a binary majority
  would need a tie rule for 1-of-2 domains) and the mixed level is small (5 of 232 domains),
  so the pair metric is dominated by credible-vs-non-credible pairs. RAMDocs is not part of
  this track: its documents carry no URLs, so there is no domain to score.
* ``hosted-urls``: a hand-made file (``authorag/benchmarks/data/hosted_urls.csv``) of a
  platform's own pages (label ``official``) next to user-owned pages on the same platform
  (``user``), and ordinary official pages next to names reserved for documentation and tests (``example.com``, ``*.test``; ``reserved``)
  and IP hosts (``ip``). Level 1 = official, 0 = anything else; pairs are formed only within
  a ``group`` (a platform, or the reserved / ip groups).

Example:
    >>> rows = [{"url": "http://a.com/x", "credibility": "1"}, {"url": "http://www.a.com/y", "credibility": "0"},
    ...         {"url": "http://b.org/", "credibility": "0"}]
    >>> [(i.key, i.level) for i in tail_items(rows)]
    [('a.com', 1), ('b.org', 0)]
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from authorag.benchmarks.tasks import BenchItem, RankTask, read_rows
from authorag.domains import parse_host
from authorag.errors import ConfigError

TREC_FILE = "authorag.benchmarks.data/trec_hm2019.csv.gz"
HOSTED_FILE = "authorag.benchmarks.data/hosted_urls.csv"
TAIL_LEVELS = ("no page credible", "mixed", "every page credible")
HOSTED_LABELS = ("official", "user", "reserved", "ip")
TAIL_FAMILY = "tailauth"
HOSTED_FAMILY = "hosted"


def tail_items(rows: Iterable[Mapping[str, str]]) -> tuple[BenchItem, ...]:
    """One item per registrable domain of the pages in ``rows`` (``url``, ``credibility`` 0/1).

    The item's ``url`` is the domain's first page in input order (a scorer sees the full URL, as
    retrieval would); ``meta`` keeps every host and the credible / judged page counts.
    """
    pages: dict[str, list[tuple[str, str, int]]] = {}
    for row in rows:
        parsed = parse_host(row["url"], strict=False)
        key = parsed.domain or parsed.host
        if key is None:
            raise ConfigError(f"page URL {row['url']!r} has no host; fix the vendored row")
        pages.setdefault(key, []).append((row["url"], parsed.host or key, int(row["credibility"])))
    items: list[BenchItem] = []
    for key in sorted(pages):
        group = pages[key]
        credible = sum(c for _, _, c in group)
        level = 2 if credible == len(group) else 0 if credible == 0 else 1
        meta = {"hosts": sorted({h for _, h, _ in group}), "pages": len(group), "credible_pages": credible}
        items.append(BenchItem(key, group[0][0], level, None, key, MappingProxyType(meta)))
    return tuple(items)


def tail_task() -> RankTask:
    """The ``tail-trec2019`` task (232 domains)."""
    items = tail_items(read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz"))
    return RankTask("tail-trec2019", TAIL_FAMILY, 3, None, "domain", items, (TREC_FILE,),
                    "TREC HM 2019 page domains, NIST credibility per domain (0 none, 1 mixed, 2 all pages)")


def hosted_items(rows: Iterable[Mapping[str, str]]) -> tuple[BenchItem, ...]:
    """Items of the hosted track: level 1 for ``official`` rows, 0 for user / reserved / ip.

    Raises:
        ConfigError: an unknown label, a duplicate URL, or a group without both an official
            and a non-official row (it would contribute no pair).
    """
    items: list[BenchItem] = []
    seen: set[str] = set()
    for n, row in enumerate(rows, start=2):  # line 1 is the header
        url, label, group = row["url"].strip(), row["label"].strip(), row["group"].strip()
        if label not in HOSTED_LABELS:
            raise ConfigError(f"hosted_urls.csv line {n}: label must be one of {', '.join(HOSTED_LABELS)}, got {label!r}")
        if url in seen:
            raise ConfigError(f"hosted_urls.csv line {n}: duplicate URL {url!r}")
        seen.add(url)
        meta = MappingProxyType({"group": group, "label": label, "note": row.get("note", "")})
        items.append(BenchItem(url, url, 1 if label == "official" else 0, None, url, meta))
    levels: dict[str, set[int]] = {}
    for item in items:
        levels.setdefault(str(item.meta["group"]), set()).add(item.level)
    lonely = sorted(g for g, lv in levels.items() if lv != {0, 1})
    if lonely:
        raise ConfigError(f"hosted groups need an official and a non-official row; incomplete: {', '.join(lonely)}")
    return tuple(items)


def hosted_task() -> RankTask:
    """The ``hosted-urls`` task."""
    items = hosted_items(read_rows("authorag.benchmarks.data", "hosted_urls.csv"))
    return RankTask("hosted-urls", HOSTED_FAMILY, 2, None, "domain", items, (HOSTED_FILE,),
                    "hand-made: platform-official vs user pages per platform, reserved names, IP hosts")
