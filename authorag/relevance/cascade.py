"""Cascade relevance (``relevance.cascade``): the query's words for every candidate, the encoder
only for the few whose place in the window the words cannot settle.

A reranker's window (:mod:`authorag.rerankers.fusion`) puts a candidate on topic when its words
*and*, with a relevance that judges meaning, its similarity to the query reach their share of the
best. Encoding every page costs about a hundred times what the words cost, so this scorer:

1. reads every candidate's words in the query's language, as the window does (query-term
   coverage mixed with BM25, each relative to its best, then relative to the best page that is
   not keyword-stuffed: :func:`words_share`);
2. leaves a page whose words are far below the best (under ``lexical_floor`` of it) unencoded,
   in a language the lexical path reads (en, de, es, fr) and when coverage tells the pages apart:
   the window's words veto it whatever its meaning. A page with none of the query's words is
   one of them;
3. encodes the ``encode_top`` pages with the most of the query's words (MiniLM, int8 linear
   layers, each page's first tokens: :data:`PRECISION`, :data:`ENCODED_TOKENS`), and scores them
   by cosine;
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
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from authorag.relevance.base import RelevanceScorer
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.coverage import coverage_and_stuffing
from authorag.relevance.dense import DenseRelevance
from authorag.relevance.encoders import TextEncoder, lexical_stand_in
from authorag.relevance.language import LEXICAL_LANGUAGES, detect_language
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


class CascadeRelevance:
    """Lexical relevance for every candidate, cosine similarity for the few the words cannot place
    (score ``relevance.cascade``; see the module doc for the rule).

    Args:
        model: local model directory; None uses the bundled all-MiniLM-L6-v2.
        encode_top: pages encoded per call at most (>= 1): those with the most of the query's words.
        lexical_floor: share of the best words (in [0, 1]) under which a page is not encoded.
        below_window: share of the best similarity (in [0, 1]) a page not encoded gets at most.
        precision: the encoder's weights, ``"int8"`` (default) or ``"fp32"``.
        max_tokens: tokens of each page the encoder reads (None: the model's own limit).
        cache_size: page embeddings remembered (:class:`~authorag.relevance.dense.DenseRelevance`).

    Raises:
        MissingDependencyError: the ``embeddings`` extra is missing (at construction).
        ConfigError: ``encode_top`` below 1, a share outside [0, 1], or a bad ``precision`` or ``max_tokens``.

    Example:
        >>> cascade = CascadeRelevance()
        >>> cands = [Candidate.create("https://a.org", text="Cranberry juice and urinary tract infections"),
        ...          Candidate.create("https://b.org", text="How to change a flat tyre")]
        >>> scores, encoded = cascade.score_encoded("cranberry juice urinary infections", cands)
        >>> encoded, scores[1]
        ([True, False], 0.0)
    """

    name: str = "relevance.cascade"
    semantic: bool = True
    """Its scores judge meaning where it encoded, and keep the others out of the window."""

    def __init__(self, model: str | Path | None = None, *, encode_top: int = ENCODE_TOP,
                 lexical_floor: float = LEXICAL_FLOOR, below_window: float = BELOW_WINDOW,
                 precision: str = PRECISION, max_tokens: int | None = ENCODED_TOKENS,
                 cache_size: int | None = 4096) -> None:
        check_positive_int("encode_top", encode_top)
        check_unit("lexical_floor", lexical_floor)
        check_unit("below_window", below_window)
        self.dense = DenseRelevance(model, cache_size=cache_size, precision=precision, max_tokens=max_tokens)
        self.encode_top = encode_top
        self.lexical_floor = lexical_floor
        self.below_window = below_window

    def warm_up(self) -> None:
        """Load the encoder and the language model now (:class:`~authorag.relevance.base.WarmsUp`)."""
        self.dense.warm_up()
        BM25Relevance().warm_up()

    @property
    def encoder(self) -> TextEncoder:
        """The encoder it calls (its dense relevance's): the server sets its threads and batch."""
        return self.dense.encoder

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages its encoder reads (:class:`~authorag.relevance.base.ReadsLanguages`)."""
        return self.dense.languages

    def stand_in(self, query: str, candidates: Sequence[Candidate]) -> tuple[RelevanceScorer, str] | None:
        """As the dense relevance: for a query in a language the encoder does not read, BM25 in the
        query's language and the note that says so (:class:`~authorag.relevance.base.ReadsLanguages`)."""
        return lexical_stand_in(query, [c.text for c in candidates], self.languages, "the cascade's encoder")

    def unseen(self, texts: Sequence[str]) -> int:
        """Texts a call may encode now: the new ones, at most ``encode_top``
        (:class:`~authorag.relevance.base.CountsUnseen`)."""
        return min(self.dense.unseen(texts), self.encode_top)

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """One score per candidate, in order: the cosine where encoded, else below the window."""
        return self.score_encoded(query, candidates)[0]

    def score_encoded(self, query: str, candidates: Sequence[Candidate]) -> tuple[list[float], list[bool]]:
        """The scores of :meth:`score` and, per candidate, whether the encoder read it
        (:class:`~authorag.relevance.base.EncodesSome`)."""
        if not candidates:
            return [], []
        texts = [c.text for c in candidates]
        guess = detect_language(query, texts)
        cov, stuffed = coverage_and_stuffing(query, texts, guess.lexical)
        bm25 = BM25Relevance(language=guess.lexical).score(query, candidates)
        share = words_share(cov, bm25, stuffed)
        chosen = self._to_encode(share, cov, guess.language in LEXICAL_LANGUAGES)
        cosines = self.dense.cosines(query, [texts[i] for i in chosen])
        best = max(0.0, max(cosines, default=0.0))
        scores = (best * self.below_window * share).tolist()
        for i, value in zip(chosen, cosines):
            scores[i] = value
        encoded = [False] * len(candidates)
        for i in chosen:
            encoded[i] = True
        return scores, encoded

    def _to_encode(self, share: Array, coverage: Sequence[float], reads: bool) -> list[int]:
        """Positions to encode: the ``encode_top`` best by words, less those under the floor when
        the language is read and coverage tells the pages apart (the words veto them)."""
        order = np.argsort(-share, kind="stable").tolist()
        if reads and max(coverage) - min(coverage) > 1e-12:
            order = [i for i in order if share[i] >= self.lexical_floor]
        return sorted(order[: self.encode_top])

    def __repr__(self) -> str:
        return (f"CascadeRelevance(encode_top={self.encode_top}, lexical_floor={self.lexical_floor}, "
                f"below_window={self.below_window}, dense={self.dense!r})")


__all__ = ["BELOW_WINDOW", "ENCODED_TOKENS", "ENCODE_TOP", "LEXICAL_FLOOR", "PRECISION", "CascadeRelevance", "words_share"]
