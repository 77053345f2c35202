"""Per-source authority and credibility from an authority scorer (nothing is fetched).

``credible`` reads the credibility axis (e.g. Wikipedia's perennial-sources status in the shipped
prior: reliable 0.9, no consensus 0.5, unreliable 0.15) with two documented cut points:
credibility ≥ :data:`CREDIBLE_AT` → True, ≤ :data:`NOT_CREDIBLE_AT` → False, anything between
(no consensus) or no credibility value → None (unknown; excluded from the credibility rates and
counted). Authority (recognition) is reported but never turned into ``credible``: a well-linked
domain can still be an unreliable one.

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
from authorag.types import Candidate

CREDIBLE_AT = 0.6
"""Credibility at or above this is ``credible: true``."""
NOT_CREDIBLE_AT = 0.4
"""Credibility at or below this is ``credible: false``."""


def credible_flag(credibility: float | None) -> bool | None:
    """True / False / None from a 0–1 credibility value and the two cut points."""
    if credibility is None:
        return None
    if credibility >= CREDIBLE_AT:
        return True
    if credibility <= NOT_CREDIBLE_AT:
        return False
    return None


@dataclass(frozen=True, slots=True)
class SourceAssessment:
    """One source's domain, authority, credibility and ``credible`` flag."""

    id: str
    url: str
    title: str
    domain: str | None
    authority: float | None
    credibility: float | None
    credible: bool | None
    tier: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {"id": self.id, "url": self.url, "title": self.title, "domain": self.domain,
                "authority": self.authority, "credibility": self.credibility, "credible": self.credible,
                "tier": self.tier}


def assess_sources(sources: Sequence[AuditSource], scorer: AuthorityScorer) -> list[SourceAssessment]:
    """Score every source's URL with ``scorer`` (in input order)."""
    cands = [Candidate.create(s.url, id=s.id) for s in sources]
    details = scorer.score(cands) if cands else []
    return [
        SourceAssessment(s.id, s.url, s.title, c.domain, d.authority, d.credibility, credible_flag(d.credibility), d.tier)
        for s, c, d in zip(sources, cands, details, strict=True)
    ]


__all__ = ["CREDIBLE_AT", "NOT_CREDIBLE_AT", "SourceAssessment", "assess_sources", "credible_flag"]
