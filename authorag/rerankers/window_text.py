"""What the relevance window reads from the candidates' text (:func:`read_window_text`).

Query-term coverage (mixed with the relevance: BM25, upstream scores and the incoming order all
reward repetition or say little about topic alone), which candidates are keyword-stuffed (never
the reference the others are measured against) and, when the relevance judges meaning (a
:class:`~authorag.relevance.base.SemanticScorer` such as dense), the BM25 scores the words' window
mixes in instead. All of them read the query and the pages in the query's language
(:func:`~authorag.relevance.language.detect_language`, once per ranking).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from authorag.relevance.coverage import coverage_and_stuffing
from authorag.relevance.language import detect_language
from authorag.rerankers.fusion import WindowText
from authorag.scores import RANK_SCORE, RELEVANCE_SCORE
from authorag.types import Candidate


def read_window_text(query: str, cands: Sequence[Candidate], upstream: bool, words: bool
                     ) -> tuple[WindowText | None, str | None]:
    """The :class:`~authorag.rerankers.fusion.WindowText` of ``cands`` for ``query`` (None when
    there is no query or no text) and the note on the language read (None when it is one
    lexical relevance reads).

    Args:
        upstream: the relevance is the candidates' own (no scorer); with only the incoming
            order (no upstream scores) the window's relevance is ``ordinal``.
        words: the relevance judges meaning: BM25 of the texts is computed for the words' window.
    """
    if not query or not any(c.text for c in cands):
        return None, None
    texts = [c.text for c in cands]
    guess = detect_language(query, texts)
    cov, stuffed = coverage_and_stuffing(query, texts, guess.lexical)
    ordinal = upstream and all(RANK_SCORE in c.scores and RELEVANCE_SCORE not in c.scores for c in cands)
    lexical = None
    if words:
        from authorag.relevance.bm25 import BM25Relevance

        lexical = BM25Relevance(language=guess.lexical).score(query, cands)
    text = WindowText(cov, np.asarray(stuffed, dtype=np.bool_), ordinal=ordinal, lexical=lexical,
                      names=[c.url for c in cands])
    return text, guess.note()


__all__ = ["read_window_text"]
