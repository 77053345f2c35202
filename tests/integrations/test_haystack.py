"""AuthorityRanker inside real Haystack pipelines (InMemory BM25 retriever -> ranker), YAML round trip."""
from __future__ import annotations

import copy
from typing import Any

import pytest

pytest.importorskip("haystack")

from haystack import Document, Pipeline
from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
from haystack.document_stores.in_memory import InMemoryDocumentStore
from haystack.utils import Secret

from authorag.integrations.haystack import AuthorityRanker
from authorag.relevance.coverage import coverage
from authorag.rerankers.fusion import COVERAGE_SHARE
from authorag.rerankers.leads import NO_LEAD_NOTE, RESTATED_NOTE

QUERY = "does cranberry juice prevent urinary tract infections"  # as in conftest.CORPUS
BLOG, NIH, MAYO, BIZ = (
    "https://cranberrycure.blogspot.com/post", "https://www.nih.gov/news/cranberry-uti",
    "https://www.mayoclinic.org/cranberry", "https://healthy-tips-4u.example.biz/cranberry",
)


@pytest.fixture
def store(corpus: list[tuple[str, str]]) -> InMemoryDocumentStore:
    s = InMemoryDocumentStore()
    s.write_documents([Document(content=text, meta={"url": url}) for url, text in corpus])
    return s


def _pipeline(store: InMemoryDocumentStore, ranker: AuthorityRanker) -> Pipeline:
    p = Pipeline()
    p.add_component("retriever", InMemoryBM25Retriever(store, top_k=4))
    p.add_component("ranker", ranker)
    p.connect("retriever.documents", "ranker.documents")
    return p


def _urls(docs: list[Document]) -> list[str]:
    return [d.meta["url"] for d in docs]


def test_pipeline_bm25_then_authority(store: InMemoryDocumentStore) -> None:
    bm25 = InMemoryBM25Retriever(store, top_k=4).run(query=QUERY)["documents"]
    assert _urls(bm25) == [BLOG, BIZ, MAYO, NIH]  # relevance alone
    out = _pipeline(store, AuthorityRanker(relevance="auto", weight=0.5, top_k=3)).run(
        {"retriever": {"query": QUERY}, "ranker": {"query": QUERY}})["ranker"]["documents"]
    # the window's relevance mixes query-term coverage (0.7) with the incoming BM25 scores (0.3),
    # each relative to its best, then relative to the best page that is not keyword-stuffed: the
    # NIH paraphrase (BM25 a quarter of Mayo's) is off topic; trust orders the on-topic three (with
    # page evidence off by default the hosted blog keeps its platform's user-content level, 0.35,
    # above the unknown example.biz page, 0.30)
    assert _urls(out) == [MAYO, BLOG, BIZ]
    s = {d.meta["url"]: d.score for d in bm25}
    cov = dict(zip(s, coverage(QUERY, [d.content or "" for d in bm25]), strict=True))
    mix = {u: COVERAGE_SHARE * cov[u] / max(cov.values()) + (1 - COVERAGE_SHARE) * s[u] / s[BLOG] for u in s}
    mayo = out[0].meta["authority"]
    assert mayo["relevance_norm"] == pytest.approx(mix[MAYO] / max(mix[u] for u in s if u != BLOG))
    assert mayo["relevance_note"] == (  # example.biz restates the question: no lead either
        f"keyword-stuffed, not used as the relevance reference: {BLOG}; {NO_LEAD_NOTE}; {RESTATED_NOTE}: {BIZ}")
    assert out[0].score == pytest.approx(0.5 + 0.5 * (0.5 * mayo["relevance_norm"] + 0.5 * mayo["trust"]))
    assert out[1].meta["authority"]["tier"] == "hosted"  # a user's blog on blogspot
    assert out[0].meta["authority"]["relevance"] == pytest.approx(s[MAYO])  # incoming score kept
    assert out[0].meta["authority"]["relevance_source"] == "upstream"


def test_pipeline_yaml_round_trip(store: InMemoryDocumentStore) -> None:
    ranker = AuthorityRanker(weight=0.5, top_k=3, deny=["*.example.biz"],
                             judge_api_key=Secret.from_env_var("AUTHORAG_TEST_JUDGE_KEY", strict=False))
    pipe = _pipeline(store, ranker)
    text = pipe.dumps()
    assert "authorag.integrations.haystack.AuthorityRanker" in text
    assert "AUTHORAG_TEST_JUDGE_KEY" in text
    loaded = Pipeline.loads(text, allowed_modules=["authorag.*"])
    data = {"retriever": {"query": QUERY}, "ranker": {"query": QUERY}}
    first = pipe.run(data)["ranker"]["documents"]
    again = loaded.run(data)["ranker"]["documents"]
    assert _urls(again) == _urls(first) == [MAYO, BLOG, NIH]  # the deny list drops the .biz page
    assert [d.score for d in again] == pytest.approx([d.score for d in first])
    restored = loaded.get_component("ranker")
    assert isinstance(restored, AuthorityRanker)
    assert restored.to_dict() == ranker.to_dict()


def test_loading_needs_the_allowlist(store: InMemoryDocumentStore) -> None:
    from haystack.core.errors import DeserializationError

    text = _pipeline(store, AuthorityRanker()).dumps()
    with pytest.raises(DeserializationError, match="authorag"):
        Pipeline.loads(text)


async def test_pipeline_run_async(store: InMemoryDocumentStore) -> None:
    pipe = _pipeline(store, AuthorityRanker(weight=0.5, top_k=2))
    out = await pipe.run_async({"retriever": {"query": QUERY}, "ranker": {"query": QUERY}})
    # the blog repeats the question (keyword-stuffed) and example.biz restates it: neither gets a lead
    # on relevance over Mayo, which answers in its own words, so trust orders them (hosted blog 0.35,
    # unknown example.biz 0.30)
    assert _urls(out["ranker"]["documents"]) == [MAYO, BLOG]


def _docs() -> list[Document]:
    return [Document(content="blog", meta={"url": BLOG, "k": 1}, score=0.9),
            Document(content="nih", meta={"source": NIH, "k": 2}, score=0.1),
            Document(content="none", meta={"k": 3}, score=0.7)]


def test_never_mutates_input_and_keeps_meta() -> None:
    docs = _docs()
    before = copy.deepcopy(docs)
    out = AuthorityRanker(relevance="auto", weight=0.9).run(query="q", documents=docs)["documents"]
    assert docs == before
    # NIH's score is a ninth of the best: off topic, below the others whatever its trust; at weight
    # 0.9 the hosted blog (its platform's user-content level, 0.35) stays above the unknown page (0.3)
    assert [d.meta["k"] for d in out] == [1, 3, 2]
    assert [d.id for d in out] == [docs[0].id, docs[2].id, docs[1].id]
    assert (out[0].meta["authority"]["has_url"], out[1].meta["authority"]["has_url"]) == (True, False)


def test_rank_relevance_without_scores() -> None:
    docs = [Document(content="a", meta={"url": BLOG}), Document(content="b", meta={"url": NIH})]
    out = AuthorityRanker(relevance="auto", weight=0.3).run(query="q", documents=docs)["documents"]
    # texts that do not mention the query, and an order without scores: both on topic, trust orders
    assert _urls(out) == [NIH, BLOG]
    assert out[0].meta["authority"]["relevance_source"] == "rank"


async def test_run_async_equals_run() -> None:
    ranker = AuthorityRanker(weight=0.5)
    assert (await ranker.run_async(query="q", documents=_docs()))["documents"] == \
        ranker.run(query="q", documents=_docs())["documents"]


@pytest.mark.parametrize("top_k", [0, -1])
def test_top_k_must_be_positive(top_k: int) -> None:
    with pytest.raises(ValueError, match="top_k must be a positive integer"):
        AuthorityRanker().run(query="q", documents=_docs(), top_k=top_k)
    with pytest.raises(ValueError, match="top_k must be a positive integer"):
        AuthorityRanker(top_k=top_k)


def test_empty_input_and_runtime_top_k() -> None:
    ranker = AuthorityRanker(top_k=3)
    assert ranker.run(query="q", documents=[]) == {"documents": []}
    assert len(ranker.run(query="q", documents=_docs(), top_k=1)["documents"]) == 1


def test_invalid_policy_fails_at_init() -> None:
    with pytest.raises(ValueError, match=r"weight must be in \[0, 1\], got 2"):
        AuthorityRanker(weight=2)


def test_dict_round_trip_with_token_secret_refuses() -> None:
    ranker = AuthorityRanker(judge_api_key=Secret.from_token("sk-123"))
    with pytest.raises(ValueError, match="Cannot serialize token-based secret"):
        ranker.to_dict()


def test_dict_round_trip() -> None:
    ranker = AuthorityRanker(weight=0.4, fusion="rrf", exclude_sources=["majestic"], url_meta_keys=["link"])
    again: Any = AuthorityRanker.from_dict(ranker.to_dict())
    assert again.to_dict() == ranker.to_dict()
    docs = [Document(content="a", meta={"link": BLOG}), Document(content="b", meta={"link": NIH})]
    assert again.run(query="q", documents=docs) == ranker.run(query="q", documents=docs)


def test_runtime_weight_override() -> None:
    docs = [Document(content="a", meta={"url": BLOG}), Document(content="b", meta={"url": NIH})]
    ranker = AuthorityRanker(relevance="auto", weight=0.0)
    assert _urls(ranker.run(query="q", documents=docs)["documents"]) == [BLOG, NIH]
    assert _urls(ranker.run(query="q", documents=docs, weight=1.0)["documents"]) == [NIH, BLOG]
    with pytest.raises(ValueError, match=r"weight must be in \[0, 1\], got 1.5"):
        ranker.run(query="q", documents=docs, weight=1.5)


def test_warm_up_loads_the_dense_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Haystack calls ``warm_up()`` before a pipeline runs: the dense model loads there, not in
    the first ``run()``."""
    pytest.importorskip("sentence_transformers")
    from authorag.relevance import dense as dense_module

    monkeypatch.setattr(dense_module, "_MODELS", {})  # force a real load, restored afterwards
    ranker = AuthorityRanker(relevance="dense")
    assert dense_module._MODELS == {}  # pyright: ignore[reportPrivateUsage]
    ranker.warm_up()
    assert [k[2] for k in dense_module._MODELS] == [dense_module.LEAD_TOKENS]  # pyright: ignore[reportPrivateUsage]
    docs = [Document(content="Cranberry juice and urinary tract infections", meta={"url": "https://www.nih.gov/a"}),
            Document(content="How to change a flat tyre", meta={"url": "https://tyres.example.com/b"})]
    out = ranker.run(query="does cranberry juice prevent urinary tract infections", documents=docs)["documents"]
    assert [d.meta["url"] for d in out] == ["https://www.nih.gov/a", "https://tyres.example.com/b"]
    assert out[0].meta["authority"]["relevance_source"] == "relevance.dense"


def test_the_default_scores_the_text_and_keeps_the_incoming_score() -> None:
    from authorag.relevance.registry import cascade_or_bm25

    name = f"relevance.{cascade_or_bm25()}"
    out = AuthorityRanker().run(query="q", documents=_docs())["documents"]  # cascade-or-bm25
    assert {d.meta["k"]: (d.meta["authority"]["relevance_source"], d.meta["authority"]["upstream_score"])
            for d in out} == {1: (name, 0.9), 2: (name, 0.1), 3: (name, 0.7)}
    assert [d.score for d in out] == [d.meta["authority"]["fused"] for d in out]
