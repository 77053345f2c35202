"""What the query's words say of each candidate, read once per ranking: :class:`WordsReading`.

The cascade (:mod:`authorag.relevance.cascade`: which pages to encode) and the relevance window
(:mod:`authorag.rerankers.window_text`: which pages are on topic) read the same words of the same
candidates: the query's language (:func:`~authorag.relevance.language.detect_language`),
query-term coverage with the words of each address's path and keyword stuffing
(:func:`~authorag.relevance.coverage.coverage_and_stuffing`), and BM25 in that language
(:class:`~authorag.relevance.bm25.BM25Relevance`); and which candidates are users' posts, which
both read by their meaning. The reranker reads them once per ranking and hands the reading to both,
so none is computed twice; each part is computed when first asked for, so a ranking that needs no
BM25 computes none. The values are those each reader computed on its own.

Example:
    >>> from authorag.types import Candidate
    >>> reading = WordsReading("cranberry juice infections",
    ...                        [Candidate.create("https://a.org/cranberry", text="Cranberry juice and infections."),
    ...                         Candidate.create("https://b.org/", text="How to change a flat tyre")])
    >>> reading.language.language, reading.coverage, reading.stuffed
    ('en', [1.0, 0.0], [False, False])
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from authorag.errors import ConfigError
from authorag.platforms import user_post
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.coverage import address_words, coverage_and_stuffing
from authorag.relevance.language import LanguageGuess, detect_language
from authorag.relevance.subject import subject_coverage
from authorag.types import Candidate


class WordsReading:
    """The query's words in each candidate, for one query and one list of candidates.

    Args:
        query: the query.
        candidates: the candidates, in the order every list of the reading follows.

    Attributes:
        query: the query read.
        texts: the candidates' texts.
    """

    def __init__(self, query: str, candidates: Sequence[Candidate]) -> None:
        self.query = query
        self.candidates = tuple(candidates)
        self.texts = [c.text for c in self.candidates]

    @cached_property
    def language(self) -> LanguageGuess:
        """The language the words are read in: the query's, helped by the candidates' text."""
        return detect_language(self.query, self.texts)

    @cached_property
    def _coverage_and_stuffing(self) -> tuple[list[float], list[bool]]:
        fields = [address_words(c.url) for c in self.candidates]
        return coverage_and_stuffing(self.query, self.texts, self.language.lexical, fields)

    @property
    def coverage(self) -> list[float]:
        """Per candidate, the share of the query's content words its text or its address's path holds."""
        return self._coverage_and_stuffing[0]

    @property
    def stuffed(self) -> list[bool]:
        """Per candidate, whether its text is keyword-stuffed for the query."""
        return self._coverage_and_stuffing[1]

    @cached_property
    def subject(self) -> list[float]:
        """Per candidate, the share of the query's content words its address and its lead name
        (:func:`~authorag.relevance.subject.subject_coverage`)."""
        return subject_coverage(self.query, self.texts, [c.url for c in self.candidates], self.language.lexical)

    @cached_property
    def posts(self) -> list[bool]:
        """Per candidate, whether it is a user's post on a forum, Q&A, social or video platform
        (:func:`~authorag.platforms.user_post`): a reply answers its thread's question in its own
        words, so the cascade encodes it whatever its words and the window reads it by its meaning."""
        return [user_post(c) for c in self.candidates]

    @cached_property
    def bm25(self) -> list[float]:
        """Per candidate, BM25 of its text for the query, in the query's language."""
        return BM25Relevance(language=self.language.lexical).score(self.query, self.candidates)

    def check_for(self, query: str, candidates: Sequence[Candidate]) -> WordsReading:
        """This reading, when it was read for ``query`` and these ``candidates`` (their texts and
        addresses, in order); else a :class:`ConfigError`: a reading read for another ranking would
        score the wrong pages.

        Raises:
            ConfigError: the query or the candidates differ.
        """
        same = len(candidates) == len(self.candidates) and all(
            c.text == d.text and c.url == d.url for c, d in zip(candidates, self.candidates))
        if query != self.query or not same:
            raise ConfigError("the words reading was read for another query or other candidates: pass "
                              "WordsReading(query, candidates) of this call, or none")
        return self


__all__ = ["WordsReading"]
