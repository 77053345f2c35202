"""A tiny real scorer for reranker tests: the listed domains from a dict, any other unknown."""
from __future__ import annotations

from collections.abc import Sequence

from authorag.types import AuthorityDetail, Candidate


class KnownOrUnknown:
    """The listed domains from a dict (authority, credibility), any other unknown."""

    name = "dict"

    def __init__(self, values: dict[str, tuple[float, float]]) -> None:
        self.values = values

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        out: list[AuthorityDetail] = []
        for c in candidates:
            known = self.values.get(c.domain or "")
            out.append(AuthorityDetail(None, 0.0, "unknown") if known is None
                       else AuthorityDetail(known[0], 1.0, "table", credibility=known[1]))
        return out
