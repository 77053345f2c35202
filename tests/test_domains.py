from __future__ import annotations

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
    ("http://[::1", "unparseable URL"),
    ("http://[zz::1]/", "does not appear to be an IPv4 or IPv6 address"),
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


def test_plain_netloc_fast_path_agrees_with_urlsplit() -> None:
    """The urlsplit-free netloc reader answers only where it gives urlsplit's netloc."""
    import random
    from urllib.parse import urlsplit

    from authorag.domains import _plain_netloc  # pyright: ignore[reportPrivateUsage]

    rng = random.Random(11)
    alphabet = list("abcHTtp:/?#@[]:.-_1%é")
    answered = 0
    for _ in range(20_000):
        text = rng.choice(["http://", "https://", "HTTP://", "ftp://", "h1://", "://", ""]) + "".join(
            rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        got = _plain_netloc(text)
        if got is not None:
            answered += 1
            assert got == urlsplit(text).netloc, text
    assert answered > 5_000
