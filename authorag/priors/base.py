"""The authority scorer protocol: every tier (table, learned prior, judge, hybrid) implements it."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from authorag.types import AuthorityDetail, Candidate


@runtime_checkable
class AuthorityScorer(Protocol):
    """Scores the source authority of candidates.

    ``score`` returns one :class:`~authorag.types.AuthorityDetail` per candidate, in order.
    Unknown sources get ``authority=None`` and ``tier="unknown"``; a scorer never presents a
    default as knowledge.
    """

    name: str

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """Authority details for ``candidates`` (same length, same order)."""
        ...
