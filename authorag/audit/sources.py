"""Per-source authority, trust and credibility from the authority scorer (nothing is fetched).

Each source's URL is scored by the one composition (:func:`authorag.compose.load_scorer`), so
a cited page gets the tier and authority ``authorag score`` gives it. Its **trust** comes from
one function, :func:`source_trust`: the trust rule every surface orders by
(:mod:`authorag.trust`: known low credibility dominates recognition). ``credible`` follows the
rule's branch: credibility evidence of a credible source → True, known low credibility → False,
anything else (mixed credibility, recognition only, nothing known) → None (unknown; excluded
from the credibility rates and counted). Recognition alone is never turned into ``credible``: a
well-linked domain can still be an unreliable one.

Example:
    >>> credible_flag("credible"), credible_flag("low credibility"), credible_flag("recognition only")
    (True, False, None)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from authorag.audit.model import AuditSource
from authorag.priors.base import AuthorityScorer
from authorag.trust import DEFAULT_TRUST_RULE
from authorag.types import AuthorityDetail, Candidate, TrustValue


def source_trust(detail: AuthorityDetail) -> TrustValue:
    """The trust of one source and the branch of the rule that gave it (:mod:`authorag.trust`).

    Example:
        >>> source_trust(AuthorityDetail(0.98, 0.99, "table", credibility=0.0)).reason
        'low credibility'
    """
    return DEFAULT_TRUST_RULE.of(detail)


def credible_flag(reason: str) -> bool | None:
    """True / False / None from the trust rule's branch (see the module doc)."""
    if reason == "credible":
        return True
    if reason == "low credibility":
        return False
    return None


@dataclass(frozen=True, slots=True)
class SourceAssessment:
    """One source's domain, tier, authority, credibility, trust and ``credible`` flag."""

    id: str
    url: str
    title: str
    domain: str | None
    authority: float | None
    credibility: float | None
    credible: bool | None
    tier: str
    trust: float | None = None
    trust_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {"id": self.id, "url": self.url, "title": self.title, "domain": self.domain,
                "authority": self.authority, "credibility": self.credibility, "trust": self.trust,
                "trust_reason": self.trust_reason, "credible": self.credible, "tier": self.tier}


def assess_sources(sources: Sequence[AuditSource], scorer: AuthorityScorer) -> list[SourceAssessment]:
    """Score every source's URL with ``scorer`` (in input order)."""
    cands = [Candidate.create(s.url, id=s.id) for s in sources]
    details = scorer.score(cands) if cands else []
    out: list[SourceAssessment] = []
    for s, c, d in zip(sources, cands, details, strict=True):
        trust = source_trust(d)
        out.append(SourceAssessment(s.id, s.url, s.title, c.domain, d.authority, d.credibility,
                                    credible_flag(trust.reason), d.tier, trust.value, trust.reason))
    return out


__all__ = ["SourceAssessment", "assess_sources", "credible_flag", "source_trust"]
