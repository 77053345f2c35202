"""AuthorityPostprocessor inside real LlamaIndex machinery (VectorStoreIndex + MiniLM, query engines, MockLLM)."""
from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from authorag import adapters
from authorag.compose import load_scorer
from authorag.errors import ConfigError
from authorag.integrations.llamaindex import META_KEY, AuthorityPostprocessor
from authorag.relevance.coverage import coverage
from authorag.rerankers.fusion import COVERAGE_SHARE

QUERY = "does cranberry juice prevent urinary tract infections"  # as in conftest.CORPUS
BLOG, NIH, MAYO, BIZ = (
    "https://cranberrycure.blogspot.com/post", "https://www.nih.gov/news/cranberry-uti",
    "https://www.mayoclinic.org/cranberry", "https://healthy-tips-4u.example.biz/cranberry",
)
BREAKDOWN_KEYS = {"version", "authority", "confidence", "tier", "credibility", "matched", "sources",
                  "credibility_sources", "raw", "note", "trust", "trust_reason", "url", "host", "domain",
                  "has_url", "signal", "relevance", "relevance_source", "upstream_score", "relevance_norm", "fused",
                  "relevance_note", "relevance_decided_by"}


def _urls(nodes: list[NodeWithScore]) -> list[str]:
    return [n.node.metadata["url"] for n in nodes]


def _core(nodes: list[NodeWithScore], **policy: Any) -> list[tuple[str, float]]:
    """What the core reranker gives for the same URLs, texts and retriever scores (surface == core)."""
    reranker, mode = adapters.build_reranker(load_scorer(), "auto", policy)
    cands, _ = adapters.candidates([(n.node.metadata["url"], n.node.get_content(), n.score) for n in nodes], mode)
    return [(c.url, c.scores["fused"]) for c in reranker.rerank(QUERY, cands)]


def test_retriever_alone_ranks_by_similarity(llama_index: Any) -> None:
    # The first stage puts the matching-but-unsourced pages first (what authority fixes).
    assert _urls(llama_index.as_retriever(similarity_top_k=4).retrieve(QUERY)) == [BLOG, BIZ, MAYO, NIH]


def test_query_engine_reorders_by_authority(llama_index: Any) -> None:
    retrieved = llama_index.as_retriever(similarity_top_k=4).retrieve(QUERY)
    sims = {n.node.metadata["url"]: n.score for n in retrieved}
    engine = llama_index.as_query_engine(llm=MockLLM(), similarity_top_k=4,
                                         node_postprocessors=[AuthorityPostprocessor(relevance="auto", weight=0.5, top_n=3)])
    response = engine.query(QUERY)
    nodes = response.source_nodes
    # the window mixes query-term coverage (0.7) with the retriever's similarity (0.3): the NIH
    # paraphrase names two of the query's six words and drops off topic; trust orders the rest (page
    # evidence off by default: the hosted blog keeps its user-content level, 0.35, above example.biz's 0.30)
    assert _urls(nodes) == [MAYO, BLOG, BIZ]
    assert [(u, pytest.approx(s)) for u, s in _core(retrieved, weight=0.5)[:3]] == [(n.node.metadata["url"], n.score)
                                                                                 for n in nodes]
    cov = dict(zip(sims, coverage(QUERY, [n.node.get_content() for n in retrieved]), strict=True))
    best = max(sims.values())
    mix = {u: COVERAGE_SHARE * cov[u] / max(cov.values()) + (1 - COVERAGE_SHARE) * sims[u] / best for u in sims}
    ref = max(v for u, v in mix.items() if u != BLOG)  # the best candidate that is not keyword-stuffed
    trust = [n.node.metadata[META_KEY]["trust"] for n in nodes]
    assert nodes[0].score == pytest.approx(0.5 + 0.5 * (0.5 * mix[MAYO] / ref + 0.5 * trust[0]))
    # example.biz restates the question: no lead on relevance over Mayo, which answers in its own words
    assert mix[BIZ] > mix[MAYO]
    assert nodes[2].score == pytest.approx(0.5 + 0.5 * (0.5 * mix[MAYO] / ref + 0.5 * 0.3), abs=1e-6)  # unknown source
    meta = nodes[0].node.metadata
    assert set(meta) == {"url", "pos", META_KEY} and set(meta[META_KEY]) == BREAKDOWN_KEYS
    assert [n.node.metadata[META_KEY]["tier"] for n in nodes] == ["table", "hosted", "unknown"]
    assert meta[META_KEY]["relevance"] == pytest.approx(sims[MAYO]) and meta[META_KEY]["relevance_source"] == "upstream"
    assert [n.node.node_id for n in nodes] == ["n2", "n0", "n3"]  # ids kept: evaluators match on them
    # MockLLM answers with its prompt: the context is in fused order and carries no explanation.
    text = str(response.response)
    assert text.index(MAYO) < text.index(BLOG) < text.index(BIZ) and NIH not in text
    assert "relevance_source" not in text and "url: " + MAYO in text


async def test_async_query_engine_matches_sync(llama_index: Any) -> None:
    retriever = llama_index.as_retriever(similarity_top_k=4)
    post = AuthorityPostprocessor(weight=0.5, top_n=3)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM(), node_postprocessors=[post])
    sync = [(n.node.node_id, n.score) for n in engine.query(QUERY).source_nodes]
    response = await engine.aquery(QUERY)
    assert [(n.node.node_id, n.score) for n in response.source_nodes] == sync
    nodes = await retriever.aretrieve(QUERY)
    direct = await post.apostprocess_nodes(nodes, query_str=QUERY)
    assert [(n.node.node_id, n.score) for n in direct] == sync


def _nodes() -> list[NodeWithScore]:
    return [
        NodeWithScore(node=TextNode(text="blog text", metadata={"source": BLOG, "chunk": 1}, id_="a"), score=0.9),
        NodeWithScore(node=TextNode(text="nih text", metadata={"url": NIH, "chunk": 2}, id_="b"), score=0.8),
        NodeWithScore(node=TextNode(text="no source", metadata={"chunk": 3}, id_="c"), score=0.7),
    ]


def test_inputs_are_not_changed() -> None:
    nodes = _nodes()
    before = [(n.score, n.node.metadata.copy(), list(n.node.excluded_llm_metadata_keys)) for n in nodes]
    out = AuthorityPostprocessor(relevance="auto", weight=0.8).postprocess_nodes(nodes, query_str=QUERY)
    assert [(n.score, n.node.metadata, n.node.excluded_llm_metadata_keys) for n in nodes] == before
    assert [n.node.node_id for n in out] == ["b", "a", "c"]
    assert all(o.node is not n.node for o in out for n in nodes)
    assert [o.node.excluded_embed_metadata_keys for o in out] == [[META_KEY]] * 3
    assert out[2].node.metadata[META_KEY]["has_url"] is False
    assert out[0].node.metadata["chunk"] == 2  # other metadata kept
    assert out[0].node.model_dump(exclude_unset=True)["metadata"][META_KEY]["domain"] == "nih.gov"
    again = AuthorityPostprocessor(relevance="auto", weight=0.8).postprocess_nodes(out, query_str=QUERY)  # no second exclusion entry
    assert [n.node.excluded_llm_metadata_keys for n in again] == [[META_KEY]] * 3


def test_serialisation_round_trips() -> None:
    post = AuthorityPostprocessor(weight=0.6, top_n=2, fusion="rrf", mode="filter", allow=("*.gov",),
                                  url_keys=("link", "url"), relevance="rank", suitability=True,
                                  exclude_sources=("moz",), scorer=load_scorer())
    data = post.to_dict()
    assert data["class_name"] == "AuthorityPostprocessor" and "scorer" not in data
    assert json.loads(post.to_json()) == json.loads(json.dumps(data))
    for again in (AuthorityPostprocessor.from_dict(data), AuthorityPostprocessor.from_json(post.to_json()),
                  pickle.loads(pickle.dumps(post))):
        assert again.to_dict() == data
        assert (again.allow, again.url_keys, again.exclude_sources) == (("*.gov",), ("link", "url"), ("moz",))
    rebuilt = AuthorityPostprocessor.from_json(post.to_json())
    assert [n.node.node_id for n in rebuilt.postprocess_nodes(_nodes(), query_str=QUERY)] == ["b", "a"]
    assert rebuilt.reranker().scorer.name == "reserved>hosted>table-moz"


@pytest.mark.parametrize(("fields", "message"), [
    ({"weight": 1.5}, r"weight must be in \[0, 1\], got 1.5"),
    ({"top_n": 0}, "top_n must be a positive integer or None, got 0"),
    ({"fusion": "max"}, "fusion"),
])
def test_bad_settings_say_what_to_change(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        AuthorityPostprocessor(**fields)
    with pytest.raises(ValueError, match=message):
        AuthorityPostprocessor.from_dict({"class_name": "AuthorityPostprocessor", **fields})


def test_edge_cases() -> None:
    post = AuthorityPostprocessor(relevance="auto")
    assert post.postprocess_nodes([], query_str=QUERY) == []
    one = post.postprocess_nodes(_nodes()[:1])  # no query needed: relevance from the incoming scores
    assert [n.node.node_id for n in one] == ["a"]
    with pytest.raises(ValueError, match=r"relevance='bm25' needs the query: call postprocess_nodes\(nodes, query_str"):
        AuthorityPostprocessor(relevance="bm25").postprocess_nodes(_nodes())
    with pytest.raises(ValueError, match=r"relevance='cascade-or-bm25' needs the query: .* or pass a query_bundle, or "
                                         r"set relevance='auto' to fuse the incoming scores$"):
        AuthorityPostprocessor().postprocess_nodes(_nodes())  # the default scores the text against the query
    unscored = [NodeWithScore(node=n.node) for n in _nodes()]
    with pytest.raises(ConfigError, match="relevance 'upstream' needs a score on every document"):
        AuthorityPostprocessor(relevance="upstream").postprocess_nodes(unscored, QueryBundle(QUERY))
    ranked = AuthorityPostprocessor(relevance="auto").postprocess_nodes(unscored, QueryBundle(QUERY))  # auto: the incoming order
    assert [n.node.metadata[META_KEY]["relevance_source"] for n in ranked] == ["rank"] * 3
    bm25 = AuthorityPostprocessor(relevance="bm25", weight=0.0).postprocess_nodes(_nodes(), query_str="nih")
    assert [n.node.node_id for n in bm25][0] == "b"
    assert bm25[0].node.metadata[META_KEY]["relevance_source"] == "relevance.bm25"


def test_policy_fields_reach_the_reranker() -> None:
    out = AuthorityPostprocessor(relevance="auto", min_authority=0.5).postprocess_nodes(_nodes(), query_str=QUERY)
    assert [n.node.node_id for n in out] == ["b"]  # the blog (0.4) and the page without a source are dropped
    out = AuthorityPostprocessor(relevance="auto", deny=("nih.gov",)).postprocess_nodes(_nodes(), query_str=QUERY)
    assert [n.node.node_id for n in out] == ["a", "c"]
    suited = AuthorityPostprocessor(suitability=True).postprocess_nodes(_nodes(), query_str=QUERY)
    types = {n.node.node_id: n.node.metadata[META_KEY]["source_type"] for n in suited}
    assert (types["a"], types["b"]) == ("blog", "government") and "suitability" in suited[0].node.metadata[META_KEY]


def test_the_default_scores_the_text_and_keeps_the_incoming_score() -> None:
    from authorag.relevance.registry import cascade_or_bm25

    name = f"relevance.{cascade_or_bm25()}"
    out = AuthorityPostprocessor().postprocess_nodes(_nodes(), query_str=QUERY)  # cascade-or-bm25
    assert {n.node.node_id: (n.node.metadata[META_KEY]["relevance_source"], n.node.metadata[META_KEY]["upstream_score"])
            for n in out} == {"a": (name, 0.9), "b": (name, 0.8), "c": (name, 0.7)}
    assert [n.score for n in out] == [n.node.metadata[META_KEY]["fused"] for n in out]
