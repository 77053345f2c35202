from __future__ import annotations

import random
import re

import pytest

from authorag.domains import host_keys, parse_host, registrable_domain
from authorag.errors import InvalidURLError

CASES = [
    # input, host, domain, kind
    ("https://www.nih.gov/health/x?y=1#z", "www.nih.gov", "nih.gov", "domain"),
    ("HTTPS://WWW.NIH.GOV", "www.nih.gov", "nih.gov", "domain"),
    ("nih.gov", "nih.gov", "nih.gov", "domain"),
    ("https://user:pw@www.example.co.uk:8443/a", "www.example.co.uk", "example.co.uk", "domain"),
    ("example.com.", "example.com", "example.com", "domain"),
    ("https://example.com./path", "example.com", "example.com", "domain"),
    ("//cdn.example.org/x.js", "cdn.example.org", "example.org", "domain"),
    ("en.wikipedia.org/wiki/Foo", "en.wikipedia.org", "wikipedia.org", "domain"),
    ("https://someone.blogspot.com/2012/01/post.html", "someone.blogspot.com", "someone.blogspot.com", "domain"),
    ("blogspot.com", "blogspot.com", "blogspot.com", "domain"),
    ("https://bücher.de/katalog", "xn--bcher-kva.de", "xn--bcher-kva.de", "domain"),
    ("xn--bcher-kva.de", "xn--bcher-kva.de", "xn--bcher-kva.de", "domain"),
    ("http://München.DE", "xn--mnchen-3ya.de", "xn--mnchen-3ya.de", "domain"),
    ("http://192.0.2.7:8080/x", "192.0.2.7", "192.0.2.7", "ipv4"),
    ("http://[2001:DB8::1]:8080/", "2001:db8::1", "2001:db8::1", "ipv6"),
    ("localhost:8000", "localhost", "localhost", "localhost"),
    ("www.gov.uk", "www.gov.uk", "www.gov.uk", "domain"),
]


@pytest.mark.parametrize(("url", "host", "domain", "kind"), CASES)
def test_parse_host(url: str, host: str, domain: str, kind: str) -> None:
    p = parse_host(url)
    assert (p.host, p.domain, p.kind) == (host, domain, kind)


GARBAGE = [
    ("", "empty string"),
    ("   ", "empty string"),
    ("not a url", "whitespace"),
    ("http://", "no host found"),
    ("foo.invalidtld", "no known public suffix"),
    ("http://-bad-.com", "not a valid DNS label"),
    ("a..b.com", "not a valid DNS label"),
    ("http://[::1", "missing its closing ']'"),
    ("http://[zz::1]/", "is not a valid IPv6 address"),
    ("x" * 5000 + ".com", "limit is 4096"),
    ("http://" + "a" * 64 + ".com", "not a valid DNS label"),
]


@pytest.mark.parametrize(("url", "reason"), GARBAGE)
def test_garbage_raises_typed_error_naming_input(url: str, reason: str) -> None:
    with pytest.raises(InvalidURLError, match=reason) as info:
        parse_host(url)
    assert isinstance(info.value, ValueError)
    assert info.value.input.startswith(url[:80])


@pytest.mark.parametrize(("url", "reason"), GARBAGE)
def test_lenient_mode_returns_explicit_invalid(url: str, reason: str) -> None:
    p = parse_host(url, strict=False)
    assert p.kind == "invalid" and p.domain is None and p.host is None
    assert p.error is not None and reason in p.error


def test_non_string_input() -> None:
    with pytest.raises(InvalidURLError, match="expected a string, got int"):
        parse_host(42)  # type: ignore[arg-type]


def test_unicode_roundtrip() -> None:
    assert parse_host("https://bücher.de").domain_unicode == "bücher.de"


@pytest.mark.parametrize(("url", "keys"), [
    ("www.en.wikipedia.org", ["en.wikipedia.org", "wikipedia.org"]),
    ("a.b.example.co.uk", ["a.b.example.co.uk", "b.example.co.uk", "example.co.uk"]),
    ("www.gov.uk", ["www.gov.uk"]),
    ("192.0.2.1", ["192.0.2.1"]),
])
def test_lookup_keys(url: str, keys: list[str]) -> None:
    assert list(parse_host(url).lookup_keys()) == keys


def test_host_keys_none() -> None:
    assert list(host_keys(None, None)) == []


def test_registrable_domain() -> None:
    assert registrable_domain("https://pubmed.ncbi.nlm.nih.gov/123") == "nih.gov"


# --- issue 13, item 7: hosts are read as browsers read them (WHATWG URL standard) ----------

BROWSER_CASES = [
    # input, host browsers connect to (None: no web host)
    ("https://evil.com\\@nih.gov/", "evil.com"),        # a backslash ends a special URL's authority
    ("https://evil.com\\nih.gov", "evil.com"),
    ("http://a.b@c@nih.gov/", "nih.gov"),                # userinfo runs to the last '@'
    ("mailto:x@nih.gov", None),
    ("file://nih.gov/etc/passwd", None),
    ("data:,nih.gov", None),
    ("javascript:alert('nih.gov')", None),
    ("ftp://nih.gov/", None),
    ("http://nih.gov:99999/", None),
    ("http://nih.gov:-1/", None),
    ("http://nih.gov:65535/", "nih.gov"),
    ("http://[fe80::1%25eth0]/", None),                  # no IPv6 zone IDs in URLs
    ("http://[fe80::1%25<script>]/", None),
    ("http://" + "a" * 4000 + ".localhost/", None),       # length before the .localhost rule
    ("http://0x7f.1/", "127.0.0.1"),
    ("http://2130706433/", "127.0.0.1"),
    ("http://1.2.3.4.5/", None),
    ("https://ｎｉｈ。gov/x", "nih.gov"),                 # UTS #46 maps full-width letters and dots
    ("http://nih%2Egov/", "nih.gov"),
    ("ht\ttps://nih.gov\n", "nih.gov"),                  # tabs and newlines are removed
    ("https:nih.gov/x", "nih.gov"),
    ("https:\\\\nih.gov\\x", "nih.gov"),
    ("localhost:8000", "localhost"),
    ("nih.gov:443/x", "nih.gov"),
    ("http://xn--a。/", None),                           # punycode for a control character (found by hypothesis)
]


@pytest.mark.parametrize(("url", "host"), BROWSER_CASES)
def test_hosts_are_read_as_browsers_read_them(url: str, host: str | None) -> None:
    assert parse_host(url, strict=False).host == host


@pytest.mark.parametrize(("url", "reason"), [
    ("mailto:x@nih.gov", "the 'mailto' scheme has no web domain"),
    ("http://nih.gov:99999", "port 99999 is out of range; a port is 0-65535"),
    ("http://nih.gov:-1", "port '-1' is not a number"),
    ("http://[fe80::1%25eth0]/", "zone IDs"),
    ("http://" + "a" * 4000 + ".localhost/", "host is 4010 characters long; the limit is 253"),
])
def test_browser_refusals_say_why(url: str, reason: str) -> None:
    with pytest.raises(InvalidURLError, match=re.escape(reason)):
        parse_host(url)


def test_hosts_agree_with_a_whatwg_implementation() -> None:
    """200k-case version: tests/test_domains_properties.py (slow)."""
    ada_url = pytest.importorskip("ada_url")
    from authorag._urlhost import web_host  # pyright: ignore[reportPrivateUsage]

    rng = random.Random(5)
    pieces = list("abXY09.-_:@/\\?#[]% \tüｎ。") + ["xn--", "0x", "%2e", "%25", "::1", "[::1]", "1.2.3.4"]
    for _ in range(3000):
        url = rng.choice(["http://", "https://", "HTTP:", "https:\\\\", " http:///"]) + "".join(
            rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert _host_or_none(web_host, url) == _ada_host(ada_url, url), url


def _bad_alabel(host: str) -> bool:
    for label in host.split("."):
        if not label.startswith("xn--"):
            continue
        try:
            decoded = label[4:].encode("ascii").decode("punycode")
        except UnicodeError:
            return True
        if not decoded or decoded.isascii():
            return True
    return False


def _host_or_none(parse: object, url: str) -> str | None:
    try:
        return parse(url)  # type: ignore[operator]
    except InvalidURLError:
        return None


def _ada_host(ada_url: object, url: str) -> str | None:
    try:
        host = str(ada_url.URL(url).hostname)  # type: ignore[attr-defined]
    except ValueError:
        return None
    # The one known difference: on ASCII input ada keeps 'xn--' labels that are not valid
    # punycode (or decode to nothing or to ASCII), which UTS #46 15.1 refuses; so do we.
    if _bad_alabel(host):
        return None
    return host[1:-1] if host.startswith("[") else host


# --- issue 13, item 4: the URL caches are bounded by bytes, not entries --------------------

def test_url_caches_stay_within_their_byte_budget() -> None:
    import tracemalloc

    from authorag.domains import URL_CACHE_BYTES, cache_info, clear_caches

    clear_caches()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(12_000):  # 12,000 distinct 4,000-character URLs: 48 MB of keys
        parse_host(f"https://www.nih.gov/{i}/" + "p" * 3_980)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    entries, charged, limit = cache_info()["url"]
    assert limit == URL_CACHE_BYTES and charged <= limit
    assert 0 < entries < 12_000
    assert grown < URL_CACHE_BYTES * 1.5, f"grew {grown / 2**20:.1f} MiB"
    clear_caches()
