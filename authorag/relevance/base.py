"""The relevance signal protocol: what BM25, dense and your own scorers implement."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from authorag.types import Candidate

if TYPE_CHECKING:  # the protocol names it; base stays free of the lexical modules at run time
    from authorag.relevance.words import WordsReading


@runtime_checkable
class RelevanceScorer(Protocol):
    """Scores how relevant each candidate's text is to a query.

    ``name`` is the score key written on candidates (e.g. ``"relevance.bm25"``); scores may be
    on any scale, the reranker normalizes them before fusion.
    """

    name: str

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """One relevance score per candidate, in order."""
        ...


@runtime_checkable
class SemanticScorer(Protocol):
    """A relevance scorer whose scores judge meaning (dense embeddings, a cross-encoder), not
    shared words. Optional: the reranker's relevance window then caps the words' window by these
    scores, so a candidate is on topic only when the words and the meaning both say so. Scores
    from elsewhere (upstream) are not assumed to judge meaning: a BM25 retriever's do not."""

    semantic: bool
    """True: the scores judge meaning."""


@runtime_checkable
class WarmsUp(Protocol):
    """A relevance scorer that loads something heavy on first use (a model). Optional:
    :meth:`AuthorityReranker.warm_up <authorag.rerankers.authority.AuthorityReranker.warm_up>`
    calls it, so a service is ready only once the model is, and its first request does not pay
    for the load."""

    def warm_up(self) -> None:
        """Load now what the first score would load (later calls do nothing)."""
        ...


@runtime_checkable
class CountsUnseen(Protocol):
    """A relevance scorer whose cost lies in the texts it has not seen before (a model encodes
    each once and remembers it). Optional: the server counts them before the work and refuses a
    request with more than its limit (``max_unseen_documents``, docs/server.md "Limits")."""

    def unseen(self, texts: Sequence[str]) -> int:
        """How many distinct texts of ``texts`` scoring them would have to encode now."""
        ...


@runtime_checkable
class EncodesSome(Protocol):
    """A relevance scorer that encodes only some candidates and scores the others by their words
    (:class:`~authorag.relevance.cascade.CascadeRelevance`). Optional: the reranker then writes per
    candidate which one decided (``relevance.encoded``: 1 encoded, 0 by its words), and the
    breakdown shows it as ``relevance_decided_by``; a note naming the encoder, when it is not the
    default one, goes into the ranking's ``relevance_note``."""

    def score_encoded(self, query: str, candidates: Sequence[Candidate], reading: WordsReading | None = None
                      ) -> tuple[list[float], list[bool], str | None]:
        """The scores of ``score``, per candidate whether an encoder read it, and the note (or None).
        ``reading``: the query's words in the candidates when the caller has read them (None: read
        them here)."""
        ...


@runtime_checkable
class ReadsLanguages(Protocol):
    """A relevance scorer that reads some languages only (a model trained on them). Optional: the
    reranker asks it before scoring, and for a query in another language uses the scorer it names
    instead (BM25 in the query's language: dense relevance) and adds its note to the ranking."""

    languages: tuple[str, ...]
    """ISO 639-1 codes of the languages it reads."""

    def stand_in(self, query: str, candidates: Sequence[Candidate]) -> tuple[RelevanceScorer, str] | None:
        """None when it reads ``query``'s language; else the scorer to use instead and the note."""
        ...


__all__ = ["CountsUnseen", "EncodesSome", "ReadsLanguages", "RelevanceScorer", "SemanticScorer", "WarmsUp"]
