"""Allow/deny lists of domains with suffix wildcards.

Patterns: ``nih.gov`` matches that host and every sub-domain (``www.nih.gov``,
``pubmed.ncbi.nlm.nih.gov``); ``*.gov`` matches any host ending in ``.gov``; ``=example.org``
matches that exact host only; ``medium.com/@nytimes`` (a host and a path) matches that owner's
pages on a hosting platform only (``medium.com/@nytimes/...``, not ``medium.com/@someone``).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from authorag.domains import parse_host
from authorag.errors import ConfigError, InvalidURLError
from authorag.platforms import url_path
from authorag.types import Candidate


@dataclass(frozen=True, slots=True)
class DomainList:
    """A compiled list of domain patterns.

    Example:
        >>> dl = DomainList.compile(["*.gov", "who.int", "=example.org"])
        >>> dl.matches("www.cdc.gov"), dl.matches("apps.who.int"), dl.matches("a.example.org")
        (True, True, False)
    """

    suffixes: frozenset[str]
    exact: frozenset[str]
    owners: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def compile(cls, patterns: Iterable[str]) -> DomainList:
        """Compile patterns; raises :class:`ConfigError` naming a bad pattern."""
        suffixes: list[str] = []
        exact: set[str] = set()
        owners: list[tuple[str, str]] = []
        for raw in patterns:
            pat = raw.strip().lower()
            pat = pat.split("://", 1)[1] if "://" in pat else pat
            if "/" in pat.strip("/"):
                host, _, path = pat.partition("/")
                owners.append((_host_of(host, raw), "/" + path.strip("/")))
            elif pat.startswith("="):
                exact.add(_host_of(pat[1:], raw))
            elif pat.startswith("*."):
                tail = pat[2:].strip(".")
                if not tail or "*" in tail:
                    raise ConfigError(f"bad domain pattern {raw!r}: use '*.gov', 'nih.gov' or '=host.org'")
                suffixes.append(tail)
            else:
                host = _host_of(pat, raw)
                exact.add(host)
                suffixes.append(host)
        return cls(frozenset(suffixes), frozenset(exact), frozenset(owners))

    def matches(self, host: str | None) -> bool:
        """True when ``host`` (a normalized host) matches any pattern."""
        if not host:
            return False
        if host in self.exact:
            return True
        if not self.suffixes:
            return False
        # the host and each parent domain: one set lookup per label, however long the list
        return host in self.suffixes or any(host[i + 1:] in self.suffixes for i, c in enumerate(host) if c == ".")

    def matches_candidate(self, candidate: Candidate) -> bool:
        """Match on the candidate's host (falls back to its registrable domain), or on an owner
        pattern's host and path prefix."""
        if self.matches(candidate.host) or self.matches(candidate.domain):
            return True
        if not self.owners or not candidate.host:
            return False
        host = candidate.host.removeprefix("www.")
        path = url_path(candidate.url)
        # the path and each parent path, looked up with the host: one set lookup per segment
        if (host, path) in self.owners:
            return True
        return any((host, path[:i]) in self.owners for i, c in enumerate(path) if c == "/" and i > 0)

    def __bool__(self) -> bool:
        return bool(self.suffixes or self.exact or self.owners)


def _host_of(pattern: str, raw: str) -> str:
    if "*" in pattern:
        raise ConfigError(f"bad domain pattern {raw!r}: a wildcard may only lead, as in '*.gov'")
    try:
        parsed = parse_host(pattern)
    except InvalidURLError as exc:
        raise ConfigError(f"bad domain pattern {raw!r}: {exc.reason}") from exc
    assert parsed.host is not None
    return parsed.host.removeprefix("www.")
