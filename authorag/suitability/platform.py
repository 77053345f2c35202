"""Hosting-platform layer: user content on a platform (a blogspot blog, a subreddit, a YouTube video).

The classifier talks to a *platform matcher*: a callable ``(host, domain, path) -> match | None``
whose match has ``platform``, ``owner``, ``content_type`` and ``official``. The default wraps
:func:`authorag.platforms.match_platform` (the shipped ``hosting_platforms.csv``, the same
table the authority tiers use), so the two never disagree about what is hosted content. Pass
``platforms=`` to the classifier for another matcher; :func:`from_url_matcher` adapts one of the
``match_platform(url, host, domain)`` shape. Only :func:`content_type_vote` knows how a platform
content type maps to a source type.

Example:
    >>> m = default_platform_matcher()("someone.blogspot.com", "someone.blogspot.com", "/2020/01/x.html")
    >>> m.platform, m.content_type
    ('blogspot.com', 'blog')
    >>> content_type_vote(m)[0]
    'blog'
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from authorag.platforms import match_platform
from authorag.suitability.cues import Vote
from authorag.suitability.taxonomy import SourceType


class HostedMatchLike(Protocol):
    """What the classifier reads from a platform match (``authorag.platforms.HostedMatch``)."""

    @property
    def platform(self) -> str: ...
    @property
    def owner(self) -> str | None: ...
    @property
    def content_type(self) -> str: ...
    @property
    def official(self) -> bool: ...


PlatformMatcher = Callable[[str, str, str], HostedMatchLike | None]
"""``(host, domain, lower-cased path) -> match | None``."""

UrlMatcher = Callable[[str, str | None, str | None], HostedMatchLike | None]
"""A matcher of the shape ``match_platform(url, host, domain)``."""


def from_url_matcher(match: UrlMatcher) -> PlatformMatcher:
    """Adapt a ``match_platform(url, host, domain)``-shaped matcher to the classifier's shape.

    Example:
        >>> m = from_url_matcher(match_platform)
        >>> m("www.reddit.com", "reddit.com", "/r/askdocs/comments/abc/x").owner
        'reddit.com/r/askdocs'
    """
    return lambda host, domain, path: match("https://" + host + path, host, domain)


_CONTENT_TYPES: dict[str, tuple[SourceType, float]] = {
    "blog": ("blog", 0.85), "forum": ("forum", 0.85), "qa": ("forum", 0.85), "video": ("social", 0.85),
    "social": ("social", 0.85), "code": ("docs_code", 0.8), "site": ("blog", 0.45),
}
"""Platform content type -> (source type, vote weight). ``document`` says nothing of the publisher
(a PDF on a file host can be anything), so it gives no vote; ``site`` (a site builder) leans blog."""


def content_type_vote(match: HostedMatchLike) -> Vote | None:
    """The platform layer's vote; None for a platform's official pages and for documents."""
    if match.official:
        return None
    hit = _CONTENT_TYPES.get(match.content_type)
    if hit is None:
        return None
    owner = f" by {match.owner}" if match.owner else ""
    return hit[0], hit[1], "platform", f"{match.content_type} hosted on {match.platform}{owner}"


def default_platform_matcher() -> PlatformMatcher:
    """The shipped hosting-platform table (:mod:`authorag.platforms`) as a matcher."""
    return from_url_matcher(match_platform)


__all__ = ["HostedMatchLike", "PlatformMatcher", "UrlMatcher", "content_type_vote", "default_platform_matcher",
           "from_url_matcher"]
