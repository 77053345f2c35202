"""Hosting-platform layer: user content on a platform (a blogspot blog, a subreddit, a YouTube video).

The classifier talks to a *platform matcher*: any callable ``(host, domain, path) -> match | None``
whose match has ``platform``, ``owner``, ``content_type`` and ``official``, the shape of
``authorag.priors.platforms.match_platform`` (issue 11). :func:`builtin_match_platform` is a small
stand-in table used until that module is on main; pass ``platforms=`` to the classifier to use
another matcher. Only :func:`content_type_vote` knows how a platform content type maps to a source type.

Example:
    >>> m = builtin_match_platform("someone.blogspot.com", "someone.blogspot.com", "/2020/01/x.html")
    >>> m.platform, m.content_type
    ('blogspot.com', 'blog')
    >>> content_type_vote(m)[0]
    'blog'
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from authorag.suitability.cues import Vote
from authorag.suitability.taxonomy import SourceType


class HostedMatchLike(Protocol):
    """What the classifier reads from a platform match (``authorag.priors.platforms.HostedMatch``)."""

    @property
    def platform(self) -> str: ...
    @property
    def owner(self) -> str | None: ...
    @property
    def content_type(self) -> str: ...
    @property
    def official(self) -> bool: ...


PlatformMatcher = Callable[[str, str, str], HostedMatchLike | None]


@dataclass(frozen=True, slots=True)
class BuiltinHostedMatch:
    """A match of the built-in stand-in table."""

    platform: str
    owner: str | None
    content_type: str
    official: bool = False


# User sub-domains of a platform: <owner>.<platform>.
_SUBDOMAIN_PLATFORMS: dict[str, str] = {
    "blogspot.com": "blog", "wordpress.com": "blog", "tumblr.com": "blog", "substack.com": "blog",
    "livejournal.com": "blog", "typepad.com": "blog", "over-blog.com": "blog", "hashnode.dev": "blog",
    "medium.com": "blog", "wixsite.com": "site", "weebly.com": "site", "github.io": "site",
    "gitlab.io": "site", "netlify.app": "site", "vercel.app": "site", "pages.dev": "site",
    "neocities.org": "site", "fandom.com": "site", "gitbook.io": "document", "notion.site": "document",
    "readthedocs.io": "code",
}
# Content under a path of the platform's own host: (domain, path pattern, content type).
_PATH_PLATFORMS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("medium.com", re.compile(r"^/@([\w.-]+)"), "blog"),
    ("dev.to", re.compile(r"^/([\w-]+)/"), "blog"),
    ("reddit.com", re.compile(r"^/r/(\w+)"), "forum"),
    ("quora.com", re.compile(r"^/(?:profile/)?([\w-]+)"), "qa"),
    ("youtube.com", re.compile(r"^/(?:watch|shorts/|@([\w.-]+)|channel/([\w-]+)|c/([\w-]+))"), "video"),
    ("vimeo.com", re.compile(r"^/(\d+|[\w-]+)"), "video"),
    ("tiktok.com", re.compile(r"^/@([\w.-]+)"), "video"),
    ("twitter.com", re.compile(r"^/(\w+)"), "social"),
    ("x.com", re.compile(r"^/(\w+)"), "social"),
    ("facebook.com", re.compile(r"^/([\w.-]+)"), "social"),
    ("instagram.com", re.compile(r"^/([\w.-]+)"), "social"),
    ("linkedin.com", re.compile(r"^/pulse/([\w-]+)"), "blog"),
    ("linkedin.com", re.compile(r"^/(?:in|company)/([\w-]+)"), "social"),
    ("pinterest.com", re.compile(r"^/([\w-]+)"), "social"),
    ("github.com", re.compile(r"^/([\w.-]+)/[\w.-]+"), "code"),
    ("gitlab.com", re.compile(r"^/([\w.-]+)/[\w.-]+"), "code"),
    ("docs.google.com", re.compile(r"^/(document|spreadsheets|presentation)/"), "document"),
    ("sites.google.com", re.compile(r"^/(?:view|site)/([\w-]+)"), "site"),
    ("scribd.com", re.compile(r"^/(?:document|doc)/(\d+)"), "document"),
    ("slideshare.net", re.compile(r"^/([\w-]+)/"), "document"),
)


_PATH_BY_HOST: dict[str, list[tuple[re.Pattern[str], str]]] = {}
for _plat, _rx, _ctype in _PATH_PLATFORMS:
    _PATH_BY_HOST.setdefault(_plat, []).append((_rx, _ctype))


def builtin_match_platform(host: str, domain: str, path: str) -> BuiltinHostedMatch | None:
    """The stand-in matcher: user sub-domains and user paths on about 40 well-known platforms."""
    if not host.startswith("www."):
        parts = host.split(".")
        for n in (2, 3):  # dict lookups on the last labels: this runs per candidate
            if len(parts) > n:
                plat = ".".join(parts[-n:])
                ctype = _SUBDOMAIN_PLATFORMS.get(plat)
                if ctype is not None:
                    return BuiltinHostedMatch(plat, host[: -len(plat) - 1], ctype)
    bare = host.removeprefix("www.")
    bare = bare.removeprefix("m.")
    for rx, ctype in _PATH_BY_HOST.get(bare, ()):
        m = rx.match(path)
        if m is not None:
            owner = next((g for g in m.groups() if g), None)
            return BuiltinHostedMatch(bare, owner, ctype)
    return None


_CONTENT_TYPES: dict[str, tuple[SourceType, float]] = {
    "blog": ("blog", 0.85), "forum": ("forum", 0.85), "qa": ("forum", 0.85), "video": ("social", 0.85),
    "social": ("social", 0.85), "code": ("docs_code", 0.8), "site": ("blog", 0.45),
}


def content_type_vote(match: HostedMatchLike) -> Vote | None:
    """The platform layer's vote; None for official accounts and documents (they say nothing of type)."""
    if match.official:
        return None
    hit = _CONTENT_TYPES.get(match.content_type)
    if hit is None:
        return None
    owner = f" by {match.owner}" if match.owner else ""
    return hit[0], hit[1], "platform", f"{match.content_type} hosted on {match.platform}{owner}"


UrlMatcher = Callable[[str, str | None, str | None], HostedMatchLike | None]
"""A matcher of the shape ``match_platform(url, host, domain)``."""


def from_url_matcher(match: UrlMatcher) -> PlatformMatcher:
    """Adapt a ``match_platform(url, host, domain)``-shaped matcher to the classifier's shape.

    Example:
        >>> m = from_url_matcher(lambda url, host, domain: builtin_match_platform(host or "", domain or "",
        ...                                                                       url.split(host or "", 1)[1]))
        >>> m("someone.blogspot.com", "someone.blogspot.com", "/x").content_type
        'blog'
    """
    return lambda host, domain, path: match("https://" + host + path, host, domain)


def default_platform_matcher() -> PlatformMatcher:
    """The matcher used when none is passed (the built-in table for now)."""
    return builtin_match_platform


__all__ = ["BuiltinHostedMatch", "HostedMatchLike", "PlatformMatcher", "UrlMatcher", "builtin_match_platform",
           "content_type_vote", "default_platform_matcher", "from_url_matcher"]
