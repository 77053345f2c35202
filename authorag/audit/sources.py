"""Per-source authority, trust and credibility from the authority scorer (nothing is fetched).

Each source's URL is scored by the one composition (:func:`authorag.compose.load_scorer`), so
a cited page gets the tier and authority ``authorag score`` gives it. Its **trust** comes from
one function, :func:`source_trust`: it reads the detail's credibility axis (e.g. Wikipedia's
perennial-sources status in the shipped prior: reliable 0.9, no consensus 0.5, unreliable
0.15; None where no source rates the domain). ``credible`` applies two documented cut points to
that trust: ≥ :data:`CREDIBLE_AT` → True, ≤ :data:`NOT_CREDIBLE_AT` → False, anything between
(no consensus) or no value → None (unknown; excluded from the credibility rates and counted).
Authority (recognition) is reported but never turned into ``credible``: a well-linked domain can
still be an unreliable one.

Example:
    >>> credible_flag(0.9), credible_flag(0.15), credible_flag(0.5), credible_flag(None)
    (True, False, None, None)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from authorag.audit.model import AuditSource
from authorag.priors.base import AuthorityScorer
from authorag.types import AuthorityDetail, Candidate

CREDIBLE_AT = 0.6
"""Trust at or above this is ``credible: true``."""
NOT_CREDIBLE_AT = 0.4
"""Trust at or below this is ``credible: false``."""


def source_trust(detail: AuthorityDetail) -> float | None:
    """The trust of one source: the value the credibility rates and ``credible`` are read from.

    The one place the audit turns a scorer's detail into trust; it reads the detail's
    credibility axis (None when no credibility source rates the domain).

    Example:
        >>> source_trust(AuthorityDetail(0.98, 0.99, "table", credibility=0.9))
        0.9
    """
    return detail.credibility


def credible_flag(trust: float | None) -> bool | None:
    """True / False / None from a 0–1 trust value and the two cut points."""
    if trust is None:
        return None
    if trust >= CREDIBLE_AT:
        return True
    if trust <= NOT_CREDIBLE_AT:
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {"id": self.id, "url": self.url, "title": self.title, "domain": self.domain,
                "authority": self.authority, "credibility": self.credibility, "trust": self.trust,
                "credible": self.credible, "tier": self.tier}


def assess_sources(sources: Sequence[AuditSource], scorer: AuthorityScorer) -> list[SourceAssessment]:
    """Score every source's URL with ``scorer`` (in input order)."""
    cands = [Candidate.create(s.url, id=s.id) for s in sources]
    details = scorer.score(cands) if cands else []
    out: list[SourceAssessment] = []
    for s, c, d in zip(sources, cands, details, strict=True):
        trust = source_trust(d)
        out.append(SourceAssessment(s.id, s.url, s.title, c.domain, d.authority, d.credibility, credible_flag(trust),
                                    d.tier, trust))
    return out


__all__ = ["CREDIBLE_AT", "NOT_CREDIBLE_AT", "SourceAssessment", "assess_sources", "credible_flag", "source_trust"]
