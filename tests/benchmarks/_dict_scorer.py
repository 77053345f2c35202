"""A test AuthorityScorer over a fixed host → authority map (shared by the bench track tests)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from authorag.types import AuthorityDetail, Candidate


class DictScorer:
    """AuthorityScorer over a fixed host → authority map; other hosts are unknown."""

    name = "dict"

    def __init__(self, values: Mapping[str, float]) -> None:
        self.values = values

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        return [AuthorityDetail(self.values[c.host], 1.0, "table") if c.host in self.values
                else AuthorityDetail(None, 0.0, "unknown") for c in candidates]
