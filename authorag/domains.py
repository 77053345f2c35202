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

import ipaddress
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal
from urllib.parse import urlsplit

import tldextract

from authorag.errors import InvalidURLError

HostKind = Literal["domain", "ipv4", "ipv6", "localhost", "invalid"]



@cache
def _extractor() -> tldextract.TLDExtract:
    # suffix_list_urls=() and cache_dir=None: the snapshot shipped inside tldextract, never the network.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)

_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")
_MAX_INPUT = 4096
_SPACE = re.compile(r"\s")


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


def _plain_netloc(text: str) -> str | None:
    """The netloc of an ``http://``-style URL with a letters-only scheme and an ASCII,
    bracket-free netloc (nearly every URL a service sees), without ``urlsplit`` (which costs
    ~10 µs on a URL it has not cached); None for anything else, which goes to ``urlsplit``.
    Gives ``urlsplit(text).netloc`` whenever it answers (tests compare the two)."""
    sep = text.find("://", 0, 12)
    if sep <= 0 or not (text[:sep].isalpha() and text[:sep].isascii()):
        return None
    start = sep + 3
    end = len(text)
    for ch in "/?#":
        pos = text.find(ch, start, end)
        if pos >= 0:
            end = pos
    netloc = text[start:end]
    if not netloc.isascii() or "[" in netloc or "]" in netloc:
        return None
    return netloc


def _host_part(text: str) -> str:
    """Pull the host out of a URL or bare host string (no validation)."""
    netloc = _plain_netloc(text)
    if netloc is None:
        if "://" not in text[:12] and not text.startswith("//"):
            text = "//" + text
        try:
            netloc = urlsplit(text).netloc
        except ValueError as exc:  # e.g. unbalanced [ in an IPv6 literal
            raise InvalidURLError(text.lstrip("/"), f"unparseable URL ({exc})") from exc
    netloc = netloc.rsplit("@", 1)[-1]
    if netloc.startswith("["):
        end = netloc.find("]")
        if end < 0:
            raise InvalidURLError(text, "IPv6 host is missing its closing ']'")
        return netloc[: end + 1]
    return netloc.split(":", 1)[0]


def _to_ascii(host: str, original: str) -> str:
    if host.isascii():
        return host.lower()
    try:
        return ".".join(lbl.lower() if lbl.isascii() else lbl.encode("idna").decode("ascii")
                        for lbl in host.split("."))
    except UnicodeError as exc:
        raise InvalidURLError(original, f"host {host!r} is not a valid internationalized name ({exc})") from exc


@lru_cache(maxsize=65536)
def _parse_host_cached(host: str) -> ParsedHost:
    """Parse a bare host (cached by host; ``input`` is the host, the caller replaces it)."""
    original = host
    if host.startswith("[") and host.endswith("]"):
        try:
            ip6 = ipaddress.IPv6Address(host[1:-1])
        except ValueError as exc:
            raise InvalidURLError(original, f"{host} is not a valid IPv6 address") from exc
        return ParsedHost(original, str(ip6), str(ip6), None, "ipv6")
    host = _to_ascii(host.strip().rstrip("."), original)
    if not host:
        raise InvalidURLError(original, "no host found; pass a URL like 'https://example.org/page' or a host like 'example.org'")
    try:
        ip4 = ipaddress.IPv4Address(host)
        return ParsedHost(original, str(ip4), str(ip4), None, "ipv4")
    except ValueError:
        pass
    if host == "localhost" or host.endswith(".localhost"):
        return ParsedHost(original, host, "localhost", None, "localhost")
    if len(host) > 253:
        raise InvalidURLError(original, f"host is {len(host)} characters long; the limit is 253")
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


@lru_cache(maxsize=65536)
def _parse_url(url: str) -> ParsedHost:
    # Cached by the whole URL: a service sees the same URLs again and again. Errors are not cached.
    text = url.strip()
    if not text:
        raise InvalidURLError(url, "empty string; pass a URL or a host name")
    if len(text) > _MAX_INPUT:
        raise InvalidURLError(url[:80] + "...", f"input is {len(text)} characters; the limit is {_MAX_INPUT}")
    if _SPACE.search(text):
        raise InvalidURLError(url, "contains whitespace; URLs cannot contain spaces")
    try:
        parsed = _parse_host_cached(_host_part(text))
    except InvalidURLError as exc:
        raise InvalidURLError(url, exc.reason) from None
    # Direct construction: dataclasses.replace costs ~5 µs, more than the rest of this path.
    return ParsedHost(url, parsed.host, parsed.domain, parsed.suffix, parsed.kind, parsed.error)


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
