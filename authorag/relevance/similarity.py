"""Upstream scores that judge meaning: a vector retriever's similarity, a cross-encoder's score.

Relevance ``"similarity"`` on every surface that reads incoming scores (CLI ``rerank``, the
LangChain, Haystack and LlamaIndex adapters). It reads the same scores as ``"upstream"``, and
tells the reranker that they judge meaning, as dense relevance does: the relevance window then
caps the query words' window by these scores, so a trusted page that shares the query's words
but answers another question stays out of the window. Use ``"upstream"`` for scores that count
words (a BM25 retriever's): they reward the same repetition the words' window already sees.

The scores are read relative to the best candidate's
(:func:`~authorag.rerankers.calibration.calibrate`), so 0 should mean unrelated: a cosine, a
cross-encoder's probability. Scores squeezed into a high band, such as ``(1 + cosine) / 2``,
cap little.

Example:
    >>> from authorag.types import Candidate
    >>> cands = [Candidate.create("https://a.org/x", scores={"relevance": 0.72}),
    ...          Candidate.create("https://b.org/y", scores={"relevance": 0.36})]
    >>> UpstreamSimilarity().score("q", cands)
    [0.72, 0.36]
"""
from __future__ import annotations

from collections.abc import Sequence

from authorag.errors import ConfigError
from authorag.scores import RELEVANCE_SCORE
from authorag.types import Candidate
from authorag.validation import listed_positions


class UpstreamSimilarity:
    """The candidates' own ``scores["relevance"]``, declared to judge meaning
    (:class:`~authorag.relevance.base.SemanticScorer`)."""

    name = "relevance.similarity"
    semantic = True

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """Each candidate's upstream relevance score, in order.

        Raises:
            ConfigError: a candidate has no ``scores["relevance"]`` (says which, and what to use instead).
        """
        missing = [i + 1 for i, c in enumerate(candidates) if RELEVANCE_SCORE not in c.scores]
        if missing:
            raise ConfigError(f"relevance 'similarity' reads each candidate's upstream score "
                              f"(scores['{RELEVANCE_SCORE}']); candidate(s) {listed_positions(missing)} "
                              "(counting from 1) have none. "
                              "Give every candidate a score, or use relevance 'bm25' or 'dense' over the text")
        return [c.scores[RELEVANCE_SCORE] for c in candidates]


__all__ = ["UpstreamSimilarity"]
