"""The retriever protocol: first-stage search over a corpus of candidates."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from authorag.types import Candidate


@runtime_checkable
class Retriever(Protocol):
    """Finds the corpus candidates most relevant to a query.

    ``name`` is the score key written on returned candidates (``"relevance.bm25"``,
    ``"relevance.dense"``). ``score_ids`` scores arbitrary corpus members, so a hybrid
    retriever can give every fused candidate every signal, not only the lists it came from.
    """

    name: str

    def retrieve(self, query: str, top_k: int = 10) -> list[Candidate]:
        """The best ``top_k`` corpus candidates, best first, each with score ``name`` set."""
        ...

    def score_ids(self, query: str, ids: Sequence[str]) -> list[float]:
        """The score of each corpus candidate whose id is in ``ids``, in order."""
        ...
