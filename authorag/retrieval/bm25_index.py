"""BM25Retriever: Okapi BM25 search over a small in-memory corpus (``relevance.bm25``).

Uses the same tokenization and parameters as :class:`~authorag.relevance.bm25.BM25Relevance`,
but IDF and mean length come from the whole corpus. rank-bm25 scores every document for every
query term in Python, so this is meant for corpora up to roughly 10^5 candidates; use a real
inverted index (Lucene, Pyserini) beyond that.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

import numpy as np

from authorag.relevance.bm25 import IdfMode, build_okapi, check_bm25_params
from authorag.relevance.tokens import stopword_set, tokenize
from authorag.retrieval._corpus import Corpus, check_top_k
from authorag.types import Candidate

logger = logging.getLogger(__name__)


class BM25Retriever:
    """Retrieve corpus candidates by Okapi BM25 (score ``relevance.bm25``).

    Only candidates sharing at least one token with the query are returned, best first; ties
    keep corpus order.

    Args:
        corpus: candidates to search (ids must be unique); their ``text`` is indexed.
        k1, b, epsilon, idf, stopwords: as in :class:`~authorag.relevance.bm25.BM25Relevance`.

    Raises:
        ConfigError: duplicate ids or an out-of-range parameter.

    Example:
        >>> corpus = [Candidate.create("https://a.org", text="cranberry juice and bladder infections", id="a"),
        ...           Candidate.create("https://b.org", text="zinc lozenges for colds", id="b")]
        >>> [c.id for c in BM25Retriever(corpus).retrieve("cranberry", top_k=5)]
        ['a']
    """

    name: str = "relevance.bm25"

    def __init__(self, corpus: Iterable[Candidate], *, k1: float = 1.5, b: float = 0.75,
                 epsilon: float = 0.25, idf: IdfMode = "okapi",
                 stopwords: Iterable[str] | None = None) -> None:
        check_bm25_params(k1, b, epsilon, idf)
        self.corpus = Corpus(corpus)
        self.stopwords = stopword_set(stopwords)
        self._docs = [tokenize(c.text, self.stopwords) for c in self.corpus.candidates]
        self._model = build_okapi(self._docs, k1, b, epsilon, idf)
        self._postings: dict[str, list[int]] = {}
        for pos, doc in enumerate(self._docs):
            for term in set(doc):
                self._postings.setdefault(term, []).append(pos)
        logger.debug("bm25 index: %d candidates, %d terms", len(self.corpus), len(self._postings))

    def __len__(self) -> int:
        return len(self.corpus)

    def retrieve(self, query: str, top_k: int = 10) -> list[Candidate]:
        """The best ``top_k`` candidates containing a query token, with ``relevance.bm25`` set."""
        check_top_k(top_k)
        terms = tokenize(query, self.stopwords)
        matched = sorted({p for t in terms for p in self._postings.get(t, ())})
        if not matched or self._model is None:
            return []
        scores = np.asarray(self._model.get_batch_scores(terms, matched), dtype=np.float64)
        order = np.argsort(-scores, kind="stable")[:top_k]
        return [self.corpus[matched[i]].with_score(self.name, float(scores[i])) for i in order]

    def score_ids(self, query: str, ids: Sequence[str]) -> list[float]:
        """BM25 scores of the corpus candidates ``ids`` (0 for candidates without a query token)."""
        positions = self.corpus.positions(ids)
        terms = tokenize(query, self.stopwords)
        if not positions or not terms or self._model is None:
            return [0.0] * len(positions)
        return [float(s) for s in self._model.get_batch_scores(terms, positions)]

    def __repr__(self) -> str:
        return f"BM25Retriever({len(self)} candidates)"
