"""Loaders of the shared evaluation sets beyond health and English (read from a data folder, never vendored).

Each loader reads one folder of the shared data directory (``--data-dir``, default
``$AUTHORAG_SHARED_DATA``; the folder layout and licences are in that directory's
PROVENANCE.md files) and returns :class:`LabelledPage` items. None of these sets is vendored:
C3, Fake.br and CoAID state no licence and are evaluation only; Décodex (ODbL) and the Wikipedia
lists (CC BY-SA) are candidate prior sources, read here so the track sees the same file the prior
would be built from. A missing folder is reported by :func:`missing_note`, and the track is skipped.

* :func:`load_c3`: C3 pages (URL only) with the mean crowd credibility rating (1-5), the query
  that found them and their topic (category).
* :func:`load_fakebr`: Fake.br Portuguese articles, label 1 true / 0 fake, with text and URL.
* :func:`load_coaid`: CoAID COVID news items, label 1 real / 0 fake, title and text and URL.
* :func:`load_decodex`: Décodex French domains, label 1 *plutôt fiable* (4) / 0 unreliable or
  satire (2, 1); *douteux* (3) and social-media accounts are left out.
* :func:`load_wikipedia_sources`: WikiProject site rules (whole sites), label 1 reliable / 0
  unreliable or deprecated; domains on the perennial sources list (``reliability_ranking.csv``)
  are left out, so the track judges the non-news WikiProject topics.

Where one outlet dominates a label (Fake.br, CoAID), at most ``max_per_domain`` items per
registrable domain and label are kept (a seeded sample), so the track does not measure one outlet.
These two sets have no halves of their own: :func:`domain_half` gives them dev and test halves by
registrable domain (every item of a domain in the same half), so a decision made on dev is read on
outlets it never saw.

Example:
    >>> domain_of("https://www1.folha.uol.com.br/poder/x.shtml")
    'uol.com.br'
"""
from __future__ import annotations

import csv
import hashlib
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from authorag.benchmarks.tracks.trust_data import check_split
from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.settings import env_text

DATA_ENV = "AUTHORAG_SHARED_DATA"
NEUTRAL_HOST = "https://neutral-unknown-host.net/article/"
"""The URL prefix of the text-alone views: a host no table lists, not a reserved name."""
MAX_PER_DOMAIN = 300
FOLDERS = {"c3": "c3_content_credibility_corpus", "fakebr": "fakebr_corpus_pt", "coaid": "coaid_covid",
           "decodex": "decodex_fr_2017", "wikipedia": "wikipedia_reliable_sources"}
FILES = {"c3": ("page_credibility_aggregate.csv", "pages.csv"), "fakebr": ("fakebr.csv",),
         "coaid": ("coaid_news.csv",), "decodex": ("decodex-latest.csv",),
         "wikipedia": ("wikipedia_site_labels.csv", "reliability_ranking.csv")}


@dataclass(frozen=True, slots=True)
class LabelledPage:
    """One evaluation item: a URL, maybe its text, a label and what it clusters by.

    Attributes:
        url: the page's real URL (or a domain's home page).
        text: the page text ('' for URL-only sets).
        label: 1/0 (true/fake, reliable/unreliable) or a mean rating (C3, 1-5).
        domain: registrable domain (the CI's cluster).
        group: the query that found the page (C3), else ''.
        topic: the set's topic or category, else ''.
    """

    url: str
    text: str
    label: float
    domain: str
    group: str = ""
    topic: str = ""


def data_dir(raw: str | None) -> Path | None:
    """``raw`` or ``$AUTHORAG_SHARED_DATA`` as a path, None when neither is given."""
    value = raw or env_text(DATA_ENV) or ""
    return Path(value).expanduser() if value else None


def missing_note(root: Path | None, name: str) -> str | None:
    """Why set ``name`` cannot be read from ``root`` (None when it can)."""
    if root is None:
        return f"skipped: no data folder (pass --data-dir or set {DATA_ENV}) for {FOLDERS[name]}"
    folder = root / FOLDERS[name]
    absent = [f for f in FILES[name] if not (folder / f).is_file()]
    return f"skipped: {folder} lacks {', '.join(absent)}" if absent else None


def domain_of(url: str) -> str:
    """Registrable domain of ``url`` (its host when it has none)."""
    parsed = parse_host(url, strict=False)
    return parsed.domain or parsed.host or ""


def _rows(path: Path) -> Iterator[dict[str, str]]:
    csv.field_size_limit(sys.maxsize)
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            yield from csv.DictReader(handle)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ConfigError(f"cannot read {path} ({exc}); point --data-dir at the shared data folder") from exc


def _column(row: dict[str, str], name: str, path: Path) -> str:
    if name not in row:
        raise ConfigError(f"{path}: no column {name!r} (has {', '.join(row)}); is this the shared data folder?")
    return row[name] or ""


def cap_per_domain(items: Sequence[LabelledPage], limit: int, seed: int) -> list[LabelledPage]:
    """At most ``limit`` items per (domain, label), a seeded sample; input order otherwise kept.

    Example:
        >>> pages = [LabelledPage(f"https://a.com/{i}", "", 1.0, "a.com") for i in range(5)]
        >>> len(cap_per_domain(pages, 2, seed=0))
        2
    """
    by_cell: dict[tuple[str, float], list[int]] = {}
    for n, item in enumerate(items):
        by_cell.setdefault((item.domain, item.label), []).append(n)
    keep: set[int] = set()
    for cell, members in sorted(by_cell.items()):
        rng = random.Random(f"{seed}:{cell[0]}:{cell[1]}")
        keep.update(members if len(members) <= limit else rng.sample(members, limit))
    return [item for n, item in enumerate(items) if n in keep]


SPLIT_SALT = "authorag-domain-half-1"
"""Fixed salt of :func:`domain_half` (never the run's seed: the halves do not move between runs)."""


def domain_half(items: Sequence[LabelledPage], split: str) -> list[LabelledPage]:
    """The ``dev`` or ``test`` half of ``items`` by registrable domain (``all``: every item).

    Each domain goes to the side of its majority label (ties: the higher label); within a side,
    domains are ordered by the SHA-256 of :data:`SPLIT_SALT` and the domain, and alternate dev,
    test, dev, ... So both halves hold both labels whenever a label has two domains or more, and
    the division depends only on the domains present.

    Raises:
        ConfigError: ``split`` is not ``dev``, ``test`` or ``all``.

    Example:
        >>> pages = [LabelledPage(f"https://{d}/", "", 1.0, d) for d in ("a.com", "b.com", "c.com", "d.com")]
        >>> len(domain_half(pages, "dev")), len(domain_half(pages, "test"))
        (2, 2)
    """
    check_split(split)
    if split == "all":
        return list(items)
    counts: dict[str, dict[float, int]] = {}
    for item in items:
        cell = counts.setdefault(item.domain, {})
        cell[item.label] = cell.get(item.label, 0) + 1
    sides: dict[float, list[str]] = {}
    for domain, cell in counts.items():
        sides.setdefault(max(cell, key=lambda label: (cell[label], label)), []).append(domain)
    dev: set[str] = set()
    for domains in sides.values():
        ordered = sorted(domains, key=lambda d: hashlib.sha256(f"{SPLIT_SALT}:{d}".encode()).hexdigest())
        dev.update(ordered[0::2])
    return [item for item in items if (item.domain in dev) == (split == "dev")]


def load_c3(root: Path) -> list[LabelledPage]:
    """C3 pages with a mean rating, their query and category (pages without a URL host are skipped)."""
    folder = root / FOLDERS["c3"]
    pages = folder / "pages.csv"
    query = {_column(r, "document_id", pages): _column(r, "source_query_or_feed", pages) for r in _rows(pages)}
    agg = folder / "page_credibility_aggregate.csv"
    out: list[LabelledPage] = []
    for row in _rows(agg):
        url, raw = _column(row, "url", agg), _column(row, "mean_credibility", agg)
        domain = domain_of(url)
        if not domain or not raw:
            continue
        out.append(LabelledPage(url, "", float(raw), domain, query.get(row["document_id"], ""),
                                _column(row, "category", agg)))
    return out


def load_fakebr(root: Path, max_per_domain: int = MAX_PER_DOMAIN, seed: int = 0) -> list[LabelledPage]:
    """Fake.br articles: label 1 true, 0 fake; capped per domain."""
    path = root / FOLDERS["fakebr"] / "fakebr.csv"
    out: list[LabelledPage] = []
    for row in _rows(path):
        label, url, text = _column(row, "label", path), _column(row, "url", path), _column(row, "text", path)
        domain = domain_of(url)
        if label in ("true", "fake") and domain and text.strip():
            out.append(LabelledPage(url, text, 1.0 if label == "true" else 0.0, domain, topic=row.get("category", "")))
    return cap_per_domain(out, max_per_domain, seed)


def load_coaid(root: Path, max_per_domain: int = MAX_PER_DOMAIN, seed: int = 0,
               min_chars: int = 200) -> list[LabelledPage]:
    """CoAID items with at least ``min_chars`` of title and text: label 1 real, 0 fake; capped per domain."""
    path = root / FOLDERS["coaid"] / "coaid_news.csv"
    out: list[LabelledPage] = []
    for row in _rows(path):
        label, url = _column(row, "label", path), _column(row, "news_url", path)
        text = "\n".join(t for t in (row.get("title", ""), _column(row, "content", path)) if t).strip()
        domain = domain_of(url) if url else ""
        if label in ("real", "fake") and domain and len(text) >= min_chars:
            out.append(LabelledPage(url, text, 1.0 if label == "real" else 0.0, domain, topic=row.get("type", "")))
    return cap_per_domain(out, max_per_domain, seed)


DECODEX_LABELS = {"4": 1.0, "2": 0.0, "1": 0.0}


def load_decodex(root: Path) -> list[LabelledPage]:
    """Décodex domains (not social-media accounts): 1 for *plutôt fiable*, 0 for unreliable or satire."""
    path = root / FOLDERS["decodex"] / "decodex-latest.csv"
    out: dict[str, LabelledPage] = {}
    for row in _rows(path):
        raw, level = _column(row, "url", path).strip().lower(), _column(row, "fiability", path).strip()
        if level not in DECODEX_LABELS or not raw or "/" in raw.rstrip("/"):
            continue
        url = f"https://{raw.rstrip('/')}/"
        domain = domain_of(url)
        if domain and domain not in out:
            out[domain] = LabelledPage(url, "", DECODEX_LABELS[level], domain, topic="news")
    return list(out.values())


WIKIPEDIA_LABELS = {"reliable": 1.0, "unreliable_or_deprecated": 0.0}


def load_wikipedia_sources(root: Path) -> list[LabelledPage]:
    """WikiProject whole-site rules (reliable 1, unreliable or deprecated 0), perennial-list domains left out."""
    folder = root / FOLDERS["wikipedia"]
    ranking = folder / "reliability_ranking.csv"
    perennial = {domain_of(f"https://{_column(r, 'domain', ranking).strip()}/") for r in _rows(ranking)}
    labels = folder / "wikipedia_site_labels.csv"
    out: dict[str, LabelledPage] = {}
    for row in _rows(labels):
        site, label = _column(row, "site", labels).strip().lower(), _column(row, "label", labels)
        if label not in WIKIPEDIA_LABELS or _column(row, "path_pattern", labels).strip() or not site:
            continue
        url = f"https://{site}/"
        domain = domain_of(url)
        if domain and domain not in perennial and domain not in out:
            out[domain] = LabelledPage(url, "", WIKIPEDIA_LABELS[label], domain, topic="wikiproject")
    return list(out.values())
