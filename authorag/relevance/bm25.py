"""BM25 relevance (``relevance.bm25``) over the candidates of one query, with ``rank-bm25``.

Text is split into words in the query's language by :func:`authorag.relevance.language.terms`
(English, German, Spanish, French: Snowball stems, accents folded, stop words kept; any other
language: plain word tokens; documented there, so that scores can be reproduced anywhere). In
German, a page's compound that ends with a query word counts as that word, and a query compound
the pages evidence is also read as its two parts, each a query term of half weight, so a page
that writes "Genossenschaftsanteile" and "Wohnungsgröße" scores for "Genossenschaftswohnung"
(:func:`compound_terms`; with Lucene IDF, the default: ``idf="okapi"`` reads the compound whole).

IDF statistics come from the candidate set itself (the reranking setting), not from a corpus:
use :class:`authorag.retrieval.BM25Retriever` for corpus-level statistics.
"""
from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Literal, get_args

import numpy as np
from numpy.typing import NDArray
from rank_bm25 import BM25Okapi

from authorag.errors import ConfigError
from authorag.relevance.compounds import COMPOUND_LANGUAGES, PART_WEIGHT, compound_heads, part_holders, split_query
from authorag.relevance.language import (
    LEXICAL_LANGUAGES,
    PLAIN,
    LanguageGuess,
    detect_language,
    stem_words,
    terms,
)
from authorag.relevance.language import warm_up as load_language_model
from authorag.relevance.stopwords import stopwords_for
from authorag.relevance.tokens import stopword_set, tokenize
from authorag.types import Candidate

logger = logging.getLogger(__name__)

IdfMode = Literal["okapi", "lucene"]
"""``okapi``: rank-bm25's Okapi IDF, ``log((N - n + 0.5) / (n + 0.5))``, with negative values
(terms in more than half of the documents) floored at ``epsilon`` times the mean IDF.
``lucene``: ``log(1 + (N - n + 0.5) / (n + 0.5))`` (Lucene, Elasticsearch, Pyserini), never
negative. Reranking scores a handful of candidates that were all retrieved for the query, so
query terms usually occur in most of them; Okapi IDF then flattens those terms to the epsilon
floor (and is exactly 0 for a term in one of two candidates), so :class:`BM25Relevance`
defaults to ``lucene``. Corpus retrieval (:class:`~authorag.retrieval.BM25Retriever`)
defaults to ``okapi``."""

def check_bm25_params(k1: float, b: float, epsilon: float, idf: str) -> None:
    """Raise :class:`ConfigError` unless ``k1 > 0``, ``0 <= b <= 1``, ``epsilon >= 0`` and ``idf`` is known."""
    if not (_is_number(k1) and k1 > 0 and math.isfinite(k1)):
        raise ConfigError(f"k1 must be a finite number > 0 (Okapi default 1.5), got {k1!r}")
    if not (_is_number(b) and 0.0 <= b <= 1.0):
        raise ConfigError(f"b must be in [0, 1] (Okapi default 0.75), got {b!r}")
    if not (_is_number(epsilon) and epsilon >= 0 and math.isfinite(epsilon)):
        raise ConfigError(f"epsilon must be a finite number >= 0 (default 0.25), got {epsilon!r}")
    if idf not in get_args(IdfMode):
        raise ConfigError(f"idf must be one of {get_args(IdfMode)}, got {idf!r}")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _LuceneBM25(BM25Okapi):
    """BM25Okapi with Lucene's non-negative IDF (no epsilon floor needed)."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log(1.0 + (self.corpus_size - freq + 0.5) / (freq + 0.5))
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0


def build_okapi(docs: Sequence[list[str]], k1: float, b: float, epsilon: float,
                idf: IdfMode) -> BM25Okapi | None:
    """A fitted rank-bm25 model over tokenized ``docs``, or None when no document has a token.

    rank-bm25 divides by the mean document length and by the vocabulary size, so an empty
    corpus (or one of empty texts) has no BM25 model: every score is 0 then.
    """
    if not any(docs):
        return None
    cls = BM25Okapi if idf == "okapi" else _LuceneBM25
    return cls(list(docs), k1=k1, b=b, epsilon=epsilon)


def lucene_bm25_scores(docs: Sequence[list[str]], terms: Sequence[str], k1: float, b: float,
                       part_docs: Sequence[list[str]] | None = None) -> list[float]:
    """BM25 with Lucene IDF of each tokenized doc for the query ``terms`` (repeats count twice).

    The same numbers as rank-bm25 with :class:`_LuceneBM25` (to ~1e-12), computed from the query
    terms' statistics only: Lucene IDF does not depend on the rest of the vocabulary. Reranking
    100 candidates per request makes this the server's hot path. Time is linear in the
    documents' tokens; memory holds a float per distinct query term and document, so callers
    facing untrusted queries bound the distinct terms (the server's ``max_query_terms``).

    ``part_docs``: for each doc, the parts of split query compounds its words hold, one entry per
    word and part (:func:`compound_terms`); each distinct part is one more query term of weight
    :data:`~authorag.relevance.compounds.PART_WEIGHT`, its frequency read there, the doc's length
    from ``docs``.

    Example:
        >>> [round(s, 4) for s in lucene_bm25_scores([["flu", "shot"], ["cold"]], ["flu"], 1.5, 0.75)]
        [0.6027, 0.0]
    """
    if not docs or not any(docs):
        return [0.0] * len(docs)
    weights: dict[str, float] = {}
    for t in terms:
        weights[t] = weights.get(t, 0) + 1
    n = len(docs)
    lengths = np.fromiter((len(d) for d in docs), dtype=np.float64, count=n)
    norm = k1 * (1.0 - b + b * lengths / (lengths.sum() / n))
    scores = _weighted(_term_frequencies(docs, list(weights)), list(weights.values()), norm, k1)
    parts = sorted({p for held in part_docs for p in held}) if part_docs is not None else []
    if parts and part_docs is not None:
        scores += _weighted(_term_frequencies(part_docs, parts), [PART_WEIGHT] * len(parts), norm, k1)
    return scores.tolist()


def _weighted(tf: NDArray[np.float64], weights: list[float], norm: NDArray[np.float64], k1: float) -> NDArray[np.float64]:
    """Lucene BM25 of each doc: the (terms x docs) frequencies ``tf``, each term's weight, each doc's
    length norm ``k1 * (1 - b + b * length / mean length)``."""
    n = tf.shape[1]
    df = np.count_nonzero(tf, axis=1).astype(np.float64)
    idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
    denom = tf + norm[None, :]  # 0 only for an empty document with b = 1, whose tf is 0: score 0
    contrib = idf[:, None] * np.divide(tf * (k1 + 1.0), denom, out=np.zeros_like(tf), where=denom > 0)
    return np.asarray(weights, dtype=np.float64) @ contrib


_COUNT_TERMS = 16
"""Up to this many distinct query terms, term frequencies are counted by substring search (as
fast as per-document counts at 16 terms on 40-word documents, faster below)."""


def _term_frequencies(docs: Sequence[list[str]], terms: list[str]) -> NDArray[np.float64]:
    """The (terms x docs) matrix of how often each term occurs in each tokenized document.

    Beyond :data:`_COUNT_TERMS` distinct terms the work is linear in the documents' tokens:
    each document's tokens are counted once and intersected with the query terms (a request
    with a 100,000-term query used to cost terms x documents substring searches). Up to it,
    one C-level substring count per term and document is faster (it was the only way before).
    """
    n = len(docs)
    if len(terms) <= _COUNT_TERMS:
        # Tokens never contain spaces, so counting " t " in the tokens joined by two spaces
        # counts whole tokens exactly (two spaces: neighbouring matches share no separator).
        patterns = [f" {t} " for t in terms]
        return np.array([[padded.count(pt) for pt in patterns] for padded in (f" {'  '.join(d)} " for d in docs)],
                        dtype=np.float64).reshape(n, len(terms)).T
    index = {t: j for j, t in enumerate(terms)}
    keys = index.keys()
    tf = np.zeros((len(terms), n), dtype=np.float64)
    for i, doc in enumerate(docs):
        counts = Counter(doc)
        for t in counts.keys() & keys:  # iterates the smaller of the two
            tf[index[t], i] = counts[t]
    return tf


class BM25Relevance:
    """Okapi BM25 relevance of each candidate's text to the query (score ``relevance.bm25``).

    Statistics (IDF, mean length) are computed over the candidates passed to :meth:`score`.
    Scores are raw BM25 values (>= 0 with the default ``idf="lucene"``; may be negative with
    ``"okapi"`` on tiny sets); the reranker min-max normalizes them before fusion. ``k1`` and
    ``b`` default to the usual Okapi values.

    Args:
        k1: term-frequency saturation (Okapi default 1.5).
        b: length normalization in [0, 1] (Okapi default 0.75).
        epsilon: floor for negative Okapi IDF, as a share of the mean IDF (default 0.25).
        idf: ``"lucene"`` (default) or ``"okapi"`` (see :data:`IdfMode`).
        stopwords: words to drop (e.g. :data:`ENGLISH_STOPWORDS`); None keeps every word.
        language: ``"auto"`` (default: the query's language,
            :func:`~authorag.relevance.language.detect_language`), an ISO 639-1 code of
            :data:`~authorag.relevance.language.LEXICAL_LANGUAGES`, or ``"plain"`` (word tokens
            only, no stemming).

    Raises:
        ConfigError: on an out-of-range parameter.

    Example:
        >>> bm25 = BM25Relevance()
        >>> cands = [Candidate.create("https://a.org/1", text="cranberry juice and bladder infections"),
        ...          Candidate.create("https://b.org/2", text="vitamin C and colds"),
        ...          Candidate.create("https://c.org/3", text="zinc lozenges")]
        >>> s = bm25.score("cranberry infections", cands)
        >>> s[0] > s[1] == s[2] == 0.0
        True
    """

    name: str = "relevance.bm25"

    def __init__(self, *, k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25,
                 idf: IdfMode = "lucene", stopwords: Iterable[str] | None = None,
                 language: str = "auto") -> None:
        check_bm25_params(k1, b, epsilon, idf)
        check_language(language)
        self.language = language
        self.k1 = float(k1)
        self.b = float(b)
        self.epsilon = float(epsilon)
        self.idf: IdfMode = idf
        self.stopwords = stopword_set(stopwords)

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        """BM25 score of each candidate's ``text`` for ``query``, in input order."""
        if not candidates:
            return []
        lang = self.language_of(query, candidates).lexical
        query_terms = terms(query, lang, self.stopwords, drop_stopwords=False)
        part_docs: list[list[str]] | None = None
        if lang in COMPOUND_LANGUAGES:
            words = tokenize(query, stopwords_for(lang) | self.stopwords if self.stopwords else stopwords_for(lang))
            docs, part_docs = compound_terms([c.text for c in candidates], query_terms, lang, self.stopwords, words)
        else:
            docs = [terms(c.text, lang, self.stopwords, drop_stopwords=False) for c in candidates]
        if self.idf == "lucene":
            return lucene_bm25_scores(docs, query_terms, self.k1, self.b, part_docs)
        model = build_okapi(docs, self.k1, self.b, self.epsilon, self.idf)
        if model is None or not query_terms:
            logger.debug("bm25: no scorable text (query terms=%d); all scores are 0", len(query_terms))
            return [0.0] * len(candidates)
        scores = np.asarray(model.get_scores(query_terms), dtype=np.float64)
        return [float(s) for s in scores]

    def language_of(self, query: str, candidates: Sequence[Candidate]) -> LanguageGuess:
        """The language :meth:`score` reads ``query`` and ``candidates`` in."""
        if self.language == "auto":
            return detect_language(query, [c.text for c in candidates])
        return LanguageGuess(self.language, "given", 1.0)

    def warm_up(self) -> None:
        """Load the language model ``language="auto"`` reads queries with (once per process)."""
        if self.language == "auto":
            load_language_model()

    def __repr__(self) -> str:
        return (f"BM25Relevance(k1={self.k1}, b={self.b}, epsilon={self.epsilon}, idf={self.idf!r}, "
                f"stopwords={len(self.stopwords)} words, language={self.language!r})")


def compound_terms(texts: Sequence[str], query_terms: Sequence[str], language: str,
                   stopwords: frozenset[str] = frozenset(), query_words: Sequence[str] = ()
                   ) -> tuple[list[list[str]], list[list[str]]]:
    """The words of each text as :func:`~authorag.relevance.language.terms` reads them (stop words
    kept), where a compound that ends with a query term as its head counts as that term
    (:func:`~authorag.relevance.compounds.compound_heads`): German term frequencies; and for each
    text, the parts of the query's compounds (``query_words``: its case-folded content words) that
    its words hold, one entry per word and part
    (:func:`~authorag.relevance.compounds.split_query`, :func:`~authorag.relevance.compounds.part_holders`).
    Each distinct word of the texts is stemmed once.

    Example:
        >>> compound_terms(["Die Einkommensteuererklärung abzugeben"], ["steuererklar", "abgeb"], "de")
        ([['die', 'steuererklar', 'abgeb']], [[]])
        >>> compound_terms(["Genossenschaftsanteile je nach Wohnungsgröße", "Wohnung"], ["genossenschaftswohn"], "de",
        ...                query_words=["genossenschaftswohnung"])[1]
        [['genossenschaft', 'wohnung'], ['wohnung']]
    """
    tokens = [tokenize(text, stopwords) for text in texts]
    distinct = list(dict.fromkeys(t for words in tokens for t in words))
    stems = dict(zip(distinct, stem_words(distinct, language)))
    wanted = set(query_terms)
    stem = partial(stem_words, language=language)
    heads = compound_heads([t for t in distinct if stems[t] not in wanted], query_terms, stem)
    holders = part_holders(split_query(query_words, stems, stem), stems, stem) if query_words else {}
    parts = [[p for t in words if t in holders for p in holders[t]] for words in tokens] if holders else [
        [] for _ in tokens]
    read = {t: heads.get(t) or s for t, s in stems.items()} if heads else stems  # each distinct word once
    return [[read[t] for t in words] for words in tokens], parts


def check_language(language: str) -> None:
    """Raise :class:`ConfigError` unless ``language`` is ``"auto"``, ``"plain"`` or a language read."""
    allowed = ("auto", PLAIN, *LEXICAL_LANGUAGES)
    if language not in allowed:
        raise ConfigError(f"language must be one of {', '.join(map(repr, allowed))}, got {language!r}; "
                          "use 'plain' for a language without stemming")
