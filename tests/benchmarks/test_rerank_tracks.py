"""Rerank tracks: composition methods, input orders, measures, cells, nDCG, runner and compare (hand-worked)."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from _dict_scorer import DictScorer

from authorag.adapters import build_reranker, candidates_of
from authorag.benchmarks.compare import CompareConfig, paired_row, pinned_relevance, run_compare
from authorag.benchmarks.methods import MethodContext
from authorag.benchmarks.paired import paired_delta
from authorag.benchmarks.rag.tasks import RagInstance
from authorag.benchmarks.registry import build_method
from authorag.benchmarks.runner import RunConfig, run_condition
from authorag.benchmarks.tasks import BenchItem
from authorag.benchmarks.tracks.graded import (
    NDCG_KS,
    OFFTOPIC_PER_POOL,
    OWN_CAP,
    POOL_DRAWS,
    graded_metrics,
    graded_pools,
    ndcg,
    rag_rerank_metrics,
)
from authorag.benchmarks.tracks.rerank import (
    Reranking,
    case_measures,
    case_metrics,
    case_orders,
    mean_cell,
    track_relevances,
)
from authorag.benchmarks.tracks.rerank_methods import (
    TODAY_POLICY,
    RerankSetup,
    base_policy,
    parse_method,
    rerank_setup,
    split_methods,
    today_exclusions,
)
from authorag.benchmarks.tracks.trust_data import CasePage, RerankCase, load_cases
from authorag.compose import ScorerSettings, load_scorer
from authorag.errors import ConfigError
from authorag.policy import RerankPolicy, make_policy
from authorag.types import Candidate

CTX = MethodContext(task_family="rerank", label_source=None, item_kind="document")


def _setup(values: Mapping[str, float], **policy: object) -> RerankSetup:
    return RerankSetup("dict", DictScorer(values), make_policy(policy), None)


def _case(case_id: str, groups: Sequence[tuple[str, int]], kind: str = "list") -> RerankCase:
    pages = tuple(CasePage(f"https://{host}/p", f"text {host}", role, group) for host, group in groups
                  for role in (("trusted" if group == 0 else "offtopic" if group == 2 else "untrusted"),))
    return RerankCase(case_id, "dev", "health", kind, "q", pages)


# ----------------------------------------------------------------------------- methods

def test_parse_method_splits_settings_policy_and_relevance() -> None:
    spec = parse_method("today:weight=0.5,learned=true,relevance=upstream,deny=*.biz+*.info")
    assert spec.base == "today" and spec.settings == {"learned": True} and spec.relevance == "upstream"
    assert spec.policy == {**base_policy("today"), "weight": 0.5, "deny": ("*.biz", "*.info")}
    assert parse_method("relevance-only:weight=0.2").policy == {"fusion": "linear", "weight": 0.2}
    with pytest.raises(ConfigError, match="'nope=1' is not NAME=VALUE for a ScorerSettings field.*or a RerankPolicy"):
        parse_method("default:nope=1")
    with pytest.raises(ConfigError, match=r"default:weight=2: weight must be in \[0, 1\], got 2.0"):
        parse_method("default:weight=2")
    with pytest.raises(ConfigError, match="relevance must be one of bm25, rank, dense, cascade, upstream, similarity, got 'x'"):
        parse_method("default:relevance=x")
    with pytest.raises(ConfigError, match="'prior:weight=1' is not a composition method; known: relevance-only, today, default"):
        parse_method("prior:weight=1")


def test_split_methods_keeps_commas_inside_a_composition() -> None:
    assert split_methods("relevance-only,today,default:fusion=rrf,weight=0.5,default,default:judge_base_url=http://h:1/v1") \
        == ("relevance-only", "today", "default:fusion=rrf,weight=0.5", "default", "default:judge_base_url=http://h:1/v1")
    with pytest.raises(ConfigError, match="starts with a setting 'weight=0.5'"):
        split_methods("weight=0.5,default")


def test_today_is_the_policy_and_sources_shipped_before_trust_fusion() -> None:
    fields = {f.name for f in dataclasses.fields(RerankPolicy)}
    assert base_policy("today") == {k: v for k, v in TODAY_POLICY.items() if k in fields}
    policy = build_method("today", CTX).policy  # type: ignore[attr-defined]
    assert (policy.fusion, policy.normalize, policy.weight, policy.credibility_weight, policy.unknown_level) == \
        ("linear", "minmax", 0.3, 0.5, 0.3)
    info = build_method("today", CTX).info()
    assert info["pinned_out_sources"] == list(today_exclusions())
    assert set(today_exclusions()).isdisjoint({"ccnews_pagerank", "majestic", "moz", "wikipedia_perennial"})


def test_methods_carry_policy_and_relevance_and_other_methods_cannot_rerank() -> None:
    setup = rerank_setup(build_method("default:weight=0.7,fusion=rrf,relevance=bm25", CTX))
    assert (setup.policy.weight, setup.policy.fusion, setup.relevance) == (0.7, "rrf", "bm25")
    assert rerank_setup(build_method("default", CTX)).policy == RerankPolicy()
    with pytest.raises(ConfigError, match="method 'oracle' has no AuthorityScorer to rerank with"):
        rerank_setup(build_method("oracle", CTX))


# ----------------------------------------------------------------------------- orders and measures

def test_case_orders() -> None:
    pair = load_cases("trust-pairs")[0]
    assert case_orders(pair, "rank", 0) == [(0, 1), (1, 0)]
    nh_pair = load_cases("no-harm-pairs")[0]
    assert case_orders(nh_pair, "rank", 0, retriever_order=True) == [(0, 1)]
    lst = _case("l1", [("a.org", 2), ("b.org", 0), ("c.org", 1), ("d.org", 2)])
    assert case_orders(lst, "rank", 0, retriever_order=True) == [(1, 2, 0, 3), (1, 2, 3, 0)]
    orders = case_orders(lst, "bm25", 7)
    assert orders[:2] == [(0, 1, 2, 3), (3, 2, 1, 0)] and len(orders) == 4
    assert orders == case_orders(lst, "bm25", 7) and all(sorted(o) == [0, 1, 2, 3] for o in orders)


def test_case_measures_hand_worked() -> None:
    # groups: b=0 (trusted), c=1, a=2, d=2 (off-topic); expected pairs: b>c, b>a, b>d, c>a, c>d = 5
    lst = _case("l1", [("a.org", 2), ("b.org", 0), ("c.org", 1), ("d.org", 2)])
    assert case_measures(lst, [1, 2, 0, 3]) == {"first": 1.0, "respected": 1.0, "pairs": 1.0, "ontopic": 1.0}
    # c, a, b, d: first is group 1; held: b>d, c>a, c>d (3 of 5); off-topic pairs b>a fails
    assert case_measures(lst, [2, 0, 1, 3]) == {"first": 0.0, "respected": 0.0, "pairs": 0.6, "ontopic": 0.0}


def test_mean_cell_resamples_clusters() -> None:
    cell = mean_cell([0, 0, 1, 1], [1.0, 1.0, 0.0, 0.0], seed=3)
    assert cell["value"] == 0.5 and cell["n_units"] == 4 and cell["n_clusters"] == 2
    assert cell["ci"] == [0.0, 1.0]
    assert mean_cell([0, 1], [1.0, 1.0], seed=0)["ci"] == [1.0, 1.0]


def test_ndcg_hand_worked() -> None:
    # gains 2, 0, 1 in ranked order: DCG = 2 + 0 + 1/2 = 2.5; ideal 2, 1, 0: 2 + 1/log2(3)
    assert ndcg([2.0, 0.0, 1.0], 3) == pytest.approx(2.5 / (2 + 1 / 1.5849625007211563))
    assert ndcg([0.0, 2.0, 1.0], 1) == 0.0 and ndcg([0.0, 0.0], 2) == 0.0
    assert ndcg([1.0, 2.0], 5) == pytest.approx((1 + 2 / 1.5849625007211563) / (2 + 1 / 1.5849625007211563))


def test_track_relevances() -> None:
    assert track_relevances(("bm25", "rank"), None) == ["bm25", "rank"]
    assert track_relevances(("bm25", "rank"), "dense") == ["dense"]
    assert track_relevances(("bm25", "rank"), None, ("bm25", "dense")) == ["bm25"]
    with pytest.raises(ConfigError, match="track relevance must be among bm25, rank, dense, cascade, upstream, similarity, got cosine"):
        track_relevances(("cosine",), None)


# ----------------------------------------------------------------------------- the product path

def test_reranking_order_is_the_core_rerankers_order() -> None:
    scorer = load_scorer(ScorerSettings())
    case = load_cases("no-harm-lists")[0]
    urls, texts = [p.url for p in case.pages], [p.text for p in case.pages]
    for rel in ("bm25", "rank"):
        for policy in ({}, {"weight": 0.7}, {"fusion": "rrf"}):
            reranker, mode = build_reranker(scorer, rel, policy)
            cands, _ = candidates_of(urls, texts, None, mode)
            want = [int(c.id) for c in reranker.rerank(case.query, cands).candidates]
            got = Reranking(RerankSetup("x", scorer, make_policy(policy), None)).order(rel, case.query, urls, texts)
            assert got == want, (rel, policy)


class _Lengths:
    """A relevance scorer of our own: the text's length."""

    name = "relevance.length"

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return [float(len(c.text)) for c in candidates]


def test_add_relevance_reranks_with_your_own_scorer() -> None:
    reranking = Reranking(_setup({"a.org": 0.5, "b.org": 0.5, "c.org": 0.5}, weight=0.0, fusion="linear"))
    reranking.add_relevance("length", _Lengths())
    urls = ["https://a.org/x", "https://b.org/y", "https://c.org/z"]
    assert reranking.order("length", "q", urls, ["tt", "tttt", "t"]) == [1, 0, 2]
    assert reranking.order("length", "q", urls, ["tttt", "t", "tt"]) == [0, 2, 1]


def test_dropped_pages_count_as_last() -> None:
    setup = _setup({"a.org": 0.9, "b.org": 0.1}, deny=("a.org",))
    assert Reranking(setup).order("rank", "q", ["https://a.org/x", "https://b.org/y"], ["t", "u"]) == [1, 0]


def test_case_metrics_hand_worked_with_authority_only() -> None:
    # weight 1: authority alone decides; the first pair's trusted page is known, the second's is not
    cases = [_case("p1", [("good.org", 0), ("bad.biz", 1)], "content-farm"),
             _case("p2", [("unknown.org", 0), ("bad.biz", 1)], "content-farm")]
    out = case_metrics("trust-pairs", cases, Reranking(_setup({"good.org": 0.9, "bad.biz": 0.5}, weight=1.0)),
                       ["rank"], seed=0)
    assert out["rows"]["trusted first (rank)"]["value"] == 0.5  # p1 both orders, p2 neither
    assert [c["rank"] for c in out["cases"]] == [1.0, 0.0]
    assert out["detail_rows"]["trusted first (rank), kind content-farm"]["value"] == 0.5
    assert out["units"]["rows"]["trusted first (rank)"] == {"clusters": [0, 0, 1, 1], "values": [1.0, 1.0, 0.0, 0.0]}


def test_rag_rerank_rows_hand_worked() -> None:
    docs = tuple(BenchItem(str(i), f"https://{h}/x", 0, text="t", meta={"stance": s})
                 for i, (h, s) in enumerate((("a.org", 0), ("b.org", 1), ("c.org", 1))))
    inst = RagInstance("1-0", 1, "q", "q", 1, docs)
    # authority only: b (0.9), c (0.5), a (0.1): top-1 stance 1 -> 1; top-3 two of three yes -> 1
    out = rag_rerank_metrics([inst], Reranking(_setup({"a.org": 0.1, "b.org": 0.9, "c.org": 0.5}, weight=1.0)),
                             ["bm25"])
    assert [out["rows"][f"rerank k={k} (bm25)"]["value"] for k in (1, 3, 5)] == [1.0, 1.0, 1.0]


def test_graded_pools_and_metrics() -> None:
    pools = graded_pools()
    assert len(pools) == 29 * POOL_DRAWS and pools == graded_pools()
    for pool in pools:
        own = [g for g in pool.gains if g > 0]
        assert 1 <= len(own) <= OWN_CAP and pool.gains.count(0.0) == OFFTOPIC_PER_POOL
        assert all(d.meta["topic_id"] == pool.topic_id for d, g in zip(pool.documents, pool.gains) if g > 0)
        assert all(d.meta["topic_id"] != pool.topic_id for d, g in zip(pool.documents, pool.gains) if g == 0)
    # authority only (linear fusion, weight 1) with every page unknown: the fused scores tie and the
    # input order stands
    out = graded_metrics(pools[:3], Reranking(_setup({}, weight=1.0, fusion="linear")), ["bm25"])
    want = [ndcg(list(p.gains), k) for p in pools[:3] for k in NDCG_KS]
    assert out["units"]["rows"]["nDCG@5 (bm25)"]["values"] == want[0::2]
    assert out["n_topics"] == 1


# ----------------------------------------------------------------------------- runner and compare

def test_runner_on_the_vendored_sets_with_relevance_alone() -> None:
    # By construction BM25 prefers every untrusted page and every on-topic no-harm page: with
    # authority weight 0 the trusted page is never first and the on-topic page always is.
    trust = run_condition(RunConfig(task="trust-pairs", method="relevance-only", track_relevance=("bm25", "rank")))
    rows = trust["metrics"]["rows"]
    assert rows["trusted first (bm25)"]["value"] == 0.0 and rows["trusted first (rank)"]["value"] == 0.5
    assert rows["trusted first (bm25)"]["n_clusters"] == 96 and "units" not in trust["metrics"]
    assert list(trust["data_checksums"]) == ["authorag.benchmarks.data/trust_pairs_v1.jsonl.gz"]
    dev = run_condition(RunConfig(task="no-harm-pairs", method="relevance-only", track_relevance=("bm25",),
                                  split="dev"))
    assert dev["run_id"] == "no-harm-pairs__relevance-only__dev"
    assert dev["metrics"]["rows"]["on-topic first (bm25)"] == {"value": 1.0, "ci": [1.0, 1.0], "n_units": 48,
                                                               "n_clusters": 24}
    # The harder no-harm pairs were not selected by relevance alone: BM25 alone puts the off-topic
    # page first in 4 of the 24 dev pairs (both input orders; stemmed, folded tokens), so the track
    # reads against it.
    hard = run_condition(RunConfig(task="no-harm-hard", method="relevance-only", track_relevance=("bm25",),
                                   split="dev"))
    assert hard["run_id"] == "no-harm-hard__relevance-only__dev"
    cell = hard["metrics"]["rows"]["on-topic first (bm25)"]
    assert (cell["value"], cell["n_units"], cell["n_clusters"]) == (40 / 48, 48, 24)
    assert list(hard["data_checksums"]) == ["authorag.benchmarks.data/no_harm_hard_v1.jsonl.gz"]
    with pytest.raises(ConfigError, match="split must be one of dev, test, all, got 'train'"):
        RunConfig(task="trust-pairs", method="default", split="train")
    with pytest.raises(ConfigError, match="track relevance must be among"):
        RunConfig(task="trust-pairs", method="default", track_relevance=("tfidf",))


def test_paired_delta_on_rerank_rows() -> None:
    base = {"rows": {"r": {"clusters": [0, 0, 1], "values": [0.0, 0.0, 1.0]}}}
    other = {"rows": {"r": {"clusters": [0, 0, 1], "values": [1.0, 1.0, 1.0]}}}
    d = paired_delta("rerank", "r", base, other)
    assert d["value"] == pytest.approx(2 / 3) and 0.0 <= d["ci"][0] <= d["ci"][1] <= 1.0


def test_compare_puts_rerank_tracks_in_one_table(tmp_path: Path) -> None:
    cfg = CompareConfig(methods=("relevance-only", "default:weight=1.0"), tracks=("trust-pairs", "no-harm-lists"),
                        rerank_relevance=(), track_relevance=("rank",), split="test")
    record = run_compare(cfg, tmp_path)
    row = record["table"]["trust-pairs | trusted first (rank)"]
    assert row["relevance-only"]["value"] == 0.5
    delta = row["Δ default:weight=1.0 − relevance-only"]
    assert delta["value"] == pytest.approx(row["default:weight=1.0"]["value"] - 0.5)
    assert "no-harm-lists | order respected (rank)" in record["table"]
    assert "trust-pairs | trusted first (rank), kind hosted-user" in record["detail_table"]
    text = (tmp_path / "compare.md").read_text()
    assert "## Breakdown of the rerank tracks" in text and "split test" in text
    with pytest.raises(ConfigError, match="split must be one of"):
        CompareConfig(split="train")


def test_compare_pairs_methods_pinned_to_different_relevances(tmp_path: Path) -> None:
    """``default:relevance=bm25`` against ``relevance-only:relevance=rank``: each method has only
    its relevance's rows, and the Δ cell pairs them on the same metric and units."""
    base, other = "relevance-only:relevance=bm25", "default:relevance=bm25,weight=1.0"
    cfg = CompareConfig(methods=(base, other), tracks=("trust-pairs",), rerank_relevance=(), split="test")
    rows = run_compare(cfg, tmp_path)["table"]
    bm25 = rows["trust-pairs | trusted first (bm25)"]
    assert bm25[base]["value"] == 0.0 and bm25[other]["value"] > 0.9
    assert bm25[f"Δ {other} − {base}"]["value"] == pytest.approx(bm25[other]["value"])
    rank_method = "relevance-only:relevance=rank"
    cross = CompareConfig(methods=(base, rank_method), tracks=("trust-pairs", "no-harm-pairs"),
                          rerank_relevance=(), split="test")
    crossed = run_compare(cross, tmp_path / "cross")["table"]
    rank = crossed["trust-pairs | trusted first (rank)"]
    assert base not in rank and rank[rank_method]["value"] == 0.5  # only the rank method has this row
    assert crossed["trust-pairs | trusted first (bm25)"][base]["value"] == 0.0
    assert rank[f"Δ {rank_method} − {base}"]["value"] == pytest.approx(0.5)
    # no-harm pairs in the input order take one order per pair (a relevance-right retriever's),
    # BM25 both: the cases are still the same, and the bootstrap resamples cases
    ordered = crossed["no-harm-pairs | on-topic first (rank)"]
    assert ordered[f"Δ {rank_method} − {base}"]["value"] == pytest.approx(ordered[rank_method]["value"] - 1.0)
    assert paired_row("nDCG@5 (dense)", "dense", "bm25") == "nDCG@5 (bm25)"
    assert paired_row("nDCG@5 (dense)", "dense", "dense") is None
    assert paired_row("authority filter k=1", "dense", "bm25") is None
    assert pinned_relevance("default:weight=0.3,relevance=dense") == "dense" and pinned_relevance("random") is None


def test_dense_max_tokens_reaches_the_tracks_dense_scorer() -> None:
    """``bench --dense-max-tokens``: the tracks' dense relevance reads that many tokens (the
    product's lead by default), and the compare record and table say it."""
    pytest.importorskip("sentence_transformers")
    from authorag.benchmarks.compare_report import _rerank_notes  # pyright: ignore[reportPrivateUsage]
    from authorag.cli.bench import _dense_tokens  # pyright: ignore[reportPrivateUsage]
    from authorag.relevance.dense import LEAD_TOKENS, DenseRelevance

    setup = _setup({"a.org": 0.9})
    for tokens in (64, None):
        dense = Reranking(setup, tokens)._reranker("dense")[0].relevance  # pyright: ignore[reportPrivateUsage]
        assert isinstance(dense, DenseRelevance) and dense.encoder.max_tokens == tokens
    default = Reranking(setup)._reranker("dense")[0].relevance  # pyright: ignore[reportPrivateUsage]
    assert isinstance(default, DenseRelevance) and default.encoder.max_tokens == LEAD_TOKENS == RunConfig(
        task="trust-pairs", method="default").dense_max_tokens == CompareConfig().dense_max_tokens
    assert [_dense_tokens(v) for v in ("64", "lead", "full")] == [64, LEAD_TOKENS, None]
    with pytest.raises(Exception, match=r"must be a positive integer, 'lead' or 'full', got '0'"):
        _dense_tokens("0")
    with pytest.raises(ConfigError, match=r"dense_max_tokens must be a positive integer or None, got 0"):
        RunConfig(task="trust-pairs", method="default", dense_max_tokens=0)
    record: dict[str, object] = {"table": {"trust-pairs | trusted first (dense)": {}}, "track_relevance": ["dense"],
                                 "dense_max_tokens": 64, "split": "dev"}
    assert _rerank_notes(record)[0].endswith("MiniLM cosines (dense, and those handed over as upstream / "
                                             "similarity scores) read each page's first 64 tokens.")
    assert _rerank_notes({**record, "dense_max_tokens": None})[0].endswith("read the model's own window.")
    assert _rerank_notes({**record, "track_relevance": ["bm25"]})[0].endswith("topics).")


def test_dense_max_tokens_reaches_the_rag_filters_dense_relevance() -> None:
    pytest.importorskip("sentence_transformers")
    from authorag.benchmarks.rag.protocol import make_doc_scorer
    from authorag.relevance.dense import DenseRelevance

    lead = ("Cranberry juice and urinary tract infections: what the trials found. " * 12).strip()
    text = lead + " Baking sourdough bread needs a lively starter, flour, water and salt." * 10
    docs = (BenchItem("0", "https://a.org/x", 0, text=text, meta={"stance": 1}),)
    inst = RagInstance("1-0", 1, "how to bake sourdough bread", "q", 1, docs)
    default, full = make_doc_scorer("dense", None)(inst), make_doc_scorer("dense", None, dense_max_tokens=None)(inst)
    assert default == pytest.approx(DenseRelevance(cache_size=0).cosines(inst.question, [lead]), abs=1e-6)
    assert full[0] > default[0] + 0.05  # the full window reads into the bread text


def test_docstring_examples() -> None:
    import doctest

    from authorag.benchmarks.tracks import graded as graded_tracks
    from authorag.benchmarks.tracks import rerank as rerank_tracks
    from authorag.benchmarks.tracks import rerank_methods

    for module in (graded_tracks, rerank_methods, rerank_tracks):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_the_tracks_dense_scorer_is_the_reranker_s() -> None:
    # The tracks reuse MiniLM cosines across methods and input orders: with the product's own
    # scorer, told never to forget an embedding (building it loads no model).
    pytest.importorskip("sentence_transformers")
    from authorag.benchmarks.rag.protocol import cached_dense, make_doc_scorer
    from authorag.relevance.dense import DenseRelevance

    scorer = cached_dense()
    assert type(scorer) is DenseRelevance and scorer.cache_size is None and scorer is cached_dense()
    # The RAG filter's and the rerank grid's dense relevance is the same scorer: pages are encoded once.
    setup = _setup({"a.org": 0.9})
    assert Reranking(setup)._reranker("dense")[0].relevance is scorer  # pyright: ignore[reportPrivateUsage]
    docs = (BenchItem("0", "https://a.org/x", 0, text="Cranberry juice and urinary tract infections.", meta={"stance": 1}),)
    make_doc_scorer("dense", None)(RagInstance("1-0", 1, "does cranberry juice prevent infections", "q", 1, docs))
    assert "Cranberry juice and urinary tract infections." in scorer._docs  # pyright: ignore[reportPrivateUsage]
