"""What the relevance window reads from the candidates' text (:func:`read_window_text`).

Query-term coverage (mixed with the relevance: BM25, upstream scores and the incoming order all
reward repetition or say little about topic alone), which candidates are keyword-stuffed (never
the reference the others are measured against) and, when the relevance judges meaning (a
:class:`~authorag.relevance.base.SemanticScorer` such as dense), the BM25 scores the words' window
mixes in instead. All of them read the query and the pages in the query's language
(:func:`~authorag.relevance.language.detect_language`, once per ranking), from the
:class:`~authorag.relevance.words.WordsReading` the reranker shares with the cascade.

It also reads which candidates' text shows a present low-credibility cue (:func:`low_cues`: page
evidence's text layer, :func:`~authorag.evidence.text.read_texts`, in the query's language, so
no page's language is identified again; whether or not the page-evidence trust tier is on):
such a candidate is never the relevance reference, as a keyword-stuffed one is not. Trust
values do not change. The cue lists read English, German, Spanish, French and Portuguese; with a
query in another language no candidate shows a cue.

It also reads which candidates' text restates the question
(:func:`~authorag.rerankers.restated.restating`, in the query's language): in the window such a
page gets no lead on relevance (:func:`~authorag.rerankers.leads.restated_no_lead`).

Coverage also reads the words of each candidate's address
(:func:`~authorag.relevance.coverage.address_words`: its path and query string, not its host): a
page's address names its subject as a title does (``/frage/darf-arbeitgeber-ueberstunden-anordnen``,
``/questions/11828270/how-do-i-exit-vim``), so
an answer that explains the question in other words than the question's keeps the words' evidence
that it is on topic. The host is left out: it names the site, and a look-alike copies it. Those
words count for coverage only, never for keyword stuffing.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from authorag.evidence.text import CUE_NAMES, read_texts
from authorag.relevance.coverage import quote_min_words
from authorag.relevance.words import WordsReading
from authorag.rerankers.fusion import WindowText
from authorag.rerankers.restated import restating
from authorag.scores import RANK_SCORE, RELEVANCE_SCORE
from authorag.types import Candidate


def read_window_text(query: str, cands: Sequence[Candidate], upstream: bool, words: bool,
                     reading: WordsReading | None = None) -> tuple[WindowText | None, str | None]:
    """The :class:`~authorag.rerankers.fusion.WindowText` of ``cands`` for ``query`` (None when
    there is no query or no text) and the note on the language read (None when it is one
    lexical relevance reads).

    Args:
        upstream: the relevance is the candidates' own (no scorer); with only the incoming
            order (no upstream scores) the window's relevance is ``ordinal``.
        words: the relevance judges meaning: BM25 of the texts is computed for the words' window.
        reading: the query's words in ``cands`` when the caller has read them (the reranker
            shares them with the cascade); None reads them here.
    """
    if not query or not any(c.text for c in cands):
        return None, None
    reading = WordsReading(query, cands) if reading is None else reading.check_for(query, cands)
    guess = reading.language
    ordinal = upstream and all(RANK_SCORE in c.scores and RELEVANCE_SCORE not in c.scores for c in cands)
    lexical = reading.bm25 if words else None
    text = WindowText(reading.coverage, np.asarray(reading.stuffed, dtype=np.bool_), ordinal=ordinal,
                      lexical=lexical, names=[c.url for c in cands], cues=low_cues(reading.texts, guess.language),
                      subject=reading.subject, restates=restating(query, reading.texts, guess.lexical,
                                                                          quote_min_words(guess.language)),
                      posts=np.asarray(reading.posts, dtype=np.bool_))
    return text, guess.note()


def low_cues(texts: Sequence[str], language: str) -> list[tuple[str, ...]]:
    """Per text, the names of the low-credibility cues it shows (empty: none), read in ``language``.

    Example:
        >>> low_cues(["EILMELDUNG: Bargeld wird ab Montag verboten, die Medien haben es verschwiegen. "
        ...           "Teilen Sie diese Nachricht sofort, bevor sie gelöscht wird!", "Kurz."], "de")
        [('alarm and calls to spread',), ()]
    """
    return [tuple(CUE_NAMES[c.family] for c in cues if c.low) for cues in read_texts(texts, language).cues]


__all__ = ["low_cues", "read_window_text"]
