"""URL evidence: what a page's address shows (referral links, shop and listing pages, depth, type).

Two kinds of feature, all 0/1 except the depth:

* **cues** (:data:`URL_CUES`), the page kinds of low-credibility pools: affiliate referral
  parameters (``?hop=``, ``?aff=``), shop / cart / product paths,
  tag / category / archive listings, dynamic database pages (``DisplayMonograph.asp?storeID=``,
  ``.php?id=``), print and AMP variants, hosting-platform sub-sites (``*.myshopify.com``) and
  keyword-stuffed domain names (``1cure4cancer.com``). Only :data:`LOW_URL_CUES` count as
  evidence (downwards); the others are shown in the breakdown.
* **shape** (:data:`URL_SHAPE`): path depth, query string, home page, file type (static page,
  script, PDF, none), ``.org`` and country-code suffixes.

Example:
    >>> feats = url_features("https://shop.example.com/product/x?hop=abc", "shop.example.com", "example.com")
    >>> sorted(name for name, why in feats.cues)
    ['u.referral', 'u.shop']
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from authorag.platforms import default_platforms

URL_CUES: dict[str, tuple[str, re.Pattern[str]]] = {
    "u.referral": ("affiliate referral parameter", re.compile(
        r"[?&;](?:hop|refid|aff|aff_?id|affiliate|affiliate_?id|clickid)=")),
    "u.shop": ("shop, cart or product page", re.compile(
        r"/(?:products?|shop|store|cart|checkout|buy|order|catalog|item)(?:[/._?-]|$)|productdetails|"
        r"_p/|shopexd|/dp/|add-to-cart|[?&]add-to-cart=")),
    "u.listing": ("tag, category or archive listing", re.compile(
        r"/(?:tags?|category|categories|archives?|author)(?:[/.?]|$)|/page/\d+/?$|[?&](?:cat|paged|tag)=|"
        r"/(?:19|20)\d\d/\d\d/?$")),
    "u.dynamic": ("dynamic database page", re.compile(
        r"displaymonograph|monograph\.asp|\.(?:asp|aspx|cfm|jsp|cgi)\?(?:.*&)?(?:id|storeid|productid|itemid)=|"
        r"\.php\?(?:.*&)?(?:id|p|productid)=\d")),
    "u.print": ("print or AMP variant", re.compile(r"[/?&](?:print|printer|amp)(?:[/=&.]|$)|/print/")),
}
"""URL cue -> (what it stands for, pattern over the lower-cased path and query)."""
HOSTED_CUE = "u.hosted"
STUFFED_CUE = "u.stuffed"
_STUFFED = re.compile(r"(?<!se)cure|miracle|remed(?:y|ies)|detox|secret|alkaliz|holistic|natural|heal(?!th)|herbal")
"""Domain-name words of the "miracle cure" sites (the registrable name only, not the suffix). A
domain name has no spaces, so the words are found inside others: ``health`` (a hospital's,
a health district's) and ``secure`` are other words, not ``heal`` and ``cure``."""
URL_SHAPE = ("u.depth", "u.query", "u.home", "u.static", "u.script", "u.pdf", "u.noext", "u.org", "u.cctld")
"""Shape features, in the order :func:`url_features` writes them."""
URL_FEATURES: tuple[str, ...] = (*URL_CUES, HOSTED_CUE, STUFFED_CUE, *URL_SHAPE)
"""The URL layer's feature names, in matrix column order."""
CUE_REASONS: dict[str, str] = {**{k: v[0] for k, v in URL_CUES.items()},
                               HOSTED_CUE: "sub-site of a hosting platform",
                               STUFFED_CUE: "cure words in the domain name"}
LOW_URL_CUES = frozenset({"u.referral", "u.stuffed"})
"""URL cues known to mean low credibility (affiliate links of sales pages, cure words in the
domain name): the only URL cues page evidence acts on. The others are read and shown, never
scored; none makes a page credible."""
_STATIC = frozenset({"htm", "html", "shtml", "xhtml"})
_SCRIPT = frozenset({"php", "asp", "aspx", "cfm", "jsp", "cgi", "pl"})
MAX_URL_CHARS = 2000
"""Characters of a URL looked at (longer ones are cut: tracking junk, not evidence)."""


@dataclass(frozen=True, slots=True)
class UrlFeatures:
    """The URL layer's reading of one candidate.

    Attributes:
        values: one value per :data:`URL_FEATURES` name.
        cues: the cues that fired, as (feature name, reason).
        has_path: the URL has a path or query beyond the host (a bare domain says little).
    """

    values: tuple[float, ...]
    cues: tuple[tuple[str, str], ...]
    has_path: bool


def split_path(url: str) -> tuple[str, str]:
    """The lower-cased path and query of ``url`` (no fragment), as ``(path, query)``.

    Example:
        >>> split_path("HTTP://a.com/A/B.HTML?X=1#top")
        ('/a/b.html', 'x=1')
    """
    start = url.find("://")
    rest = url[start + 3:] if start >= 0 else url
    slash = rest.find("/")
    qmark = rest.find("?")
    cut = min(i for i in (slash, qmark, len(rest)) if i >= 0)
    tail = rest[cut:MAX_URL_CHARS].split("#", 1)[0].lower()
    path, _, query = tail.partition("?")
    return path, query


_ANY_CUE = re.compile("|".join(f"(?:{rx.pattern})" for _, rx in URL_CUES.values()))
"""Every cue in one pattern: one search rules out the URLs no cue matches (most of them)."""


_INDEX = {name: i for i, name in enumerate(URL_FEATURES)}
_SHAPE_AT = _INDEX["u.depth"]


def url_features(url: str, host: str | None, domain: str | None, hosted: bool | None = None) -> UrlFeatures:
    """The URL layer's features of one candidate (never raises; an empty URL gives all zeros).

    ``hosted``: whether the page is user content on a hosting platform, when already known.
    """
    path, query = split_path(url) if url else ("", "")
    full = f"{path}?{query}" if query else path
    cues = [(name, why) for name, (why, rx) in URL_CUES.items() if rx.search(full)] \
        if full and _ANY_CUE.search(full) else []
    if host and domain and (hosted or _shop_site(host, domain) or (hosted is None and _hosted(url, host, domain))):
        cues.append((HOSTED_CUE, CUE_REASONS[HOSTED_CUE]))
    name, _, suffix = (domain or "").partition(".")
    if name and _STUFFED.search(name):
        cues.append((STUFFED_CUE, f"{CUE_REASONS[STUFFED_CUE]} ({name})"))
    values = [0.0] * _SHAPE_AT
    for cue, _ in cues:
        values[_INDEX[cue]] = 1.0
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    ext = last.rsplit(".", 1)[1] if "." in last else ""
    values += (min(len(segments), 6) / 6.0, float(bool(query)),
               float(not segments or last.startswith(("index.", "default.", "home."))),
               float(ext in _STATIC), float(ext in _SCRIPT), float(ext == "pdf"), float(bool(segments) and not ext),
               float(suffix == "org"), float(len(suffix.rsplit(".", 1)[-1]) == 2))
    return UrlFeatures(tuple(values), tuple(cues), bool(segments or query))


SHOP_PLATFORMS = frozenset({"myshopify.com", "bigcartel.com", "storenvy.com", "ecwid.com", "square.site"})
"""Shop-builder domains whose sub-domains are shops (not in the hosting-platform table, which is
about authority: a shop's sub-domain never inherits the builder's)."""


def _shop_site(host: str, domain: str) -> bool:
    """A shop on a shop builder (the public suffix list makes some builders suffixes: x.myshopify.com is a domain)."""
    owner, _, platform = domain.partition(".")
    return (domain in SHOP_PLATFORMS and host not in (domain, f"www.{domain}")) or bool(owner and platform in SHOP_PLATFORMS)


def _hosted(url: str, host: str, domain: str) -> bool:
    """A user sub-site on a hosting platform (official platform pages are not)."""
    hit = default_platforms().match(url, host, domain)
    return hit is not None and not hit.official


__all__ = ["CUE_REASONS", "LOW_URL_CUES", "MAX_URL_CHARS", "SHOP_PLATFORMS", "URL_CUES", "URL_FEATURES", "UrlFeatures", "split_path", "url_features"]
