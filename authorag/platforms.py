"""Hosting platforms, the table of the ``hosted`` tier: a blog on wordpress.com is not wordpress.com.

Platforms such as wordpress.com, medium.com, reddit.com or youtube.com host pages that anyone
can publish. Their own link authority is huge, and a domain table credits it to every page they
host: a personal ``johndoe.wordpress.com`` blog would score like wordpress.com itself. The
shipped data file ``authorag/data/hosting_platforms.csv`` (hand-compiled, documented in
``data/provenance/hosting_platforms.md``) says, per platform, where the owner of a page sits in
its URL (a sub-domain, a path segment, or "every page under this path is user content"), and
which sub-domains and first path segments are the platform's own pages (``medium.com/about``,
``support.google.com`` is not on a hosted host at all).

:func:`match_platform` answers for one URL: not on a platform (None), the platform's own page
(``official=True``) or a user's page (``official=False``, with the owner when the URL names
one: ``johndoe.wordpress.com``, ``medium.com/@john``, ``reddit.com/r/askdocs``). On a site in
no platform table, or on a host of a platform that no rule names (``www.yomiuri.co.jp``, whose
forum is ``komachi.yomiuri.co.jp``), a forum's posts are user content too (:func:`forum_page`:
``forum.doctissimo.fr``, ``www.doctissimo.fr/forum/…``, ``…/viewtopic.php``).

Example:
    >>> match_platform("https://johndoe.wordpress.com/x")
    HostedMatch(platform='wordpress.com', owner='johndoe.wordpress.com', content_type='blog', official=False)
    >>> match_platform("https://medium.com/about").official
    True
    >>> match_platform("https://www.nih.gov/") is None
    True
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal, get_args

from authorag.domains import parse_host
from authorag.errors import ConfigError
from authorag.types import Candidate

ContentType = Literal["blog", "forum", "qa", "video", "social", "document", "code", "site"]
OwnerAt = Literal["subdomain", "path", "page"]
PLATFORMS_FILE = "hosting_platforms.csv"

OFFICIAL_SUBDOMAINS: frozenset[str] = frozenset({
    "www", "m", "mobile", "support", "help", "about", "developer", "developers", "docs", "api",
    "status", "business", "ads", "newsroom", "press", "investor", "investors", "careers", "jobs",
    "legal", "policies", "privacy", "login", "accounts", "account", "auth", "app", "apps",
    "store", "security", "static", "cdn", "mail", "community",
})
"""Sub-domains that belong to the platform itself on every sub-domain platform."""

OFFICIAL_SEGMENTS: frozenset[str] = frozenset({
    "", "about", "help", "support", "legal", "policies", "policy", "privacy", "terms", "tos",
    "careers", "jobs", "press", "newsroom", "company", "contact", "security", "pricing",
    "features", "enterprise", "business", "developers", "developer", "docs", "status", "login",
    "signup", "register", "settings", "blog", "index.html", "robots.txt", "sitemap.xml",
})
"""First path segments that are the platform's own pages on every path platform."""

FORUM_LABELS: frozenset[str] = frozenset({
    "forum", "forums", "foro", "foros", "boards", "discuss", "discussion", "discussions",
    "community", "communities", "communaute", "comunidad", "answers",
})
"""Sub-domain names under which any site hosts its users' posts (``forum.example.fr``,
``community.example.com``, ``foro.example.es``): a page there is user content on that site, as on a
hosting platform, though the site is in no platform table (its own pages keep their value)."""

FORUM_SEGMENTS: frozenset[str] = frozenset({"forum", "forums", "foro", "foros", "discuss", "discussions", "threads"})
"""First path segments under which any site hosts its users' posts (``/forum/``, ``/foro/``, and
``threads``, where XenForo puts its threads), also after a language code (``/fr/forum/``,
``/en-us/forums/``); a first segment ``forum-…`` (``/forum-sante/``) counts too. Only the first:
deeper in a path the word names a page about a forum (``ec.europa.eu/info/…/forum``), not a
forum. Narrower than :data:`FORUM_LABELS`: as a path, ``community`` and ``answers`` name a
site's own pages as often as its users' (``python.org/community/``, ``mozilla.org/en-US/community/``)
and ``boards`` a board of governors."""

FORUM_SCRIPTS: frozenset[str] = frozenset({"showthread.php", "viewtopic.php", "viewthread.php"})
"""Thread pages of the common forum engines (vBulletin, phpBB, Discuz!), wherever they sit in the
path; a Simple Machines thread (``index.php?topic=``) counts too."""

_LANGUAGE_CODE = re.compile(r"[a-z]{2}(?:[-_][a-z]{2})?")
"""A language or country code as a path segment before a site's sections (``fr``, ``en-us``,
``pt_br``) or as the host label of a site's edition (``fr.quora.com``, ``pt-br.quora.com``)."""


@dataclass(frozen=True, slots=True)
class HostedMatch:
    """Where a URL sits on a hosting platform.

    Attributes:
        platform: the platform's registrable domain (or private suffix, ``blogspot.com``).
        owner: the owner's key (``johndoe.wordpress.com``, ``medium.com/@john``), None when the
            URL names no owner (``youtube.com/watch?v=...``) or the page is the platform's own.
        content_type: what the platform hosts there (``blog``, ``forum``, ``video``...).
        official: True for the platform's own pages (they keep the platform's authority).
    """

    platform: str
    owner: str | None
    content_type: str
    official: bool


@dataclass(frozen=True, slots=True)
class PlatformRule:
    """One row of the platforms file (see its header for the columns)."""

    platform: str
    host: str
    owner_at: OwnerAt
    prefix: str
    content_type: ContentType
    official: frozenset[str]

    def __post_init__(self) -> None:
        if self.owner_at not in get_args(OwnerAt):
            raise ConfigError(f"platform rule {self.platform}: owner_at must be one of {get_args(OwnerAt)}, got {self.owner_at!r}")
        if self.content_type not in get_args(ContentType):
            raise ConfigError(f"platform rule {self.platform}: content_type must be one of {get_args(ContentType)}, "
                              f"got {self.content_type!r}")
        if self.owner_at != "subdomain" and not self.prefix.startswith("/"):
            raise ConfigError(f"platform rule {self.platform}: a {self.owner_at} rule needs a prefix starting with '/', "
                              f"got {self.prefix!r}")


class PlatformIndex:
    """Platform rules indexed by platform domain; :meth:`match` reads one URL.

    Example:
        >>> idx = PlatformIndex([PlatformRule("example-host.com", "*", "subdomain", "", "blog", frozenset())])
        >>> idx.match("https://ann.example-host.com/post").owner
        'ann.example-host.com'
    """

    def __init__(self, rules: Iterable[PlatformRule]) -> None:
        by_platform: dict[str, list[PlatformRule]] = {}
        for rule in rules:
            by_platform.setdefault(rule.platform, []).append(rule)
        # Host-specific rules first, then longer path prefixes, then sub-domain rules.
        self._rules: Mapping[str, tuple[PlatformRule, ...]] = {
            p: tuple(sorted(rs, key=lambda r: (r.host == "*", r.owner_at == "subdomain", -len(r.prefix))))
            for p, rs in by_platform.items()}
        self._user_domains = frozenset(p for p, rs in self._rules.items() if any(r.host in ("*", p) for r in rs))

    def __len__(self) -> int:
        return len(self._rules)

    @property
    def platforms(self) -> tuple[str, ...]:
        """Platform domains known to the index."""
        return tuple(self._rules)

    @property
    def user_domains(self) -> frozenset[str]:
        """Platform domains whose own host carries user content: a rule covers any host (``*``) or
        the platform's own name. A rating of such a domain (reddit.com) says nothing of its users'
        pages. A platform whose rules name only other hosts of it (yomiuri.co.jp: its forum on
        ``komachi.yomiuri.co.jp``) is a publisher whose rating is of its own pages.

        Example:
            >>> idx = PlatformIndex([PlatformRule("news.example", "forum.news.example", "page", "/", "forum", frozenset()),
            ...                      PlatformRule("posts.example", "*", "page", "/t/", "forum", frozenset())])
            >>> sorted(idx.user_domains)
            ['posts.example']
        """
        return self._user_domains

    def platform_of(self, host: str | None, domain: str | None) -> str | None:
        """The platform a host is on (its registrable domain, or the private suffix above it)."""
        if not domain or not host:
            return None
        if domain in self._rules:
            return domain
        parent = domain.split(".", 1)[1] if "." in domain else ""
        return parent if parent in self._rules else None

    def match(self, url: str, host: str | None = None, domain: str | None = None) -> HostedMatch | None:
        """Where ``url`` sits on a platform (None when its host is on none); see the module doc."""
        if host is None or domain is None:
            parsed = parse_host(url, strict=False)
            host, domain = parsed.host, parsed.domain
        platform = self.platform_of(host, domain)
        if platform is None or host is None:
            return forum_page(url, host, domain)
        bare = host[4:] if host.startswith("www.") else host
        edition = language_edition(bare)
        path = url_path(url)
        on_host = False
        for rule in self._rules[platform]:
            if rule.host != "*" and rule.host not in (bare, edition):
                continue
            on_host = True
            hit = _apply(rule, platform, bare if rule.host == "*" else rule.host, path)
            if hit is not None:
                return hit
        return HostedMatch(platform, None, "", True) if on_host else forum_page(url, host, domain)


def language_edition(host: str) -> str:
    """``host`` without a leading language or country label (``fr.quora.com`` is quora.com in
    French, ``es.answers.yahoo.com`` answers.yahoo.com in Spanish), or ``host`` itself. A rule
    written for one host (every page of quora.com is a question users wrote) holds for its
    editions too.

    Example:
        >>> language_edition("es.answers.yahoo.com"), language_edition("fr.quora.com"), language_edition("quora.com")
        ('answers.yahoo.com', 'quora.com', 'quora.com')
    """
    first, _, rest = host.partition(".")
    return rest if "." in rest and _LANGUAGE_CODE.fullmatch(first) else host


def forum_page(url: str, host: str | None, domain: str | None) -> HostedMatch | None:
    """A user's post on any site (the site's own pages keep their value), else None: a page on a
    sub-domain of ``domain`` named for its users' posts (:data:`FORUM_LABELS`, the label just above
    the registrable domain), under a first path segment that names a forum (:data:`FORUM_SEGMENTS`),
    or a forum engine's thread page (:data:`FORUM_SCRIPTS`).

    Example:
        >>> forum_page("https://forum.doctissimo.fr/x", "forum.doctissimo.fr", "doctissimo.fr")
        HostedMatch(platform='doctissimo.fr', owner=None, content_type='forum', official=False)
        >>> forum_page("https://www.doctissimo.fr/fr/forum/x", "www.doctissimo.fr", "doctissimo.fr").platform
        'doctissimo.fr'
        >>> forum_page("https://www.doctissimo.fr/sante/forum/x", "www.doctissimo.fr", "doctissimo.fr") is None
        True
    """
    if not host or not domain or (host != domain and not host.endswith("." + domain)):
        return None
    hit = (host != domain and _label_above(host, domain) in FORUM_LABELS) or _forum_path(url)
    return HostedMatch(domain, None, "forum", False) if hit else None


def _forum_path(url: str) -> bool:
    """Whether ``url``'s path is a forum's (:data:`FORUM_SEGMENTS`) or a thread page (:data:`FORUM_SCRIPTS`)."""
    segments = url_path(url)[1:].split("/")
    first = segments[1] if len(segments) > 1 and _LANGUAGE_CODE.fullmatch(segments[0]) else segments[0]
    if first in FORUM_SEGMENTS or first.startswith("forum-"):
        return True
    last = segments[-1]
    if last in FORUM_SCRIPTS:
        return True
    query = url.partition("#")[0].partition("?")[2].lower()
    return last == "index.php" and any(p.startswith("topic=") for p in re.split(r"[&;]", query))


def _label_above(host: str, parent: str) -> str:
    """The label of ``host`` just above ``parent``, a domain it is a sub-domain of (``ann`` of
    ``www.ann.example.com`` above ``example.com``)."""
    return host[: -len(parent) - 1].rsplit(".", 1)[-1]


def _apply(rule: PlatformRule, platform: str, host: str, path: str) -> HostedMatch | None:
    if rule.owner_at == "subdomain":
        if host == platform:
            return None
        label = _label_above(host, platform)
        if label in OFFICIAL_SUBDOMAINS or label in rule.official:
            return HostedMatch(platform, None, rule.content_type, True)
        return HostedMatch(platform, f"{label}.{platform}", rule.content_type, False)
    if not path.startswith(rule.prefix):
        return None
    first = path[1:].split("/", 1)[0]
    if rule.prefix == "/" and (first in OFFICIAL_SEGMENTS or first in rule.official):
        return HostedMatch(platform, None, rule.content_type, True)
    segment = path[len(rule.prefix):].split("/", 1)[0]
    if rule.owner_at == "page":
        return HostedMatch(platform, None, rule.content_type, False)
    if not segment:
        return None
    if segment in rule.official:
        return HostedMatch(platform, None, rule.content_type, True)
    where = platform if rule.host == "*" else rule.host
    return HostedMatch(platform, f"{where}{rule.prefix}{segment}", rule.content_type, False)


def url_path(url: str) -> str:
    """The lower-case path of a URL (``/`` when it has none), without query or fragment.

    Example:
        >>> url_path("https://Medium.com/@John/Post?x=1#y"), url_path("medium.com")
        ('/@john/post', '/')
    """
    text = url.strip()
    start = text.find("://")
    start = start + 3 if 0 < start <= 10 else 0
    end = len(text)
    for ch in "?#":
        pos = text.find(ch, start)
        if 0 <= pos < end:
            end = pos
    slash = text.find("/", start, end)
    return text[slash:end].lower() if slash >= 0 else "/"


def parse_rules(text: str, source: str = PLATFORMS_FILE) -> list[PlatformRule]:
    """Rules from the CSV text of a platforms file.

    Raises:
        ConfigError: a malformed row, naming the file, the line and the problem.
    """
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    rules: list[PlatformRule] = []
    for n, row in enumerate(csv.DictReader(io.StringIO("\n".join(lines))), start=2):
        try:
            rules.append(PlatformRule(row["platform"].strip().lower(), (row["host"] or "*").strip().lower(),
                                      row["owner_at"].strip(),  # type: ignore[arg-type]  # validated
                                      (row["prefix"] or "").strip().lower(),
                                      row["content_type"].strip(),  # type: ignore[arg-type]  # validated
                                      frozenset(s for s in (row["official"] or "").lower().split("|") if s)))
        except (KeyError, AttributeError) as exc:
            raise ConfigError(f"{source}: row {n} (after comments) is missing a column ({exc}); "
                              "columns: platform,host,owner_at,prefix,content_type,official") from exc
        except ConfigError as exc:
            raise ConfigError(f"{source}: row {n} (after comments): {exc}") from exc
    return rules


@cache
def default_platforms() -> PlatformIndex:
    """The shipped platform index (loaded once per process)."""
    text = resources.files("authorag.data").joinpath(PLATFORMS_FILE).read_text(encoding="utf-8")
    return PlatformIndex(parse_rules(text))


USER_CONTENT: frozenset[str] = frozenset({"forum", "qa", "social", "video"})
"""Content types of a hosting platform whose user pages are posts (:func:`user_post`): a user writes
them in a thread or a feed, not as a page of their own."""


def user_post(c: Candidate) -> bool:
    """Whether ``c`` is a user's page on a forum, Q&A, social or video platform (:data:`USER_CONTENT`).

    Example:
        >>> user_post(Candidate.create("https://www.reddit.com/r/travel/comments/1k2j3h4/comment/m5n6b7v/"))
        True
        >>> user_post(Candidate.create("https://johndoe.wordpress.com/x")), user_post(Candidate.create("https://www.nih.gov/"))
        (False, False)
    """
    hit = match_platform(c.url, c.host, c.domain)
    return hit is not None and not hit.official and hit.content_type in USER_CONTENT


def match_platform(url: str, host: str | None = None, domain: str | None = None) -> HostedMatch | None:
    """:meth:`PlatformIndex.match` on the shipped platforms (see the module doc)."""
    return default_platforms().match(url, host, domain)


__all__ = ["ContentType", "FORUM_LABELS", "FORUM_SCRIPTS", "FORUM_SEGMENTS", "HostedMatch", "OFFICIAL_SEGMENTS",
           "OFFICIAL_SUBDOMAINS", "PlatformIndex", "PlatformRule", "USER_CONTENT", "default_platforms", "forum_page",
           "language_edition", "match_platform", "parse_rules", "url_path", "user_post"]
