"""DenseRetriever with the real MiniLM over a dozen documents: orders, index kinds, persistence."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from authorag.errors import ConfigError, MissingDependencyError
from authorag.relevance.dense import DenseEncoder
from authorag.retrieval import DenseRetriever, IndexOptions, Retriever
from authorag.types import Candidate

UTI = "Can cranberries prevent urinary tract infections?"


@pytest.fixture(scope="module")
def dense(corpus: list[Candidate], encoder: DenseEncoder) -> DenseRetriever:
    return DenseRetriever(corpus, encoder)


def _ids(cands: list[Candidate]) -> list[str]:
    return [c.id for c in cands]


@pytest.mark.parametrize(("query", "best"), [
    ("which supplement helps me fall asleep", "sleep"),
    ("how do I fix a punctured wheel on my car", "tyre"),
    ("learning to program", "python"),
    ("does the flu shot work", "flu"),
])
def test_semantic_match_first(dense: DenseRetriever, query: str, best: str) -> None:
    assert _ids(dense.retrieve(query, top_k=3))[0] == best


def test_cranberry_query(dense: DenseRetriever) -> None:
    hits = dense.retrieve(UTI, top_k=3)
    assert _ids(hits) == ["blog", "nih", "kidney"]
    scores = [c.scores["relevance.dense"] for c in hits]
    assert scores == sorted(scores, reverse=True)
    assert scores[1] > 0.7
    assert scores[2] < 0.5


def test_top_k_larger_than_corpus(dense: DenseRetriever) -> None:
    assert len(dense.retrieve(UTI, top_k=50)) == 12


@pytest.mark.parametrize("opts", [IndexOptions(kind="ivf", nlist=2, nprobe=2), IndexOptions(kind="hnsw", m=8)],
                         ids=["ivf", "hnsw"])
def test_other_index_kinds_agree_on_small_corpus(corpus: list[Candidate], encoder: DenseEncoder,
                                                 dense: DenseRetriever, opts: IndexOptions) -> None:
    other = DenseRetriever(corpus, encoder, options=opts)
    assert other.index.kind == opts.kind
    assert _ids(other.retrieve(UTI, top_k=4)) == _ids(dense.retrieve(UTI, top_k=4))


def test_score_ids(dense: DenseRetriever) -> None:
    hits = dense.retrieve(UTI, top_k=3)
    assert dense.score_ids(UTI, _ids(hits)) == pytest.approx([c.scores["relevance.dense"] for c in hits], abs=1e-5)
    assert dense.score_ids(UTI, []) == []


@pytest.mark.parametrize("kind", ["flat", "hnsw"])
def test_save_load_round_trip(tmp_path: Path, corpus: list[Candidate], encoder: DenseEncoder, kind: str) -> None:
    built = DenseRetriever(corpus, encoder, kind=kind)
    built.save(tmp_path / "dense")
    loaded = DenseRetriever.load(tmp_path / "dense", encoder)
    query = "remedies that shorten a cold"
    a, b = built.retrieve(query, top_k=5), loaded.retrieve(query, top_k=5)
    assert _ids(a) == _ids(b)
    assert [c.scores["relevance.dense"] for c in b] == pytest.approx([c.scores["relevance.dense"] for c in a], abs=1e-6)
    restored = {c.id: c for c in loaded.corpus.candidates}
    for c in corpus:
        r = restored[c.id]
        assert (r.url, r.domain, r.text, dict(r.metadata)) == (c.url, c.domain, c.text, dict(c.metadata))
    assert loaded.index.kind == kind


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no saved dense retriever in .*retriever.json"):
        DenseRetriever.load(tmp_path)


def test_empty_and_single_document_corpus(encoder: DenseEncoder) -> None:
    assert DenseRetriever([], encoder).retrieve(UTI) == []
    one = DenseRetriever([Candidate.create("https://a.org", "cranberry juice", id="a")], encoder)
    assert _ids(one.retrieve(UTI)) == ["a"]


def test_duplicate_ids_rejected(corpus: list[Candidate], encoder: DenseEncoder) -> None:
    with pytest.raises(ConfigError, match=r"ids must be unique; 'blog' appears at positions 1 and 12"):
        DenseRetriever([*corpus, corpus[1]], encoder)


def test_missing_extra(monkeypatch: pytest.MonkeyPatch, corpus: list[Candidate]) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'authorag\[embeddings\]'"):
        DenseRetriever(corpus)


def test_is_a_retriever(dense: DenseRetriever) -> None:
    assert isinstance(dense, Retriever)
