"""BM25Retriever over a dozen hand-written documents."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.tokens import ENGLISH_STOPWORDS
from authorag.retrieval import BM25Retriever, Retriever
from authorag.types import Candidate


@pytest.fixture(scope="module")
def bm25(corpus: list[Candidate]) -> BM25Retriever:
    return BM25Retriever(corpus)


def _ids(cands: list[Candidate]) -> list[str]:
    return [c.id for c in cands]


def test_exact_tokens_win(bm25: BM25Retriever) -> None:
    # The blog repeats the query's exact tokens ("cranberries", "infection"); the NIH page says
    # "cranberry" and "infections" (no stemming), so lexical search puts the blog first.
    hits = bm25.retrieve("cranberries urinary tract infection")
    assert _ids(hits) == ["blog", "nih"]
    assert [c.scores["relevance.bm25"] for c in hits] == pytest.approx([7.93964, 3.46180], abs=1e-4)


@pytest.mark.parametrize(("query", "best"), [
    ("Can cranberries prevent urinary tract infections?", "nih"),
    ("flu vaccine", "flu"),
    ("sourdough starter", "bread"),
    ("kidney stones", "kidney"),
])
def test_matching_document_first(bm25: BM25Retriever, query: str, best: str) -> None:
    assert _ids(bm25.retrieve(query, top_k=3))[0] == best


def test_top_k_and_no_match(bm25: BM25Retriever) -> None:
    assert _ids(bm25.retrieve("cranberries urinary tract infection", top_k=1)) == ["blog"]
    assert bm25.retrieve("quantum chromodynamics") == []
    assert bm25.retrieve("") == []


def test_stopwords(corpus: list[Candidate]) -> None:
    plain = BM25Retriever(corpus).retrieve("does the flu shot work", top_k=12)
    stopped = BM25Retriever(corpus, stopwords=ENGLISH_STOPWORDS).retrieve("does the flu shot work", top_k=12)
    assert len(plain) > 1
    assert _ids(stopped) == ["flu"]


def test_corpus_is_not_mutated(bm25: BM25Retriever, corpus: list[Candidate]) -> None:
    hit = bm25.retrieve("marathon")[0]
    assert hit.id == "marathon" and hit.metadata["topic"] == "marathon"
    assert all(c.scores == {} for c in corpus)


def test_score_ids_matches_retrieve(bm25: BM25Retriever) -> None:
    query = "Can cranberries prevent urinary tract infections?"
    hits = bm25.retrieve(query, top_k=3)
    assert bm25.score_ids(query, _ids(hits)) == pytest.approx([c.scores["relevance.bm25"] for c in hits])
    assert bm25.score_ids(query, ["python"]) == [0.0]
    assert bm25.score_ids(query, []) == []
    with pytest.raises(ConfigError, match=r"id 'nope' is not in this corpus of 12 candidates"):
        bm25.score_ids(query, ["nope"])


def test_corpus_statistics_equal_candidate_statistics_on_the_same_set(bm25: BM25Retriever,
                                                                       corpus: list[Candidate]) -> None:
    query = "remedies that shorten a cold"
    ids = [c.id for c in corpus]
    # the retriever reads plain tokens (no stemming); BM25Relevance does so with language="plain"
    assert bm25.score_ids(query, ids) == pytest.approx(BM25Relevance(idf="okapi", language="plain").score(query, corpus))


def test_empty_and_single_document_corpus() -> None:
    assert BM25Retriever([]).retrieve("anything") == []
    one = BM25Retriever([Candidate.create("https://a.org", "cranberry juice", id="a")], idf="lucene")
    assert _ids(one.retrieve("cranberry")) == ["a"]


def test_validation(corpus: list[Candidate], bm25: BM25Retriever) -> None:
    with pytest.raises(ConfigError, match=r"ids must be unique; 'nih' appears at positions 0 and 12"):
        BM25Retriever([*corpus, corpus[0]])
    with pytest.raises(ConfigError, match=r"top_k must be a positive integer, got 0"):
        bm25.retrieve("flu", top_k=0)
    with pytest.raises(ConfigError, match=r"b must be in \[0, 1\]"):
        BM25Retriever(corpus, b=-0.1)


def test_is_a_retriever(bm25: BM25Retriever) -> None:
    assert isinstance(bm25, Retriever)
    assert len(bm25) == 12
