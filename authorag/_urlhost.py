"""Read the host of a URL the way browsers do (the WHATWG URL standard), for http(s) only.

Browsers, not Python's ``urlsplit``, decide which site a link opens, so an authority score must
follow them: ``https://evil.com\\@nih.gov`` opens evil.com (a backslash ends the authority of a
special URL), ``http://nih.gov:99999`` opens nothing (ports stop at 65535), and
``http://0x7f.1`` is 127.0.0.1. Schemes other than http and https (``mailto:``, ``file:``,
``data:``, ``javascript:``, ``ftp:``) have no web domain here.

The steps are those of the standard's basic URL parser restricted to what the host needs: trim
C0 controls and spaces, remove tabs and newlines, read the scheme, skip slashes and
backslashes, cut the authority at ``/ ? # \\``, drop userinfo up to the last ``@``, split off
and check the port, percent-decode, map the name with UTS #46 (non-transitional), refuse the
forbidden domain code points, and read a name that ends in a number as IPv4.

Example:
    >>> web_host("https://evil.com\\\\@nih.gov/")
    'evil.com'
    >>> web_host("HTTP://User@WWW.Example.org:8080/x")
    'www.example.org'
    >>> web_host("http://0x7f.1/")
    '127.0.0.1'
"""
from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

import idna

from authorag.errors import InvalidURLError

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_PORT_ONLY = re.compile(r"[0-9]+(?:[/?#\\]|$)")
_AUTHORITY_END = re.compile(r"[/?#\\]")
_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_C0_SPACE = "".join(chr(i) for i in range(0x21))
# Forbidden domain code points: the forbidden host code points, C0 controls, '%' and DEL.
_FORBIDDEN = re.compile(r"[\x00-\x20#/:<>?@\[\\\]^|%\x7f]")
_NUMBER_END = frozenset("0123456789abcdefABCDEFxX")
WEB_SCHEMES = frozenset({"http", "https"})


def _fail(text: str, reason: str) -> InvalidURLError:
    return InvalidURLError(text, reason)


def authority(text: str) -> str:
    """The authority (``userinfo@host:port``) of a URL, a scheme-relative URL or a bare host.

    A string without a scheme is read as ``http://`` + it, so ``nih.gov/x`` and
    ``localhost:8000`` work. ``host:port`` is not mistaken for a scheme.

    Raises:
        InvalidURLError: a scheme other than http(s), or no authority at all.
    """
    match = _SCHEME.match(text)
    rest = text
    if match is not None:
        scheme = match.group(1).lower()
        after = text[match.end():]
        if scheme in WEB_SCHEMES:
            rest = after
        elif not _PORT_ONLY.match(after):  # 'localhost:8000', 'nih.gov:443/x' are host:port
            raise _fail(text, f"the {scheme!r} scheme has no web domain; only http and https URLs "
                              "(or bare hosts like 'example.org') are read")
    rest = rest.lstrip("/\\")
    end = _AUTHORITY_END.search(rest)
    return rest if end is None else rest[: end.start()]


def split_host_port(text: str, auth: str) -> str:
    """The host of an authority: userinfo dropped (up to the last ``@``), port checked and dropped."""
    hostport = auth.rsplit("@", 1)[-1]
    if hostport.startswith("["):
        close = hostport.find("]")
        if close < 0:
            raise _fail(text, "IPv6 host is missing its closing ']'")
        host, port = hostport[: close + 1], hostport[close + 1:]
        if port and not port.startswith(":"):
            raise _fail(text, f"unexpected {port[:20]!r} after the IPv6 host")
        port = port[1:]
    else:
        host, _, port = hostport.partition(":")
    if port and not (port.isascii() and port.isdigit()):
        raise _fail(text, f"port {port[:20]!r} is not a number; a port is 0-65535")
    if port and int(port) > 65535:
        raise _fail(text, f"port {port[:20]} is out of range; a port is 0-65535")
    return host


def ipv6(text: str, host: str) -> str:
    """Compressed form of a bracketed IPv6 literal (zone IDs are refused, as browsers do)."""
    import ipaddress

    inner = host[1:-1]
    if "%" in inner:
        raise _fail(text, "IPv6 zone IDs ('%...') are not allowed in URLs")
    try:
        return str(ipaddress.IPv6Address(inner))
    except ValueError as exc:
        raise _fail(text, f"{host[:60]} is not a valid IPv6 address") from exc


def domain_to_ascii(text: str, host: str) -> str:
    """Percent-decode, map (UTS #46) and check a host name; lower-case ASCII out."""
    if "%" in host:
        try:
            host = unquote_to_bytes(host).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _fail(text, "the host's percent-escapes are not UTF-8") from exc
    if host.isascii():
        host = host.lower()
        if "xn--" in host:
            _check_alabels(text, host)
    else:
        host = _uts46(text, host)
    found = _FORBIDDEN.search(host)
    if found is not None:
        bad = found.group()
        what = "whitespace" if bad.isspace() else repr(bad)
        raise _fail(text, f"the host contains {what}, which no host may contain")
    return host


def _uts46(text: str, host: str) -> str:
    try:
        mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError) as exc:
        raise _fail(text, f"host {host[:60]!r} is not a valid internationalized name ({exc})") from exc
    if any(lbl.startswith("xn--") and not lbl.isascii() for lbl in mapped.split(".")):
        raise _fail(text, f"host {host[:60]!r} has an 'xn--' label that is not punycode")
    _check_alabels(text, mapped)
    return ".".join(lbl if lbl.isascii() else _punycode(text, lbl) for lbl in mapped.split("."))


def _check_alabels(text: str, host: str) -> None:
    # UTS #46 (15.1) refuses an 'xn--' label that is not punycode, decodes to nothing, or
    # decodes to plain ASCII.
    for label in host.split("."):
        if label.startswith("xn--"):
            try:
                decoded = label[4:].encode("ascii").decode("punycode")
            except UnicodeError as exc:
                raise _fail(text, f"host label {label[:70]!r} is not valid punycode ({exc})") from exc
            if not decoded or decoded.isascii() or not _valid_ulabel(decoded):
                raise _fail(text, f"host label {label[:70]!r} is not valid punycode (it decodes to {decoded[:20]!r})")


def _valid_ulabel(label: str) -> bool:
    # The decoded label must itself be a valid, already-mapped label (no controls, no
    # disallowed or unmapped code points).
    try:
        return idna.uts46_remap(label, std3_rules=False, transitional=False) == label
    except (idna.IDNAError, UnicodeError, ValueError):
        return False


def ipv4(text: str, host: str) -> str | None:
    """The dotted IPv4 address of a host that ends in a number, else None.

    Reads decimal, octal (leading 0) and hex (0x) parts and fewer than four parts, as browsers
    do: ``0x7f.1`` is ``127.0.0.1``, ``2130706433`` too.

    Raises:
        InvalidURLError: the host ends in a number but is not a valid IPv4 address.
    """
    if host.rstrip(".")[-1:] not in _NUMBER_END:  # fast exit for nearly every name
        return None
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if not (last.isascii() and (last.isdigit() or last[:2].lower() == "0x" and _hex_ok(last[2:]))):
        return None
    numbers = [_ipv4_number(text, p) for p in parts]
    if len(numbers) > 4 or any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        raise _fail(text, f"{host[:60]!r} ends in a number but is not a valid IPv4 address")
    value = numbers[-1] + sum(n << (8 * (3 - i)) for i, n in enumerate(numbers[:-1]))
    return ".".join(str((value >> shift) & 255) for shift in (24, 16, 8, 0))


def _hex_ok(digits: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in digits)


def _punycode(text: str, label: str) -> str:
    # Plain punycode, not idna.alabel: the standard runs UTS #46 with CheckHyphens off, so
    # labels like 'ü--' or '-ü' are hosts browsers open.
    try:
        return "xn--" + label.encode("punycode").decode("ascii")
    except UnicodeError as exc:
        raise _fail(text, f"host label {label[:60]!r} cannot be encoded ({exc})") from exc


def _ipv4_number(text: str, part: str) -> int:
    # int() alone would also take '-1', '+1', ' 1' and '1_0'; the standard takes digits only.
    if part[:2].lower() == "0x":
        digits, base, allowed = part[2:], 16, "0123456789abcdefABCDEF"
    elif len(part) > 1 and part.startswith("0"):
        digits, base, allowed = part[1:], 8, "01234567"
    else:
        digits, base, allowed = part, 10, "0123456789"
    if not part or not all(c in allowed for c in digits):
        raise _fail(text, f"IPv4 part {part[:20]!r} is not a number")
    return int(digits, base) if digits else 0


_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*:[/\\]{2})[^/?#\s\\]*@")
_SECRET_PARAM = re.compile(r"(?i)([?&;](?:password|passwd|pass|pwd|secret|token|access_token|auth|api_key|apikey|key|"
                           r"sig|signature)=)[^&#;\s]*")


def redact_credentials(text: str) -> str:
    """``text`` with the credentials of every URL in it replaced by ``***``: the userinfo
    (``redis://:PASS@host``) and the values of query parameters that carry secrets
    (``?password=``, ``token``, ``key``, ``sig``, ...).

    Example:
        >>> redact_credentials("cannot connect to http://user:s3cret@127.0.0.1:8080/v1")
        'cannot connect to http://***@127.0.0.1:8080/v1'
        >>> redact_credentials("redis://cache:6379/0?password=s3cret&db=1")
        'redis://cache:6379/0?password=***&db=1'
    """
    return _SECRET_PARAM.sub(r"\1***", _USERINFO.sub(r"\1***@", text))


def web_host(url: str) -> str:
    """The host browsers would connect to for ``url`` (lower-case ASCII, IPv6 without brackets).

    Raises:
        InvalidURLError: not an http(s) URL or bare host, or a host browsers refuse.
    """
    text = url.strip(_C0_SPACE)
    if "\t" in text or "\n" in text or "\r" in text:
        text = text.translate(_TAB_NEWLINE)
    host = split_host_port(url, authority(text))
    if not host:
        raise _fail(url, "no host found; pass a URL like 'https://example.org/page' or a host like 'example.org'")
    if host.startswith("["):
        return ipv6(url, host)
    name = domain_to_ascii(url, host)
    found = ipv4(url, name) if name else None
    return name if found is None else found


__all__ = ["WEB_SCHEMES", "authority", "domain_to_ascii", "ipv4", "ipv6", "redact_credentials", "split_host_port", "web_host"]
