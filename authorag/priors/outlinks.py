"""Outlinks of HTML pages (``<a href>``) and the domain graph of a document collection.

Uses the standard library's ``html.parser``: relative links are resolved against the page URL
(or the page's ``<base href>``), fragments are removed, and only http(s) links are kept
(``mailto:``, ``javascript:``, ``tel:``, ``data:`` and same-page ``#anchors`` are dropped).

Example:
    >>> extract_links('<a href="/b">b</a> <a href="mailto:x@y.org">m</a> <a href="#top">t</a>',
    ...               "https://example.org/a/")
    ['https://example.org/b']
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.priors.graph import DomainGraph, DomainGraphBuilder, Progress

log = logging.getLogger(__name__)

_WEB_SCHEMES = ("http", "https")


class _LinkParser(HTMLParser):
    """Collects ``<a>``/``<area>`` hrefs, the first ``<base href>`` and the page's own URL hints."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.base: str | None = None
        self.canonical: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("a", "area", "base", "link", "meta"):
            return
        values = {k.lower(): (v or "").strip() for k, v in attrs}
        if tag in ("a", "area") and values.get("href"):
            self.hrefs.append(values["href"])
        elif tag == "base" and self.base is None and values.get("href"):
            self.base = values["href"]
        elif tag == "link" and "canonical" in values.get("rel", "").lower().split() and values.get("href"):
            self.canonical = self.canonical or values["href"]
        elif tag == "meta" and values.get("property", "").lower() == "og:url" and values.get("content"):
            self.canonical = self.canonical or values["content"]


def _parse(html: str) -> _LinkParser:
    parser = _LinkParser()
    parser.feed(html)
    parser.close()
    return parser


def _resolve(href: str, base: str) -> str | None:
    try:
        url = urldefrag(urljoin(base, href)).url
        scheme = urlsplit(url).scheme.lower()
    except ValueError:  # e.g. a malformed IPv6 literal in the href
        return None
    return url if scheme in _WEB_SCHEMES else None


def extract_links(html: str, page_url: str) -> list[str]:
    """Absolute http(s) URLs of the page's ``<a href>`` links, in document order, repeats kept.

    Args:
        html: the page's HTML.
        page_url: the page's own URL, used to resolve relative links (a ``<base href>`` in the
            page takes precedence, as in a browser).

    Example:
        >>> extract_links('<base href="https://cdn.example.org/"><a href="x.html">x</a>',
        ...               "https://example.org/")
        ['https://cdn.example.org/x.html']
    """
    parser = _parse(html)
    base = urljoin(page_url, parser.base) if parser.base else page_url
    links: list[str] = []
    for href in parser.hrefs:
        if href.startswith("#"):
            continue
        url = _resolve(href, base)
        if url is not None:
            links.append(url)
    return links


def _url_from_path(rel: Path) -> str | None:
    """``example.org/a/b.html`` (a mirror laid out by host, as ``wget -m`` does) → its URL."""
    if len(rel.parts) < 2 or parse_host(rel.parts[0], strict=False).kind != "domain":
        return None
    return "https://" + rel.as_posix()


def page_url(html: str, rel_path: Path | None = None) -> str | None:
    """The URL of a saved page: its canonical link, ``og:url`` or ``<base href>``, else its
    mirror path (``example.org/a.html`` → ``https://example.org/a.html``), else None."""
    end = html.lower().find("</head>")
    parser = _parse(html if end < 0 else html[:end])  # the hints live in <head>: skip the body
    for hint in (parser.canonical, parser.base):
        if hint and urlsplit(hint).scheme in _WEB_SCHEMES:
            return hint
    return _url_from_path(rel_path) if rel_path is not None else None


def iter_html_dir(directory: str | Path) -> Iterator[tuple[str | None, str]]:
    """``(page URL or None, HTML)`` for every ``*.html``/``*.htm`` file under ``directory``.

    The page URL comes from :func:`page_url`; a page without one is yielded with None so the
    graph builder can count it.
    """
    root = Path(directory)
    if not root.is_dir():
        raise ConfigError(f"HTML directory {str(root)!r} does not exist or is not a directory")
    for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in (".html", ".htm") and p.is_file()):
        html = path.read_bytes().decode("utf-8", errors="replace")
        url = page_url(html, path.relative_to(root))
        if url is None:
            log.warning("no page URL for %s (no canonical link, og:url, <base href> or host folder)", path)
        yield url, html


def count_html_files(directory: str | Path) -> int:
    """Number of HTML files :func:`iter_html_dir` will read (for progress bars)."""
    return sum(1 for p in Path(directory).rglob("*") if p.suffix.lower() in (".html", ".htm") and p.is_file())


def iter_html_jsonl(path: str | Path) -> Iterator[tuple[str | None, str]]:
    """``(url, html)`` from a JSONL file of ``{"url": ..., "html": ...}`` objects.

    A line that is not such an object is yielded as ``(None, "")`` (counted as skipped).
    """
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"JSONL file {str(p)!r} does not exist")
    with p.open(encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                log.warning("%s line %d is not JSON (%s); skipped", p, lineno, exc)
                yield None, ""
                continue
            url = obj.get("url") if isinstance(obj, dict) else None
            html = obj.get("html") if isinstance(obj, dict) else None
            if not isinstance(url, str) or not isinstance(html, str):
                log.warning("%s line %d lacks string fields 'url' and 'html'; skipped", p, lineno)
                yield None, ""
                continue
            yield url, html


def graph_from_documents(documents: Iterable[tuple[str | None, str]],
                         progress: Progress | None = None) -> DomainGraph:
    """The domain graph of the outlinks (``<a href>``) of ``(page URL, HTML)`` documents.

    Pages without a URL are skipped (counted as ``no page url``); their links cannot be
    resolved or attributed. Every domain that appears as a page is a node, even without links.
    """
    builder = DomainGraphBuilder()
    for i, (url, html) in enumerate(documents, start=1):
        if not url:
            builder.skip("no page url")
        elif isinstance(builder.node(url), str):
            builder.skip("invalid page url")
        else:
            for link in extract_links(html, url):
                builder.add(url, link)
        if progress is not None:
            progress(i)
    return builder.build()
