"""The authority scorer protocol: every tier (table, learned prior, judge, hybrid) implements it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

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


@runtime_checkable
class StoreBacked(Protocol):
    """A scorer that can say which prior stores (``authorag priors import``) it reads.

    Optional: :func:`prior_stores_of` gives ``{}`` for scorers without it.
    """

    @property
    def prior_stores(self) -> Mapping[str, Mapping[str, Any]]:
        """Source name → the store's provenance (file, date, SHA-256, rows, format, entries)."""
        ...


def prior_stores_of(scorer: object) -> dict[str, dict[str, Any]]:
    """Source name → provenance of each prior store ``scorer`` reads, through its tiers (a copy).

    Example:
        >>> from authorag.priors import load_prior
        >>> prior_stores_of(load_prior())
        {}
    """
    if not isinstance(scorer, StoreBacked):
        return {}
    return {name: copy_json(record) for name, record in scorer.prior_stores.items()}


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-shaped value (dicts, lists, scalars): callers may change theirs."""
    if isinstance(value, Mapping):
        return {k: copy_json(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, (list, tuple)):
        return [copy_json(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value
