"""TieredAuthority: the ``reserved`` and ``hosted`` tiers in front of the table and beyond.

Domain tables credit a page with its registrable domain's authority. Two kinds of page break
that: special-use names and addresses (``site77.example.com`` would inherit ``example.com``'s
web-head rank; ``10.0.0.1`` has no publisher), and user content on hosting platforms
(``johndoe.wordpress.com`` is not wordpress.com). :class:`TieredAuthority` answers those first
(tiers ``reserved`` and ``hosted``) and hands every other candidate to the inner scorer (the
prior table, or the hybrid table → learned prior → judge). It also applies the documented rule
for sub-domains a table does not list itself (``subdomains``). A post in a site's own forum
(:func:`~authorag.platforms.forum_page`) takes the ``hosted`` answer only where that is below the
site's: a user's post is never trusted more than its site.

Example:
    >>> from authorag.priors.table import load_prior
    >>> from authorag.types import candidates_from
    >>> scorer = TieredAuthority(load_prior())
    >>> [d.tier for d in scorer.score(candidates_from(
    ...     ["https://www.nih.gov/", "https://johndoe.wordpress.com/x", "https://site77.example.com/"]))]
    ['table', 'hosted', 'reserved']
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from authorag.bounded import BoundedDict
from authorag.errors import ConfigError
from authorag.evidence.tier import PageEvidence
from authorag.platforms import HostedMatch, PlatformIndex, default_platforms
from authorag.priors.base import AuthorityScorer, prior_stores_of
from authorag.priors.lookalike import IMPERSONATION, LOOKALIKE_CREDIBILITY, LookalikeIndex, default_index
from authorag.suitability.classifier import split_url
from authorag.suitability.cues import path_votes, strongest
from authorag.tiers.reserved import maybe_special, special_host
from authorag.trust import trust_rule_for
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate, SourceValue
from authorag.validation import check_choice, check_unit

SubdomainRule = Literal["inherit", "discount"]
DEFAULT_HOSTED_AUTHORITY = 0.4
"""Authority of a user's page on a hosting platform: a little above the unknown level (0.3), far
below the platform's own pages. Chosen by measurement (docs/priors.md, "Choosing the default";
``benchmarks/results/default/``): 0.4 is the lowest tried value at least as good as table +
constant on every track; 0.2 and 0.3 fall below it on tail-trec2019 (LE rho)."""
HOSTED_CONFIDENCE = 0.5
SUBDOMAIN_DISCOUNT = 0.5
"""Under ``subdomains="discount"``: share of the parent's distance from the unknown level kept."""
PAGE_TYPE_DISCOUNT = 0.5
"""Under ``source_type_adjust``: share of the domain's distance above the unknown level a shop or
forum page keeps (the same shrink as ``subdomains="discount"``; not fitted)."""
CLAIMS_CHECKED_ON = ("blog", "site", "code", "document", "forum", "qa")
"""Content types whose account names are read for a claimed institution (``medium.com/@who-official``,
``cdc-gov.github.io``). Social and video accounts are not: institutions run accounts there under
their own names, and the platform's verification, which the URL does not show, tells them apart."""
PAGE_TYPES_ADJUSTED = ("commercial", "forum")
"""Page-level source types (from URL path cues: ``/product/``, ``/shop/``, ``/questions/``...) whose
authority is not the domain's: a vendor's product page or a forum thread on a well-linked domain."""


_MISS = object()
_MEMO_SIZE = 50_000
_MEMO_KEY_CHARS = 512
"""``reserved``/``hosted`` answers are remembered per URL (at most 50k URLs of at most 512 characters: ~40 MB)."""


class TieredAuthority:
    """An :class:`AuthorityScorer` that answers reserved names and hosted pages itself.

    Args:
        inner: the scorer for every other candidate (table, hybrid...).
        reserved: give special-use names and IP literals the ``reserved`` tier (no value).
        platforms: the hosting-platform index; None disables the ``hosted`` tier.
        hosted_authority: the value of a user's page on a platform, in [0, 1].
        subdomains: ``"inherit"`` (a host the table does not list takes its registrable
            domain's value) or ``"discount"`` (it keeps only part of the parent's distance from
            the unknown level, with half the confidence).
        unknown_level: the level ``discount`` shrinks towards (the reranker's unknown value).
        source_type_adjust: scale a shop or forum page's authority (a URL path cue of
            :mod:`authorag.suitability.cues`) towards ``unknown_level`` when its domain's value is
            above it; the note says why. Off by default (benchmarks/results/default/).
        lookalikes: the look-alike index whose institution names an account's handle is checked
            against (:mod:`authorag.priors.lookalike`); None turns the check off.
        page: the page-evidence tier (:class:`~authorag.evidence.tier.PageEvidence`): adds a
            credibility estimate from the page's URL and text to every candidate the other tiers
            leave without one and no table knows (tier ``page`` when it was unknown). Off by
            default (benchmarks/results/page_evidence/).

    Raises:
        ConfigError: a value outside its range.
    """

    def __init__(self, inner: AuthorityScorer, *, reserved: bool = True,
                 platforms: PlatformIndex | None | Literal["default"] = "default",
                 hosted_authority: float = DEFAULT_HOSTED_AUTHORITY, subdomains: SubdomainRule = "inherit",
                 unknown_level: float = UNKNOWN_LEVEL, name: str | None = None,
                 source_type_adjust: bool = False, page: PageEvidence | None = None,
                 lookalikes: LookalikeIndex | None | Literal["default"] = "default") -> None:
        check_unit("hosted_authority", hosted_authority)
        check_choice("subdomains", subdomains, ("inherit", "discount"))
        self.inner = inner
        self.reserved = reserved
        self.platforms = default_platforms() if platforms == "default" else platforms
        self.hosted_authority = hosted_authority
        self.subdomains: SubdomainRule = subdomains
        self.unknown_level = unknown_level
        self.source_type_adjust = source_type_adjust
        self.page = page
        self._lookalikes: LookalikeIndex | None | Literal["default"] = lookalikes
        self.name = name if name is not None else self._default_name()
        self._memo: BoundedDict[str, object] = BoundedDict(_MEMO_SIZE)

    @property
    def lookalikes(self) -> LookalikeIndex | None:
        """The index account names are checked against: the inner prior table's (so a table that
        leaves a source out does not see it through the index), else the shipped one; resolved
        on first use."""
        if self._lookalikes == "default":
            from authorag.priors.table import PriorTable

            table = next((t for t in (self.inner, getattr(self.inner, "table", None)) if isinstance(t, PriorTable)),
                         None)
            self._lookalikes = default_index() if table is None else table.lookalikes
        return self._lookalikes

    @property
    def prior_stores(self) -> dict[str, dict[str, Any]]:
        """The prior stores the inner scorer reads (:func:`~authorag.priors.base.prior_stores_of`)."""
        return prior_stores_of(self.inner)

    def _default_name(self) -> str:
        parts = ["reserved"] if self.reserved else []
        parts += ["hosted"] if self.platforms is not None else []
        return ">".join([*parts, getattr(self.inner, "name", "inner"), *(["page"] if self.page is not None else [])])

    def front(self, candidate: Candidate) -> AuthorityDetail | None:
        """The ``reserved`` or ``hosted`` answer for one candidate, or None when the inner scorer should answer.

        A candidate without a URL gets :data:`NO_URL`: no tier is asked about nothing.
        """
        if not candidate.url:
            return NO_URL
        if self.reserved and maybe_special(candidate.domain):
            why = special_host(candidate.url) if candidate.url else None
            if why is not None:
                return AuthorityDetail(None, 0.0, "reserved", matched=candidate.host, note=f"{why}: never a table value")
        if self.platforms is not None and candidate.domain is not None:
            hit = self.platforms.match(candidate.url, candidate.host, candidate.domain)
            if hit is not None and not hit.official:
                return self._hosted(hit, self._site_credibility(candidate))
        return None

    def _site_credibility(self, candidate: Candidate) -> tuple[SourceValue, ...]:
        found = getattr(self.inner, "host_credibility", None)
        return () if found is None or candidate.host is None else found(candidate.host, candidate.domain)

    def _hosted(self, hit: HostedMatch, credibility: tuple[SourceValue, ...] = ()) -> AuthorityDetail:
        owner = f", owner {hit.owner}" if hit.owner else ""
        note = f"user content ({hit.content_type}) on {hit.platform}{owner}: the platform's authority is not the page's"
        source = SourceValue(f"hosted.{hit.content_type}", self.hosted_authority, hit.platform)
        claim = self._claim(hit)
        if claim is not None:
            credibility = (*credibility, claim)
            note += f"; impersonation risk: the account name claims {claim.raw} (no lift from the claim)"
        cred = sum(s.value for s in credibility) / len(credibility) if credibility else None
        return AuthorityDetail(self.hosted_authority, HOSTED_CONFIDENCE, "hosted", (source,), cred, credibility,
                               matched=hit.owner or hit.platform, note=note)

    def _claim(self, hit: HostedMatch) -> SourceValue | None:
        """The ``impersonation`` value of an account whose name claims a known institution."""
        if self.lookalikes is None or not hit.owner or hit.content_type not in CLAIMS_CHECKED_ON:
            return None
        handle = hit.owner.removesuffix("." + hit.platform).rsplit("/", 1)[-1]
        found = self.lookalikes.brand_claim(handle, glued=False)
        return None if found is None else SourceValue(IMPERSONATION, LOOKALIKE_CREDIBILITY, found.imitates)

    def _front_cached(self, candidate: Candidate) -> AuthorityDetail | None:
        key = candidate.url
        hit = self._memo.get(key, _MISS)
        if hit is _MISS:
            hit = self.front(candidate)
            if len(key) <= _MEMO_KEY_CHARS:
                self._memo.put(key, hit)
        return hit  # type: ignore[return-value]  # _MISS never escapes

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """One detail per candidate (``AuthorityScorer`` protocol)."""
        out: list[AuthorityDetail | None] = [self._front_cached(c) for c in candidates]
        forums = self._site_forums(candidates, out)
        todo = [i for i, d in enumerate(out) if d is None or i in forums]
        if todo:
            inner = self.inner.score([candidates[i] for i in todo] if len(todo) < len(candidates) else candidates)
            if len(inner) != len(todo):
                raise ConfigError(f"scorer {getattr(self.inner, 'name', '?')!r} returned {len(inner)} results "
                                  f"for {len(todo)} candidates")
            for i, detail in zip(todo, inner):
                detail = self._subdomain(candidates[i], detail)
                hosted = out[i]
                if hosted is not None:  # a post in the site's own forum
                    out[i] = self._forum_post(hosted, detail)
                    continue
                out[i] = self._page_type(candidates[i], detail) if self.source_type_adjust else detail
        details = [d for d in out if d is not None]
        return details if self.page is None else self.page.fill(candidates, details)

    def _site_forums(self, candidates: Sequence[Candidate], out: Sequence[AuthorityDetail | None]) -> set[int]:
        """The candidates the ``hosted`` tier answered as posts in a site's own forum
        (:func:`~authorag.platforms.forum_page`: the site is on no hosting platform)."""
        if self.platforms is None:
            return set()
        return {i for i, (c, d) in enumerate(zip(candidates, out))
                if d is not None and d.tier == "hosted" and self.platforms.platform_of(c.host, c.domain) is None}

    def _forum_post(self, hosted: AuthorityDetail, site: AuthorityDetail) -> AuthorityDetail:
        """A post in a site's forum: the ``hosted`` answer when it is below what the site's own
        pages earn (trust by :func:`~authorag.trust.trust_rule_for` at the unknown level), else the
        site's detail: a user's post is never trusted more than its site (an unknown site's forum
        stays unknown, a known-unreliable site's keeps its low value)."""
        rule = trust_rule_for(self.unknown_level)
        if rule.value(hosted) < rule.value(site):
            return hosted
        why = f"user content (forum) on {hosted.matched}: no more than its site's value"
        return dataclasses.replace(site, note="; ".join(n for n in (site.note, why) if n))

    def _subdomain(self, cand: Candidate, detail: AuthorityDetail) -> AuthorityDetail:
        if self.subdomains == "inherit" or detail.tier != "table" or detail.authority is None:
            return detail
        host = cand.host or ""
        bare = host[4:] if host.startswith("www.") else host
        if not detail.matched or detail.matched == bare:
            return detail
        return self._towards_unknown(
            detail, SUBDOMAIN_DISCOUNT, f"sub-domain {bare} not in the table; {detail.matched}'s "
            f"{detail.authority:.3f} discounted", confidence=detail.confidence * SUBDOMAIN_DISCOUNT)

    def _page_type(self, cand: Candidate, detail: AuthorityDetail) -> AuthorityDetail:
        if detail.authority is None or detail.authority <= self.unknown_level or not cand.url:
            return detail
        vote = strongest([v for v in path_votes(split_url(cand.url)) if v[0] in PAGE_TYPES_ADJUSTED])
        if vote is None:
            return detail
        return self._towards_unknown(detail, PAGE_TYPE_DISCOUNT, f"{vote[0]} page ({vote[3]}) on "
                                     f"{detail.matched or cand.domain}: the domain's {detail.authority:.3f} scaled")

    def _towards_unknown(self, detail: AuthorityDetail, share: float, why: str,
                         confidence: float | None = None) -> AuthorityDetail:
        """``detail`` keeping ``share`` of its distance above the unknown level; the note says why."""
        assert detail.authority is not None
        u = self.unknown_level
        value = u + share * (detail.authority - u)
        note = f"{why} towards {u:g}: {value:.3f}"
        return dataclasses.replace(detail, authority=value,
                                   confidence=detail.confidence if confidence is None else confidence,
                                   note="; ".join(n for n in (detail.note, note) if n))


NO_URL = AuthorityDetail(None, 0.0, "unknown", note="no URL")
"""The detail of a candidate without a URL (no evidence; fused with the unknown level)."""


__all__ = ["DEFAULT_HOSTED_AUTHORITY", "NO_URL", "PAGE_TYPES_ADJUSTED", "SubdomainRule", "TieredAuthority"]
