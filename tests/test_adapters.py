"""authorag.adapters: one relevance vocabulary, one policy field list, one breakdown shape."""
from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

from authorag import adapters
from authorag.errors import ConfigError
from authorag.policy import (
    POLICY_FIELDS,
    RerankPolicy,
    add_policy_options,
    make_policy,
    policy_fields,
    policy_from_env,
    policy_to_env,
)
from authorag.relevance.registry import load_relevance
from authorag.types import Relevance

URLS = ["https://someblog.blogspot.com/x", "https://www.nih.gov/y", "https://unknown-clinic-4821.net/z"]
BREAKDOWN_KEYS = {"version", "authority", "confidence", "tier", "credibility", "matched", "sources",
                  "credibility_sources", "raw", "note", "trust", "trust_reason", "url", "host", "domain",
                  "has_url", "signal", "relevance", "relevance_source", "upstream_score", "relevance_norm", "fused",
                  "relevance_note", "relevance_decided_by"}


@pytest.mark.parametrize(("mode", "upstream", "expected"), [
    ("auto", [0.2, 0.9], ([0.2, 0.9], "upstream")),
    ("auto", [0.2, None], ([1.0, 0.5], "rank")),
    ("auto", [], ([], "rank")),
    ("rank", [0.2, 0.9], ([1.0, 0.5], "rank")),
    ("upstream", [0.2, 0.9], ([0.2, 0.9], "upstream")),
    ("none", [0.2, 0.9], (None, "none")),
    ("relevance.bm25", [None], (None, "relevance.bm25")),
])
def test_choose_relevance(mode: str, upstream: list[float | None], expected: object) -> None:
    assert adapters.choose_relevance(mode, upstream) == expected


def test_upstream_needs_every_score() -> None:
    with pytest.raises(ConfigError, match=r"needs a score on every document; document\(s\) 2 \(counting from 1\) have none"):
        adapters.choose_relevance("upstream", [0.3, None])


def test_one_vocabulary() -> None:
    assert get_args(Relevance) == ("auto", "rank", "upstream", "similarity", "none", "bm25", "dense", "cascade",
                                  "cascade-or-bm25")
    assert adapters.resolve_relevance("none") == ("none", None)
    assert adapters.resolve_relevance("bm25")[0] == "relevance.bm25"
    with pytest.raises(ConfigError, match="relevance must be one of 'auto', 'rank', 'upstream', 'similarity', 'none', "
                                          "'bm25', 'dense', 'cascade', 'cascade-or-bm25', got 'tfidf'"):
        adapters.resolve_relevance("tfidf")
    with pytest.raises(ConfigError, match="relevance 'rank' is read from the incoming candidates"):
        load_relevance("rank")
    with pytest.raises(ConfigError, match="relevance 'similarity' is read from the incoming candidates"):
        load_relevance("similarity")
    assert adapters.resolve_relevance("similarity") == ("similarity", None)
    assert adapters.build_reranker(None, "similarity")[0].relevance.__class__.__name__ == "UpstreamSimilarity"


def test_policy_fields_come_from_the_dataclass() -> None:
    assert POLICY_FIELDS == tuple(f.name for f in dataclasses.fields(RerankPolicy))
    p = argparse.ArgumentParser()
    add_policy_options(p, weight=0.5)
    args = p.parse_args(["--fusion", "rrf", "--deny", "*.biz", "--deny", "spam.com", "--min-authority", "0.2"])
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in policy_fields(args).items()}
    policy = make_policy(fields)
    assert (policy.weight, policy.fusion, policy.deny, policy.min_authority, policy.top_k) == (
        0.5, "rrf", ("*.biz", "spam.com"), 0.2, None)
    assert "(default 0.5)" in p.format_help()
    with pytest.raises(ConfigError, match=r"unknown policy field\(s\) \['wieght'\]"):
        make_policy({"wieght": 0.5})


def test_policy_env_round_trip() -> None:
    policy = RerankPolicy(weight=0.6, deny=("*.biz",), min_authority=0.1)
    env = policy_to_env(policy)
    assert env == {"AUTHORAG_WEIGHT": "0.6", "AUTHORAG_MIN_AUTHORITY": "0.1", "AUTHORAG_DENY": "*.biz"}
    assert make_policy(policy_from_env(env)) == policy


def _adapter_policy_names(cls: Any) -> set[str]:
    import inspect

    fields = getattr(cls, "model_fields", None)
    names = set(fields) if fields is not None else set(inspect.signature(cls.__init__).parameters)
    return names & set(POLICY_FIELDS)


def test_every_adapter_takes_every_policy_field() -> None:
    pytest.importorskip("langchain_core")
    pytest.importorskip("haystack")
    pytest.importorskip("llama_index.core")
    from authorag.integrations.haystack import AuthorityRanker
    from authorag.integrations.langchain import AuthorityCompressor
    from authorag.integrations.llamaindex import AuthorityPostprocessor

    wanted = set(POLICY_FIELDS) - {"top_k"}
    assert _adapter_policy_names(AuthorityCompressor) == wanted  # LangChain caps with top_n
    assert _adapter_policy_names(AuthorityPostprocessor) == wanted  # LlamaIndex caps with top_n
    assert _adapter_policy_names(AuthorityRanker) == wanted | {"top_k"}  # Haystack's own top_k


def test_every_adapter_holds_the_policy_its_fields_make() -> None:
    pytest.importorskip("langchain_core")
    pytest.importorskip("haystack")
    pytest.importorskip("llama_index.core")
    from authorag.integrations.haystack import AuthorityRanker
    from authorag.integrations.langchain import AuthorityCompressor
    from authorag.integrations.llamaindex import AuthorityPostprocessor

    # the defaults each adapter declares for the policy fields are the policy's own
    assert AuthorityCompressor().policy == AuthorityPostprocessor().policy == RerankPolicy()
    assert AuthorityRanker().policy == RerankPolicy()
    given = {"weight": 0.8, "signal": "blend", "unknown_level": 0.2, "allow": ["*.gov"], "rrf_k": 30.0}
    wanted = RerankPolicy(weight=0.8, signal="blend", unknown_level=0.2, allow=("*.gov",), rrf_k=30.0)
    assert AuthorityCompressor(**given).policy == AuthorityPostprocessor(**given).policy == wanted
    ranker = AuthorityRanker(**given)
    assert ranker.policy == wanted
    params = ranker.to_dict()["init_parameters"]
    assert (params["weight"], params["allow"], params["deny"], params["unknown_level"]) == (0.8, ["*.gov"], [], 0.2)
    assert AuthorityRanker.from_dict(ranker.to_dict()).policy == wanted
    with pytest.raises(ConfigError, match=r"weight must be in \[0, 1\], got 1.5"):
        AuthorityRanker(weight=1.5)


def _cli_breakdowns(tmp_path: Path) -> list[dict[str, Any]]:
    f = tmp_path / "c.jsonl"
    f.write_text("\n".join(json.dumps({"url": u, "text": "t"}) for u in URLS), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "authorag", "rerank", "-q", "q", "-i", str(f), "--relevance", "rank",
                          "--no-learned"], capture_output=True, text=True, check=True).stdout
    return [json.loads(line)["authority"] for line in out.splitlines()]


def _llamaindex_breakdowns() -> list[dict[str, Any]]:
    from llama_index.core.schema import NodeWithScore, TextNode

    from authorag.integrations.llamaindex import AuthorityPostprocessor

    nodes = [NodeWithScore(node=TextNode(text="t", metadata={"link": u})) for u in URLS]
    out = AuthorityPostprocessor(relevance="rank").postprocess_nodes(nodes, query_str="q")
    return [n.node.metadata["authority"] for n in out]


def test_one_breakdown_shape_on_every_surface(tmp_path: Path) -> None:
    pytest.importorskip("langchain_core")
    pytest.importorskip("haystack")
    pytest.importorskip("llama_index.core")
    from haystack import Document as HDocument
    from langchain_core.documents import Document as LDocument

    from authorag.integrations.haystack import AuthorityRanker
    from authorag.integrations.langchain import AuthorityCompressor
    from authorag.server.config import ServerConfig
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import RerankService

    lc = AuthorityCompressor(relevance="rank").compress_documents(
        [LDocument(page_content="t", metadata={"source": u}) for u in URLS], "q")
    hs = AuthorityRanker(relevance="rank").run(query="q", documents=[HDocument(content="t", meta={"url": u}) for u in URLS])
    svc = RerankService(ServerConfig(relevance="rank"))
    body = svc.rerank(RerankRequest(query="q", documents=[{"text": "t", "url": u} for u in URLS]), "v1")
    shapes = {
        "cli": _cli_breakdowns(tmp_path),
        "langchain": [d.metadata["authority"] for d in lc],
        "haystack": [d.meta["authority"] for d in hs["documents"]],
        "server": [r["authority"] for r in body["results"]],
        "llamaindex": _llamaindex_breakdowns(),
    }
    for surface, rows in shapes.items():
        assert [set(r) for r in rows] == [BREAKDOWN_KEYS] * 3, surface
        # rank relevance with texts that do not mention the query: all on topic, trust orders
        assert [r["url"] for r in rows] == [URLS[1], URLS[0], URLS[2]], surface
        assert [r["relevance_source"] for r in rows] == ["rank"] * 3, surface
    fused = {s: [r["fused"] for r in rows] for s, rows in shapes.items()}
    assert fused["cli"] == pytest.approx(fused["server"]) and fused["langchain"] == pytest.approx(fused["haystack"])
    assert fused["cli"] == pytest.approx(fused["langchain"])
    assert fused["llamaindex"] == pytest.approx(fused["cli"])


def test_adapters_do_not_change_their_input() -> None:
    pytest.importorskip("haystack")
    from haystack import Document as HDocument

    from authorag.integrations.haystack import AuthorityRanker

    docs = [HDocument(content="t", meta={"url": u}, score=0.5) for u in URLS]
    before = [(d.id, d.score, dict(d.meta)) for d in docs]
    out = AuthorityRanker().run(query="q", documents=docs)["documents"]
    assert [(d.id, d.score, dict(d.meta)) for d in docs] == before
    assert {d.id for d in out} == {d.id for d in docs} and all("authority" in d.meta for d in out)


def _fixed_candidate() -> Any:
    from types import MappingProxyType

    from authorag.types import AuthorityDetail, SourceValue, new_candidate

    detail = AuthorityDetail(0.8, 0.9, "table", (SourceValue("moz", 0.95, 95.0),), 0.5,
                             (SourceValue("wikipedia_perennial", 0.5, 0.0),), "nih.gov")
    scores = MappingProxyType({"relevance": 0.75, "authority.signal": 0.65, "relevance.norm": 1.0, "fused": 0.895})
    return new_candidate("3", "https://www.nih.gov/y", "www.nih.gov", "nih.gov", "t", MappingProxyType({}), scores,
                         detail)


def test_breakdown_shape_and_order_for_a_fixed_input() -> None:
    row = adapters.breakdown(_fixed_candidate(), "rank")
    assert list(row.items()) == [
        ("version", 1), ("authority", 0.8), ("confidence", 0.9), ("tier", "table"), ("credibility", 0.5),
        ("matched", "nih.gov"), ("sources", {"moz": 0.95}), ("credibility_sources", {"wikipedia_perennial": 0.5}),
        ("raw", {"moz": 95.0, "wikipedia_perennial": 0.0}), ("note", None),
        # trust of recognition 0.8 and credibility 0.5 by the default rule (no trust score on the candidate)
        ("trust", pytest.approx(0.3 + 0.7 * (0.15 / 0.65) * (0.7 + 0.3 * 0.5 / 0.7))),
        ("trust_reason", "mixed credibility"), ("url", "https://www.nih.gov/y"),
        ("host", "www.nih.gov"), ("domain", "nih.gov"), ("has_url", True), ("signal", 0.65), ("relevance", 0.75),
        ("relevance_source", "rank"), ("upstream_score", None), ("relevance_norm", 1.0), ("fused", 0.895),
        ("relevance_note", None), ("relevance_decided_by", None)]
    # The per-detail base is cached, the row is not: changing one row leaves the next one whole.
    row["url"] = "changed"
    row["extra"] = 1
    again = adapters.breakdown(_fixed_candidate(), "rank")
    assert again["url"] == "https://www.nih.gov/y" and "extra" not in again and set(again) == BREAKDOWN_KEYS
    typed = adapters.breakdown(_fixed_candidate(), "rank", {"source_type": "government"})
    assert list(typed)[-2:] == ["source_type", "suitability"] and typed["suitability"] is None


def test_breakdowns_equal_breakdown_of_each_candidate() -> None:
    reranker, mode = adapters.build_reranker(relevance="none")
    cands, source = adapters.candidates([(u, "t", None) for u in URLS], mode)
    ranking = reranker.rerank("q", cands)
    note = ranking.provenance["relevance_note"]
    assert note == "relevance equal for every candidate: trust orders"  # no relevance at all
    assert adapters.breakdowns(ranking, source) == [adapters.breakdown(c, source, None, note)
                                                    for c in ranking.candidates]
    suited, mode = adapters.build_reranker(relevance="rank", suitability=True)
    ranking = suited.rerank("is vitamin C good for colds", adapters.candidates([(u, "t", None) for u in URLS], mode)[0])
    rows = adapters.breakdowns(ranking, source)
    assert rows == [adapters.breakdown(c, source, adapters.source_type_of(ranking, c),
                                       ranking.provenance.get("relevance_note")) for c in ranking.candidates]
    assert all("suitability" in r for r in rows)


def test_candidates_rank_relevance_is_exact_and_read_only() -> None:
    first, source = adapters.candidates([(u, "t", None) for u in URLS], "rank")
    second, _ = adapters.candidates([(u, "t", 0.1) for u in URLS], "rank")
    assert source == "rank" and [c.id for c in first] == ["0", "1", "2"]
    assert [dict(c.scores) for c in first] == [{"relevance.rank": 1.0}, {"relevance.rank": 2 / 3},
                                               {"relevance.rank": 1 / 3}]
    # the rank mode does not fuse the documents' own scores, and keeps them
    assert [dict(c.scores) for c in second] == [{**c.scores, "upstream": 0.1} for c in first]
    with pytest.raises(TypeError):
        first[0].scores["relevance.rank"] = 0.0  # type: ignore[index]
    with pytest.raises(TypeError):
        second[0].scores["upstream"] = 0.0  # type: ignore[index]
    upstream, source = adapters.candidates([(u, "t", s) for u, s in zip(URLS, (0.2, 0.9, 0.4))], "auto")
    assert source == "upstream" and [dict(c.scores) for c in upstream] == [
        {"relevance": s, "upstream": s} for s in (0.2, 0.9, 0.4)]
    assert [(c.host, c.domain) for c in first] == [("someblog.blogspot.com", "someblog.blogspot.com"),
                                                   ("www.nih.gov", "nih.gov"), ("unknown-clinic-4821.net",) * 2]


def test_a_relevance_scorer_keeps_the_documents_own_scores_in_the_breakdown() -> None:
    reranker, mode = adapters.build_reranker(relevance="bm25")
    cands, source = adapters.candidates([(URLS[0], "cranberry juice", 0.9), (URLS[1], "cranberry", None),
                                         (URLS[2], "tires", 0.1)], mode)
    rows = {r["url"]: r for r in adapters.breakdowns(reranker.rerank("cranberry juice", cands), source)}
    assert {u: (r["relevance_source"], r["upstream_score"]) for u, r in rows.items()} == {
        URLS[0]: ("relevance.bm25", 0.9), URLS[1]: ("relevance.bm25", None), URLS[2]: ("relevance.bm25", 0.1)}
    assert rows[URLS[2]]["relevance"] == 0.0  # BM25 of "tires", not the 0.1 it came with


@pytest.mark.parametrize("mode", ["rank", "auto", "upstream", "none"])
def test_candidates_of_columns_equal_candidates_of_rows(mode: str) -> None:
    urls, texts, scores = [*URLS, "", "not a url at all"], ["a", "b", "c", "d", "e"], [0.2, 0.9, 0.4, 1, 0.5]
    rows = adapters.candidates(list(zip(urls, texts, scores)), mode)
    upstream = adapters.upstream_scores(mode, list(scores))
    assert adapters.candidates_of(urls, texts, upstream, mode) == rows
    if mode != "upstream":  # a missing score: auto falls back to the order; the scores given are kept
        missing = adapters.upstream_scores(mode, [*scores[:-1], None])
        assert missing == [0.2, 0.9, 0.4, 1.0, None]
        assert adapters.upstream_scores(mode, [None] * 5) is None
        assert adapters.candidates_of(urls, texts, missing, mode) == adapters.candidates(
            list(zip(urls, texts, [*scores[:-1], None])), mode)
    assert rows[0][3].url == "" and rows[0][3].domain is None and rows[0][3].host is None
    with pytest.raises(ConfigError, match=r"document\(s\) 1, 2 \(counting from 1\) have none"):
        adapters.candidates_of(URLS[:2], ["a", "b"], None, "upstream")


def test_rerank_owned_equals_rerank_and_fills_the_candidates_it_was_given() -> None:
    reranker, mode = adapters.build_reranker(relevance="rank", policy={"deny": ("*.blogspot.com",)})
    urls = [*URLS, "https://www.cdc.gov/flu", ""]
    copied = reranker.rerank("q", adapters.candidates([(u, "t", None) for u in urls], mode)[0], top_k=2)
    fresh, _ = adapters.candidates([(u, "t", None) for u in urls], mode)
    owned = reranker.rerank_owned("q", fresh, top_k=2)
    assert owned == copied and [c.id for c in owned] == ["1", "3"]  # nih.gov, cdc.gov: trust orders
    assert [c.id for c in owned.dropped] == ["0", "2", "4"]
    assert all(any(c is f for f in fresh) for c in owned.candidates)  # no second object per document
    assert dict(owned.candidates[0].scores) == dict(copied.candidates[0].scores)
    assert list(owned.candidates[0].scores) == list(copied.candidates[0].scores)  # same keys, same order
    with pytest.raises(ConfigError, match="score 'fused' is already set on candidate '3'"):
        reranker.rerank_owned("q", [fresh[3].with_score("fused", 1.0)])


class _IntScorer:
    """A scorer whose values are ints (allowed by duck typing): stored as plain floats either way."""

    name = "ints"

    def score(self, candidates: Any) -> list[Any]:
        from authorag.types import AuthorityDetail

        return [AuthorityDetail(authority=i % 2, confidence=1, tier="table", credibility=1)  # type: ignore[arg-type]
                for i, _ in enumerate(candidates)]


@pytest.mark.parametrize("suitability", [False, True])
def test_rerank_owned_stores_plain_floats_like_rerank(suitability: bool) -> None:
    reranker, mode = adapters.build_reranker(_IntScorer(), "rank", {"unknown_level": 0}, suitability)  # type: ignore[arg-type]
    copied = reranker.rerank("colds", adapters.candidates([(u, "t", None) for u in URLS], mode)[0])
    owned = reranker.rerank_owned("colds", adapters.candidates([(u, "t", None) for u in URLS], mode)[0])
    assert owned == copied
    assert [list(c.scores.items()) for c in owned] == [list(c.scores.items()) for c in copied]
    assert all(type(v) is float for c in owned for v in c.scores.values())


def test_none_overrides_keep_the_policy_and_bad_ones_still_fail() -> None:
    reranker, mode = adapters.build_reranker(relevance="rank", policy={"weight": 0.4})
    cands, _ = adapters.candidates([(u, "t", None) for u in URLS], mode)
    assert reranker.rerank("q", cands, top_k=None, weight=None).provenance["policy"] == reranker.policy.to_dict()
    assert reranker.rerank("q", cands, top_k=2).provenance["policy"]["top_k"] == 2
    with pytest.raises(ConfigError, match=r"weight must be in \[0, 1\], got 1.5"):
        reranker.rerank("q", cands, top_k=None, weight=1.5)


def test_langchain_copies_leave_the_callers_documents_untouched() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from authorag.integrations.langchain import AuthorityCompressor

    docs = [Document(page_content="t", metadata={"source": u, "k": [1]}, id=f"d{i}") for i, u in enumerate(URLS)]
    docs.append(Document(page_content="no metadata given"))
    before = [(d.model_dump(), d.model_fields_set, id(d.metadata)) for d in docs]
    out = AuthorityCompressor(relevance="rank").compress_documents(docs, "q")
    assert [(d.model_dump(), d.model_fields_set, id(d.metadata)) for d in docs] == before
    by_content = {(d.id, d.page_content): d for d in docs}
    for new in out:
        old = by_content[(new.id, new.page_content)]
        assert new is not old and new.metadata is not old.metadata and type(new) is type(old)
        assert new == old.model_copy(update={"metadata": new.metadata})
        assert {k: v for k, v in new.metadata.items() if k not in ("relevance_score", "authority")} == old.metadata
        assert "metadata" in new.model_fields_set  # model_dump(exclude_unset=True) keeps the written metadata
        assert new.model_dump(exclude_unset=True)["metadata"]["authority"]["fused"] == new.metadata["relevance_score"]
    assert [d.metadata.get("source") for d in out][:3] == [URLS[1], URLS[0], URLS[2]]


def test_haystack_copies_share_nothing_writable_with_the_callers_documents() -> None:
    pytest.importorskip("haystack")
    from haystack import Document as HDocument

    from authorag.integrations.haystack import AuthorityRanker

    docs = [HDocument(content="t", meta={"url": u, "tags": ["a"]}) for u in URLS]
    metas = [d.meta for d in docs]
    out = AuthorityRanker(relevance="rank").run(query="q", documents=docs)["documents"]
    assert [d.meta for d in docs] == [{"url": u, "tags": ["a"]} for u in URLS] and all(d.score is None for d in docs)
    assert all(d.meta is m for d, m in zip(docs, metas))
    for new in out:
        old = next(d for d in docs if d.id == new.id)
        assert new.meta is not old.meta and new.content == old.content and type(new) is type(old)
        assert new.score == new.meta["authority"]["fused"] and new.to_dict()["score"] == new.score


def test_numpy_scores_are_scores() -> None:
    """Was: a numpy ``float32`` (what a FAISS store's relevance scores are) was no score, so
    ``auto`` fell back to the incoming order and ``upstream`` said the documents had none."""
    import numpy as np

    scores = [np.float32(0.25), np.float64(0.75), np.int64(1)]
    assert adapters.upstream_scores("auto", list(scores)) == [0.25, 0.75, 1.0]
    cands, source = adapters.candidates_of(URLS[:3], ["a", "b", "c"], adapters.upstream_scores("upstream", list(scores)),
                                           "upstream")
    assert source == "upstream" and [c.scores["relevance"] for c in cands] == [0.25, 0.75, 1.0]
    assert [adapters.as_float(v) for v in (np.bool_(True), True, np.float32("nan"), "0.5")] == [None, None, None, None]
    with pytest.raises(ConfigError, match=r"document\(s\) 2 \(counting from 1\) have none \(or one that is not a finite "
                                          r"number\)"):
        adapters.candidates_of(URLS[:2], ["a", "b"], adapters.upstream_scores("upstream", [0.5, np.float32("inf")]),
                               "upstream")
