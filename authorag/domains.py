"""Normalize URLs and bare hosts to registrable domains, offline.

The public suffix list comes from tldextract's bundled snapshot; nothing is ever fetched.
Private suffixes (``blogspot.com``, ``github.io``) count as suffixes, so every blog on a shared
host is its own site: ``someone.blogspot.com`` does not inherit ``blogspot.com``'s reputation.

Example:
    >>> parse_host("https://User@WWW.Example.co.uk:8443/a?b=1").domain
    'example.co.uk'
    >>> parse_host("https://bücher.de/x").domain
    'xn--bcher-kva.de'
    >>> parse_host("not a url", strict=False).kind
    'invalid'
"""
from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Literal

import tldextract

from authorag._urlhost import web_host
from authorag.errors import InvalidURLError

HostKind = Literal["domain", "ipv4", "ipv6", "localhost", "invalid"]



@cache
def _extractor() -> tldextract.TLDExtract:
    # suffix_list_urls=() and cache_dir=None: the snapshot shipped inside tldextract, never the network.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)

_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")
_IPV4 = re.compile(r"^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$")
_MAX_INPUT = 4096


@dataclass(frozen=True, slots=True)
class ParsedHost:
    """The result of :func:`parse_host`.

    Attributes:
        input: the string received.
        host: lower-case ASCII (punycode) host without port, userinfo or trailing dot.
        domain: registrable domain (``example.co.uk``), the IP for IP hosts, ``localhost``.
        suffix: the public suffix (``co.uk``), None for IPs and localhost.
        kind: what the host is; ``invalid`` only when parsed leniently.
        error: why the input was rejected (``kind == "invalid"``).
    """

    input: str
    host: str | None
    domain: str | None
    suffix: str | None
    kind: HostKind
    error: str | None = None

    @property
    def domain_unicode(self) -> str | None:
        """The registrable domain with punycode labels decoded (``bücher.de``)."""
        return None if self.domain is None else _to_unicode(self.domain)

    def lookup_keys(self) -> Iterator[str]:
        """Keys to try in a domain table, most specific first (see :func:`host_keys`)."""
        return host_keys(self.host, self.domain)


def host_keys(host: str | None, domain: str | None) -> Iterator[str]:
    """Keys to try in a domain table for a normalized host, most specific first.

    ``www.en.wikipedia.org`` yields ``en.wikipedia.org`` then ``wikipedia.org``: a table can
    hold sub-domains with their own reputation and fall back to the registrable domain. A
    leading ``www.`` is dropped unless it is the registrable label itself (``www.gov.uk``).

    Example:
        >>> list(host_keys("www.en.wikipedia.org", "wikipedia.org"))
        ['en.wikipedia.org', 'wikipedia.org']
    """
    if host is None or domain is None:
        return
    if host.startswith("www.") and host != domain:
        host = host[4:]
    while len(host) >= len(domain):
        yield host
        if host == domain:
            return
        host = host.split(".", 1)[1]


def _to_unicode(host: str) -> str:
    try:
        return ".".join(lbl.encode("ascii").decode("idna") if lbl.startswith("xn--") else lbl
                        for lbl in host.split("."))
    except UnicodeError:
        return host


class _ByteBoundedCache:
    """A thread-safe map from strings to ParsedHost whose size is bounded in bytes (FIFO).

    Counting entries is not enough: keys may be 4,096 characters, so 65,536 entries could
    hold 2 GiB. Each entry is charged its key's size plus a fixed overhead for the node and
    the value (whose strings are mostly shared with the key or with other entries).
    """

    ENTRY_OVERHEAD = 320

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._data: dict[str, ParsedHost] = {}
        self._bytes = 0
        self._lock = threading.Lock()
        # The dict's own get, bound once: no lock and no reordering (a dict read is atomic, and
        # first-in-first-out eviction keeps a hit cheap; an LRU's move_to_end under a lock
        # doubled its cost, scripts/bench_foundation.py), and no Python frame per lookup. The
        # dict is only ever cleared, never replaced.
        self.get: Callable[[str], ParsedHost | None] = self._data.get

    def put(self, key: str, value: ParsedHost) -> None:
        size = sys.getsizeof(key) + self.ENTRY_OVERHEAD
        if size > self.max_bytes:
            return
        with self._lock:
            if key in self._data:
                return
            self._data[key] = value
            self._bytes += size
            while self._bytes > self.max_bytes:
                old = next(iter(self._data))
                del self._data[old]
                self._bytes -= sys.getsizeof(old) + self.ENTRY_OVERHEAD

    def cache_clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._data.clear()
            self._bytes = 0

    def cache_info(self) -> tuple[int, int, int]:
        """(entries, bytes charged, byte limit)."""
        with self._lock:
            return len(self._data), self._bytes, self.max_bytes


URL_CACHE_BYTES = 16 * 1024 * 1024
"""Byte budget of the whole-URL cache (a service sees the same URLs again and again)."""
HOST_CACHE_BYTES = 8 * 1024 * 1024
"""Byte budget of the host cache (many URLs share a host)."""
_URL_CACHE = _ByteBoundedCache(URL_CACHE_BYTES)
_HOST_CACHE = _ByteBoundedCache(HOST_CACHE_BYTES)

parsed_url: Callable[[str], ParsedHost | None] = _URL_CACHE.get
"""What :func:`parse_host` has already returned for exactly this string, else None: one dict
read, for loops over many documents to try before calling :func:`parse_host`."""


def cache_info() -> dict[str, tuple[int, int, int]]:
    """(entries, bytes, byte limit) of the URL and host caches.

    Example:
        >>> sorted(cache_info())
        ['host', 'url']
    """
    return {"url": _URL_CACHE.cache_info(), "host": _HOST_CACHE.cache_info()}


def clear_caches() -> None:
    """Empty the URL and host caches (benchmarks of cold parsing)."""
    _URL_CACHE.cache_clear()
    _HOST_CACHE.cache_clear()


def _parse_host_cached(host: str) -> ParsedHost:
    """Classify a host already read by :func:`web_host` (cached by host)."""
    hit = _HOST_CACHE.get(host)
    if hit is None:
        hit = _classify(host)
        _HOST_CACHE.put(host, hit)
    return hit


def _classify(host: str) -> ParsedHost:
    original = host
    if ":" in host:  # web_host gives IPv6 addresses compressed and without brackets
        return ParsedHost(original, host, host, None, "ipv6")
    if _IPV4.match(host):  # web_host gives every number-ending host as dotted decimal
        return ParsedHost(original, host, host, None, "ipv4")
    host = host.rstrip(".")
    if not host:
        raise InvalidURLError(original, "no host found; pass a URL like 'https://example.org/page' or a host like 'example.org'")
    # The length check comes first: '<4,000 characters>.localhost' is not a host either.
    if len(host) > 253:
        raise InvalidURLError(original, f"host is {len(host)} characters long; the limit is 253")
    if host == "localhost" or host.endswith(".localhost"):
        return ParsedHost(original, host, "localhost", None, "localhost")
    bad = next((lbl for lbl in host.split(".") if not _LABEL.match(lbl)), None)
    if bad is not None:
        raise InvalidURLError(original, f"host label {bad!r} is not a valid DNS label (letters, digits, '-', 1-63 chars)")
    ext = _extractor().extract_str(host)
    if not ext.suffix:
        raise InvalidURLError(original, f"{host!r} has no known public suffix (like .com or .co.uk)")
    if not ext.domain:
        # The host is itself a public suffix (e.g. 'blogspot.com' under the private list):
        # treat it as its own registrable domain so tables listing it still match.
        return ParsedHost(original, host, host, ext.suffix, "domain")
    return ParsedHost(original, host, f"{ext.domain}.{ext.suffix}", ext.suffix, "domain")


def parse_host(url: str, *, strict: bool = True) -> ParsedHost:
    """Parse a URL or bare host into host, registrable domain and kind.

    The host is read as browsers read it (the WHATWG URL standard, see
    :mod:`authorag._urlhost`): ``https://evil.com\\@nih.gov`` is evil.com, a port must be
    0-65535, and schemes other than http(s) (``mailto:``, ``file:``, ``data:``) have no web
    domain. A string without a scheme is read as a host (``nih.gov``, ``nih.gov/x``).

    Args:
        url: ``https://user@www.Example.org:8080/path?q``, ``example.org``, ``bücher.de``,
            ``192.0.2.1``, ``[2001:db8::1]``...
        strict: raise :class:`InvalidURLError` on garbage (default); with ``strict=False``
            return a ``ParsedHost`` of kind ``"invalid"`` whose ``error`` says why.

    Raises:
        InvalidURLError: in strict mode, when no valid host can be read.
    """
    try:
        if not isinstance(url, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise InvalidURLError(repr(url), f"expected a string, got {type(url).__name__}")
        return _parse_url(url)
    except InvalidURLError as exc:
        if strict:
            raise
        return ParsedHost(exc.input, None, None, None, "invalid", exc.reason)


def _parse_url(url: str) -> ParsedHost:
    # Cached by the whole URL: a service sees the same URLs again and again. Errors are not cached.
    hit = _URL_CACHE.get(url)
    if hit is not None:
        return hit
    if len(url) > _MAX_INPUT:
        raise InvalidURLError(url[:80] + "...", f"input is {len(url)} characters; the limit is {_MAX_INPUT}")
    if not url.strip():
        raise InvalidURLError(url, "empty string; pass a URL or a host name")
    try:
        parsed = _parse_host_cached(web_host(url))
    except InvalidURLError as exc:
        raise InvalidURLError(url, exc.reason) from None
    # Direct construction: dataclasses.replace costs more than the rest of this path.
    out = ParsedHost(url, parsed.host, parsed.domain, parsed.suffix, parsed.kind, parsed.error)
    _URL_CACHE.put(url, out)
    return out


def load_suffix_list() -> None:
    """Load the public suffix list now (it otherwise loads on the first new host).

    A server calls this before it starts answering, so the first request does not pay for it
    and the list's ~17,000 objects can be frozen out of the garbage collector's reach.

    Example:
        >>> load_suffix_list()
        >>> parse_host("www.example.co.uk").suffix
        'co.uk'
    """
    _extractor().extract_str("www.example.co.uk")


def registrable_domain(url: str) -> str:
    """The registrable domain of ``url`` (strict; see :func:`parse_host`)."""
    domain = parse_host(url).domain
    assert domain is not None  # strict parsing always yields a domain
    return domain
