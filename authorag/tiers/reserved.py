"""The ``reserved`` tier: special-use names that never take a table value (RFC 2606, RFC 6761, RFC 6762, IPs).

``example.com``, ``site77.example.com``, ``clinic.test``, ``printer.local``, ``10.0.0.1``,
``localhost``: these are documentation names, test names, local networks and raw addresses. No
registry assigns them to a publisher, so a table value for them (``example.com`` sits in the
web-head tables because of its traffic) says nothing about the page. They get their own tier,
``reserved``, with no authority value (the reranker fuses its ``unknown_level`` for them)
and a note naming the rule.

Example:
    >>> special_host("https://site77.example.com/x")
    'RFC 2606 reserved example name (example.com)'
    >>> special_host("https://www.nih.gov/") is None
    True
"""
from __future__ import annotations

import ipaddress

from authorag._urlhost import web_host
from authorag.errors import InvalidURLError

RESERVED_DOMAINS: dict[str, str] = {
    "example.com": "RFC 2606 reserved example name",
    "example.net": "RFC 2606 reserved example name",
    "example.org": "RFC 2606 reserved example name",
}
"""Second-level names reserved for documentation (with every sub-domain)."""

RESERVED_TLDS: dict[str, str] = {
    "example": "RFC 2606 reserved TLD",
    "test": "RFC 2606 reserved TLD for testing",
    "invalid": "RFC 2606 reserved TLD for invalid names",
    "localhost": "RFC 6761 loopback name",
    "local": "RFC 6762 multicast-DNS local name",
    "onion": "RFC 7686 Tor onion service",
    "internal": "ICANN-reserved private-use TLD",
    "alt": "RFC 9476 non-DNS name",
    "home.arpa": "RFC 8375 home network name",
    "localdomain": "conventional local-network name",
    "lan": "conventional local-network name",
    "intranet": "conventional private-network name",
    "corp": "conventional private-network name",
    "home": "conventional home-network name",
}
"""Special-use top-level names (and ``home.arpa``): no public registrant exists."""


def host_of(url: str) -> str:
    """The host browsers would read from a URL or bare host, lower-case ASCII (``""`` if none).

    The same WHATWG reading as :func:`authorag.domains.parse_host` (tabs and newlines dropped,
    ``\\`` as ``/``, numeric IPv4 forms normalised), but it keeps names that have no public
    suffix (``clinic.test``), which is what special-use names look like. Other schemes have no
    web host.

    Example:
        >>> host_of("HTTP://user@Printer.Local:631/queue"), host_of("http://0x7f000001/"), host_of("ftp://a.test")
        ('printer.local', '127.0.0.1', '')
    """
    try:
        return web_host(url)
    except InvalidURLError:
        return ""


def special_host(url_or_host: str) -> str | None:
    """Why this URL's host is a special-use name or address, or None for an ordinary host.

    Example:
        >>> special_host("clinic.test"), special_host("http://192.168.1.4/")
        ('RFC 2606 reserved TLD for testing (.test)', 'IP address literal (192.168.1.4), not a registered name')
    """
    host = host_of(url_or_host)
    if not host:
        return None
    reason = _ip_reason(host)
    if reason is not None:
        return reason
    for name, why in RESERVED_DOMAINS.items():
        if host == name or host.endswith("." + name):
            return f"{why} ({name})"
    last = host.rsplit(".", 1)[-1]
    if last in RESERVED_TLDS:
        return f"{RESERVED_TLDS[last]} (.{last})" if last != "localhost" or host != "localhost" else "RFC 6761 loopback name (localhost)"
    if host.endswith(".home.arpa") or host == "home.arpa":
        return f"{RESERVED_TLDS['home.arpa']} (.home.arpa)"
    return None


def maybe_special(domain: str | None) -> bool:
    """Cheap pre-check on a parsed registrable domain: False means :func:`special_host` is None.

    Example:
        >>> maybe_special("nih.gov"), maybe_special("example.org"), maybe_special(None)
        (False, True, True)
    """
    if domain is None:
        return True
    return (domain in RESERVED_DOMAINS or domain[:1].isdigit() or ":" in domain
            or domain.rsplit(".", 1)[-1] in RESERVED_TLDS or domain.endswith(".home.arpa"))


def _ip_reason(host: str) -> str | None:
    if not (host[:1].isdigit() or ":" in host):
        return None
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    return f"IP address literal ({ip}), not a registered name"


__all__ = ["RESERVED_DOMAINS", "RESERVED_TLDS", "host_of", "maybe_special", "special_host"]
