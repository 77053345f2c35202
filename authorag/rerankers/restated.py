"""A user's post that restates the question is read without the restatement.

On a forum, a Q&A site, a social network or a video platform (a user's page on a hosting
platform whose content type is one of :data:`~authorag.platforms.USER_CONTENT`: :func:`~authorag.platforms.user_post`)
a post that repeats the question word for word is the question asked again, or a claim made in
the question's words ("Yes, we only use 10 percent of our brain"): relevance earned by restating
the question is not evidence of answering it. Read with the restatement, such a post sets the
relevance reference and an official page that answers in its own words falls under the window's
share, where trust cannot lift it. So relevance (the scorer and the window's words) reads such a
post without the runs of its text that restate the question (:func:`restated_spans`: at least
:data:`~authorag.relevance.coverage.QUOTE_MIN_WORDS` words that follow each other as they do in
the question, stemmed in its language, stop words kept; twice as many in Vietnamese, written in
syllables: :func:`~authorag.relevance.coverage.quote_min_words`); what is left competes as any page does.

Only user content on those platforms is read so: a page whose own publisher titles it with the
question (a credit union's "Building an emergency fund", a blog post) names its subject, and
without the title an encoder loses the page's subject. The address is not cut (Q&A addresses name
the thread's question whatever the answer). Languages: stemming in English, German, Spanish,
French and the other languages :data:`~authorag.relevance.language.LEXICAL_LANGUAGES` names, exact tokens in any
other (the words relevance reads in the query's language).

Example:
    >>> restated_spans("do we only use 10 percent of our brain",
    ...                "Yes, we only use 10 percent of our brain, the rest is dormant.", "en")
    [(5, 40)]
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from authorag.platforms import user_post
from authorag.relevance.coverage import QUOTE_MIN_WORDS, code_like, follow_runs, query_pairs, quote_min_words
from authorag.relevance.language import detect_language, stem_words
from authorag.relevance.tokens import spelled, word_pattern
from authorag.rerankers.calibration import named
from authorag.text_window import HEAD_CHARS
from authorag.types import Candidate


def restated_spans(query: str, text: str, language: str, min_words: int = QUOTE_MIN_WORDS) -> list[tuple[int, int]]:
    """Character spans of ``text`` that restate ``query``: runs of at least
    :data:`~authorag.relevance.coverage.QUOTE_MIN_WORDS` words in which each word follows the one
    before as it does in the query (:func:`~authorag.relevance.coverage.follow_runs`, stemmed and
    folded in ``language``, stop words kept), looked for in the text's head
    (:data:`~authorag.text_window.HEAD_CHARS`: where a post says what it is about, and what an
    encoder reads), so the work per page is bounded however long it is."""
    return _spans(query_pairs(query, language), text, language, min_words)


def _spans(pairs: frozenset[tuple[str, str]], text: str, language: str, min_words: int) -> list[tuple[int, int]]:
    """:func:`restated_spans` with the query's word pairs (:func:`~authorag.relevance.coverage.query_pairs`)."""
    if not pairs:
        return []
    found = list(word_pattern().finditer(text, 0, HEAD_CHARS))  # the words tokenize reads, with their spans
    words = stem_words([spelled(m.group(0).casefold()) for m in found], language)
    return [(found[i].start(), found[j].end()) for i, j in follow_runs(words, pairs) if j - i + 1 >= min_words]


def without_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with ``spans`` cut out (each replaced by one space).

    Example:
        >>> without_spans("Yes, we only use 10 percent of our brain, the rest.", [(5, 40)])
        'Yes,  , the rest.'
    """
    parts: list[str] = []
    start = 0
    for a, b in spans:
        parts.append(text[start:a])
        start = b
    parts.append(text[start:])
    return " ".join(parts)


def read_without_restated(query: str, cands: Sequence[Candidate]
                          ) -> tuple[Sequence[Candidate], NDArray[np.bool_] | None]:
    """The candidates relevance reads: each user post (:func:`~authorag.platforms.user_post`) whose text restates
    ``query`` replaced by a copy without the restatement, the others as they are; and which were
    replaced (None, and ``cands`` itself, when none was). The query's language is detected only
    when some user post has text."""
    posts = [n for n, c in enumerate(cands) if c.text and user_post(c)]
    if not query or not posts:
        return cands, None
    guess = detect_language(query, [c.text for c in cands])
    language, min_words = guess.lexical, quote_min_words(guess.language)
    pairs = query_pairs(query, language)  # once for every post
    read = list(cands)
    marks = np.zeros(len(cands), dtype=np.bool_)
    for n in posts:
        spans = _spans(pairs, cands[n].text, language, min_words)
        if spans:
            read[n] = dataclasses.replace(cands[n], text=without_spans(cands[n].text, spans))
            marks[n] = True
    return (read, marks) if marks.any() else (cands, None)


def restating(query: str, texts: Sequence[str], language: str, min_words: int = QUOTE_MIN_WORDS) -> NDArray[np.bool_]:
    """Per text, whether it restates ``query`` (:func:`restated_spans`, read in ``language``): a
    run of :data:`~authorag.relevance.coverage.QUOTE_MIN_WORDS` words in the question's order in
    its head. Never for a query that is code or an error message
    (:func:`~authorag.relevance.coverage.code_like`): a page about an error quotes it.

    Example:
        >>> restating("wie erkenne ich einen Schlaganfall",
        ...           ["Wie erkenne ich einen Schlaganfall? Das fragen sich viele.",
        ...            "Schlaganfall erkennen: ein hängender Mundwinkel, Lähmung, Sprachstörungen."], "de").tolist()
        [True, False]
    """
    marks = np.zeros(len(texts), dtype=np.bool_)
    if not query or code_like(query):
        return marks
    pairs = query_pairs(query, language)
    for n, text in enumerate(texts):
        marks[n] = bool(text) and bool(_spans(pairs, text, language, min_words))
    return marks


def restated_note(marks: NDArray[np.bool_], names: Sequence[str]) -> str:
    """The note naming the user posts read without the question they restate (at most
    :data:`~authorag.rerankers.calibration.NAMED`, then how many more).

    Example:
        >>> restated_note(np.array([True, False]), ["https://www.quora.com/q/answer/a", "https://b.org"])
        'user posts that restate the question, relevance read without the restatement: https://www.quora.com/q/answer/a'
    """
    return f"user posts that restate the question, relevance read without the restatement: {named(marks, names)}"


__all__ = ["read_without_restated", "restated_note", "restating", "restated_spans", "without_spans"]
