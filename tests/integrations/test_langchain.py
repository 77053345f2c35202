"""LangChain adapters inside real LangChain machinery (FAISS + MiniLM, ContextualCompressionRetriever, LCEL)."""
from __future__ import annotations

import copy
from typing import Any

import pytest

QUERY = "does cranberry juice prevent urinary tract infections"  # as in conftest.CORPUS

pytest.importorskip("langchain_core")

from langchain_core.documents import Document
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from pydantic import ValidationError

from authorag.integrations.langchain import AuthorityCompressor, AuthorityRetriever
from authorag.policy import DEFAULT_ON_TOPIC

BLOG, NIH, MAYO, BIZ = (
    "https://cranberrycure.blogspot.com/post", "https://www.nih.gov/news/cranberry-uti",
    "https://www.mayoclinic.org/cranberry", "https://healthy-tips-4u.example.biz/cranberry",
)


def _sources(docs: Any) -> list[str]:
    return [d.metadata["source"] for d in docs]


def test_faiss_base_order_is_relevance_only(faiss_store: Any) -> None:
    # The first stage alone puts the matching-but-unsourced blog first (this is what authority fixes).
    docs = faiss_store.as_retriever(search_kwargs={"k": 4}).invoke(QUERY)
    assert _sources(docs) == [BLOG, MAYO, BIZ, NIH]


def test_contextual_compression_retriever_reorders_by_authority(faiss_store: Any) -> None:
    from langchain_classic.retrievers import ContextualCompressionRetriever

    retriever = ContextualCompressionRetriever(
        base_compressor=AuthorityCompressor(relevance="auto", weight=0.5, top_n=3),
        base_retriever=faiss_store.as_retriever(search_kwargs={"k": 4}),
    )
    docs = retriever.invoke(QUERY)
    # rank relevance mixed with query-term coverage decides who is on topic; the NIH page, last in
    # FAISS's order and naming two of the query's six words, is not; trust orders the other three
    assert _sources(docs) == [MAYO, BLOG, BIZ]
    mayo = docs[0].metadata["authority"]
    assert (mayo["tier"], mayo["relevance_norm"]) == ("table", 1.0)
    assert docs[0].metadata["relevance_score"] == pytest.approx(0.5 + 0.5 * (0.5 * 1.0 + 0.5 * mayo["trust"]))
    assert docs[1].metadata["authority"]["tier"] == "hosted"
    assert [d.metadata["relevance_score"] for d in docs] == [d.metadata["authority"]["fused"] for d in docs]


def test_lcel_chain_with_compression(faiss_store: Any) -> None:
    from langchain_classic.retrievers import ContextualCompressionRetriever

    retriever = ContextualCompressionRetriever(
        base_compressor=AuthorityCompressor(relevance="auto", weight=0.5, top_n=2),
        base_retriever=faiss_store.as_retriever(search_kwargs={"k": 4}),
    )
    chain = {"docs": retriever, "question": RunnablePassthrough()} | RunnableLambda(
        lambda x: {"question": x["question"], "sources": _sources(x["docs"])}
    )
    assert chain.invoke(QUERY) == {"question": QUERY, "sources": [MAYO, BLOG]}  # the top two of the order above


async def test_contextual_compression_async_matches_sync(faiss_store: Any) -> None:
    from langchain_classic.retrievers import ContextualCompressionRetriever

    retriever = ContextualCompressionRetriever(
        base_compressor=AuthorityCompressor(relevance="auto", weight=0.5, top_n=3),
        base_retriever=faiss_store.as_retriever(search_kwargs={"k": 4}),
    )
    assert _sources(await retriever.ainvoke(QUERY)) == [MAYO, BLOG, BIZ]


def _docs() -> list[Document]:
    return [
        Document("blog text", metadata={"source": BLOG, "chunk": 1}, id="a"),
        Document("nih text", metadata={"url": NIH, "chunk": 2}, id="b"),
        Document("no source", metadata={"chunk": 3}, id="c"),
    ]


def test_metadata_is_kept_and_inputs_untouched() -> None:
    docs = _docs()
    before = copy.deepcopy(docs)
    out = AuthorityCompressor(relevance="auto", weight=0.8).compress_documents(docs, "q")
    assert [d.id for d in out] == ["b", "a", "c"]
    assert docs == before
    nih = out[0].metadata
    assert nih["chunk"] == 2 and nih["url"] == NIH
    assert nih["authority"]["tier"] == "table"
    assert nih["authority"]["relevance_source"] == "rank"
    assert nih["authority"]["relevance"] == pytest.approx(2 / 3)
    assert out[2].metadata["authority"]["has_url"] is False
    assert out[2].metadata["authority"]["authority"] is None


def test_upstream_relevance_score_is_used_and_kept() -> None:
    docs = [Document("x", metadata={"source": BLOG, "relevance_score": 0.9}),
            Document("y", metadata={"source": NIH, "relevance_score": 0.1})]
    out = AuthorityCompressor(relevance="auto", weight=0.3).compress_documents(docs, "q")
    # relevance relative to the best: nih.gov's 0.1 is a ninth of the blog's 0.9, so it is off topic
    # and stays below, however trusted
    assert _sources(out) == [BLOG, NIH]
    blog = out[0].metadata["authority"]
    assert blog["relevance_source"] == "upstream"
    assert blog["relevance"] == pytest.approx(0.9) and blog["relevance_norm"] == 1.0
    assert out[0].metadata["relevance_score"] == pytest.approx(0.5 + 0.5 * (0.7 * 1.0 + 0.3 * blog["trust"]))
    # off topic: its share of the on-topic threshold, halved (trust does not reorder off-topic pages)
    assert out[1].metadata["relevance_score"] == pytest.approx(0.5 * (0.1 / 0.9) / DEFAULT_ON_TOPIC)


def test_custom_url_keys_and_filter_mode() -> None:
    docs = [Document("x", metadata={"link_to": BLOG}), Document("y", metadata={"link_to": NIH}),
            Document("z", metadata={"link_to": MAYO})]
    # BM25: the texts share no word with the query, so trust orders the two kept (a model's cosines of
    # "y" and "z" to "q" would decide by noise)
    out = AuthorityCompressor(url_keys=("link_to",), mode="filter", top_n=2, relevance="bm25").compress_documents(docs, "q")
    assert [d.metadata["link_to"] for d in out] == [NIH, MAYO]


async def test_async_equals_sync() -> None:
    comp = AuthorityCompressor(weight=0.6, top_n=2)
    sync = comp.compress_documents(_docs(), "q")
    assert await comp.acompress_documents(_docs(), "q") == sync


@pytest.mark.parametrize("n", [0, 1])
def test_empty_and_single(n: int) -> None:
    out = AuthorityCompressor().compress_documents(_docs()[:n], "q")
    assert len(out) == n


@pytest.mark.parametrize("field,value,match", [
    ("top_n", 0, "top_n must be a positive integer"),
    ("weight", 1.5, r"weight must be in \[0, 1\], got 1.5"),
    ("fusion", "max", "Input should be 'window', 'prior', 'linear' or 'rrf'"),
])
def test_invalid_fields(field: str, value: object, match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        AuthorityCompressor(**{field: value})


def test_retriever_k_per_call(faiss_store: Any) -> None:
    retriever = AuthorityRetriever(base_retriever=faiss_store.as_retriever(search_kwargs={"k": 4}),
                                   compressor=AuthorityCompressor(relevance="auto", weight=0.5), k=3)
    assert _sources(retriever.invoke(QUERY)) == [MAYO, BLOG, BIZ]
    assert _sources(retriever.invoke(QUERY, k=1)) == [MAYO]
    with pytest.raises(ValueError, match="k must be a positive integer"):
        retriever.invoke(QUERY, k=0)


def test_the_default_scores_the_text_and_keeps_the_incoming_score() -> None:
    from authorag.relevance.registry import cascade_or_bm25

    name = f"relevance.{cascade_or_bm25()}"
    docs = [Document("x", metadata={"source": BLOG, "relevance_score": 0.9}),
            Document("y", metadata={"source": NIH, "relevance_score": 0.1}), Document("z", metadata={"source": MAYO})]
    out = AuthorityCompressor().compress_documents(docs, "q")  # relevance cascade-or-bm25
    why = {d.metadata["source"]: d.metadata["authority"] for d in out}
    assert {u: (w["relevance_source"], w["upstream_score"]) for u, w in why.items()} == {
        BLOG: (name, 0.9), NIH: (name, 0.1), MAYO: (name, None)}
    assert [d.metadata["relevance_score"] for d in out] == [d.metadata["authority"]["fused"] for d in out]
