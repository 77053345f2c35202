"""Issue-11 tracks: tail, hosted, resampled RAG, rerank grid, compare; metrics worked out by hand."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest
from _dict_scorer import DictScorer

from authorag.benchmarks.compare import CompareConfig, headline_cells, run_compare
from authorag.benchmarks.methods import MethodContext
from authorag.benchmarks.metrics import (
    cluster_bootstrap_ci,
    cross_level_pair_accuracy,
    mean,
    pair_counts,
)
from authorag.benchmarks.protocols import _filled  # pyright: ignore[reportPrivateUsage]
from authorag.benchmarks.rag.protocol import topic_clustered_ci
from authorag.benchmarks.rag.rerank_eval import GridPoint, rank_relevance, run_rerank_grid
from authorag.benchmarks.rag.tasks import RagInstance, load_rag_task
from authorag.benchmarks.registry import build_method, load_task
from authorag.benchmarks.tasks import BenchItem, RankTask
from authorag.benchmarks.tracks.protocols import hosted_metrics, tail_metrics
from authorag.benchmarks.tracks.tasks import hosted_items, tail_items
from authorag.errors import ConfigError
from authorag.policy import RerankPolicy
from authorag.types import UNKNOWN_LEVEL


def _scorer(values: Mapping[str, float | None]):  # type: ignore[no-untyped-def]
    return lambda items: [values[i.key] for i in items]


# ----------------------------------------------------------------------------- metrics

def test_pair_counts_over_every_cross_level_pair() -> None:
    # levels 2, 1, 0, 0 with scores .8, .8, .1, .9: (2,1) tie ½; (2,0) 1 + 0; (1,0) 1 + 0 -> 2.5 of 5
    assert pair_counts([2, 1, 0, 0], [0.8, 0.8, 0.1, 0.9]) == (2.5, 5)
    assert cross_level_pair_accuracy([2, 1, 0, 0], [0.8, 0.8, 0.1, 0.9]) == pytest.approx(0.5)
    # two levels: the AUC; positives .9 .4, negatives .4 .1 -> 1 + 1 + ½ + 1 = 3.5 of 4
    assert cross_level_pair_accuracy([1, 1, 0, 0], [0.9, 0.4, 0.4, 0.1]) == pytest.approx(0.875)


def test_pair_accuracy_needs_two_levels() -> None:
    with pytest.raises(ConfigError, match="at least two levels"):
        cross_level_pair_accuracy([1, 1], [0.2, 0.3])
    with pytest.raises(ConfigError, match="differ in length: 2 and 1"):
        pair_counts([1, 0], [0.2])


def test_cluster_bootstrap_is_seeded_and_constant_on_constant_data() -> None:
    assert cluster_bootstrap_ci([[0.5, 0.5], [0.5]], lambda cs: mean([v for c in cs for v in c])) == (0.5, 0.5)

    def stat(cs: list[list[float]]) -> float:
        return mean([v for c in cs for v in c])

    data = [[1.0], [0.0], [1.0, 1.0], [0.0, 1.0]]
    assert cluster_bootstrap_ci(data, stat, seed=3) == cluster_bootstrap_ci(data, stat, seed=3)
    with pytest.raises(ConfigError, match="at least one cluster"):
        cluster_bootstrap_ci([], stat)


def test_unknown_fill_is_the_rerankers_default() -> None:
    assert _filled([None, 0.5]) == [UNKNOWN_LEVEL, 0.5]
    assert RerankPolicy().unknown_level == UNKNOWN_LEVEL


# ----------------------------------------------------------------------------- tail track

def test_tail_items_aggregate_pages_per_registrable_domain() -> None:
    rows = [{"url": "http://a.com/x", "credibility": "1"}, {"url": "https://www.a.com/y", "credibility": "0"},
            {"url": "http://b.org/", "credibility": "0"}, {"url": "http://x.c.net/p", "credibility": "1"},
            {"url": "http://c.net/q", "credibility": "1"}]
    items = {i.key: i for i in tail_items(rows)}
    assert {k: i.level for k, i in items.items()} == {"a.com": 1, "b.org": 0, "c.net": 2}
    assert items["c.net"].meta["hosts"] == ["c.net", "x.c.net"]
    assert items["a.com"].url == "http://a.com/x"
    assert (items["a.com"].meta["pages"], items["a.com"].meta["credible_pages"]) == (2, 1)


def test_tail_metrics_hand_worked() -> None:
    items = tuple(BenchItem(k, k, lvl) for k, lvl in (("a", 2), ("b", 1), ("c", 0), ("d", 0)))
    task = RankTask("t", "tailauth", 3, None, "domain", items, (), "")
    # b unknown -> 0.3, ties with c: (a,b) 1, (a,c) 1, (a,d) 1, (b,c) ½, (b,d) 1 -> 4.5 / 5
    m = tail_metrics(task, _scorer({"a": 0.9, "b": None, "c": 0.3, "d": 0.1}), n_lists=5, seed=0)
    assert m["pairs"]["accuracy"] == pytest.approx(0.9)
    assert m["pairs"]["n_pairs"] == 5
    assert m["coverage"] == pytest.approx(0.75)
    assert m["level_counts"] == {"0": 2, "1": 1, "2": 1}
    lo, hi = m["pairs"]["accuracy_ci"]
    assert 0.0 <= lo <= 0.9 <= hi <= 1.0


def test_shipped_tail_task_has_the_trec_domains() -> None:
    task = load_task("tail-trec2019")
    assert len(task.items) == 232
    assert Counter(i.level for i in task.items) == {2: 134, 0: 93, 1: 5}


# ----------------------------------------------------------------------------- hosted track

def _row(url: str, group: str, label: str) -> dict[str, str]:
    return {"url": url, "group": group, "label": label, "note": ""}


def test_hosted_metrics_hand_worked() -> None:
    items = hosted_items([_row("o1", "g", "official"), _row("o2", "g", "official"), _row("u1", "g", "user"),
                          _row("u2", "g", "user"), _row("o3", "n", "official"), _row("i1", "n", "ip")])
    task = RankTask("h", "hosted", 2, None, "domain", items, (), "")
    scores = {"o1": 0.9, "o2": 0.3, "u1": 0.5, "u2": None, "o3": 0.8, "i1": None}
    m = hosted_metrics(task, _scorer(scores), seed=0)
    # g: o1>u1 1, o1>u2(0.3) 1, o2<u1 0, o2=u2 ½ -> 2.5/4; n: o3 > i1(0.3) -> 1/1; overall 3.5/5
    assert m["groups"]["g"]["accuracy"] == pytest.approx(0.625)
    assert m["by_label"]["user"]["accuracy"] == pytest.approx(0.625)
    assert m["by_label"]["ip"]["accuracy"] == pytest.approx(1.0)
    assert m["overall"]["accuracy"] == pytest.approx(0.7)
    assert m["overall"]["n_pairs"] == 5
    assert m["coverage"] == pytest.approx(4 / 6)


@pytest.mark.parametrize(("rows", "message"), [
    ([_row("a", "g", "official"), _row("b", "g", "fan")], "label must be one of official, user, reserved, ip"),
    ([_row("a", "g", "official"), _row("a", "g", "user")], "line 3: duplicate URL 'a'"),
    ([_row("a", "g", "official"), _row("b", "g", "user"), _row("c", "h", "user")], "incomplete: h"),
])
def test_hosted_items_reject_bad_rows(rows: list[dict[str, str]], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        hosted_items(rows)


def test_shipped_hosted_file_covers_platforms_reserved_and_ip() -> None:
    task = load_task("hosted-urls")
    labels = Counter(str(i.meta["label"]) for i in task.items)
    assert len(task.items) >= 150
    assert set(labels) == {"official", "user", "reserved", "ip"}
    groups = {str(i.meta["group"]) for i in task.items}
    assert {"wordpress", "medium", "youtube", "reddit", "google-sites", "github", "reserved", "ip"} <= groups


# ----------------------------------------------------------------------------- RAG resampled + rerank grid

def test_resampled_rag_task_draws_25_balanced_instances_per_topic() -> None:
    task = load_rag_task("ragauth-trec2019-resampled")
    per_topic = Counter(i.topic_id for i in task.instances)
    assert len(per_topic) == 22 and set(per_topic.values()) == {25}
    assert task.ci_unit == "topic"
    for inst in task.instances:
        stances = [int(d.meta["stance"]) for d in inst.documents]
        assert stances.count(1) == stances.count(0) and len(stances) <= 10
    assert len(load_rag_task("ragauth-trec2019").instances) == 33  # the original task is unchanged


def test_topic_clustered_ci_resamples_topics_not_instances() -> None:
    # topic 1 always right, topic 2 always wrong: any resample of topics gives 0, ½ or 1
    lo, hi = topic_clustered_ci([1.0] * 25 + [0.0] * 25, [1] * 25 + [2] * 25)
    assert (lo, hi) == (0.0, 1.0)


def _doc(key: str, stance: int) -> BenchItem:
    return BenchItem(key, f"https://{key}/page", 0, meta={"stance": stance})


def test_rerank_grid_hand_worked() -> None:
    docs = (_doc("a.com", 0), _doc("b.com", 1), _doc("c.com", 0), _doc("d.com", 1))
    inst = RagInstance("1-0", 1, "q?", "q", 1, docs)
    scorer = DictScorer({"a.com": 0.2, "b.com": 0.9, "d.com": 0.8})  # c.com unknown -> 0.3
    grid = [GridPoint("linear", "minmax", 0.5), GridPoint("linear", "none", 0.5)]
    out = run_rerank_grid([inst], scorer, lambda _i: [3.0, 1.0, 2.0, 0.0], grid=grid)
    rows = {r["row"]: (r["k1"], r["k3"]) for r in out["rows"]}
    # relevance order a, c, b, d: top-1 a (no) -> 0; top-3 a c b -> majority no -> 0
    assert rows["relevance"] == (0.0, 0.0)
    # authority filter keeps b, then b d c -> yes
    assert rows["authority-filter"] == (1.0, 1.0)
    # minmax rel 1, 1/3, 2/3, 0 -> fused .6 .617 .483 .4: b a c -> k1 yes, k3 no
    assert rows["linear/minmax/w0.5"] == (1.0, 0.0)
    # 1/rank rel 1, 1/3, 1/2, 1/4 -> fused .6 .617 .4 .525: b a d -> k1 yes, k3 yes
    assert rows["linear/none/w0.5"] == (1.0, 1.0)
    minmax = next(r for r in out["rows"] if r["row"] == "linear/minmax/w0.5")
    assert minmax["k1_vs_relevance"]["value"] == pytest.approx(1.0)  # paired: 1.0 - 0.0 on the one topic
    assert "k1_vs_default" not in minmax  # linear/minmax/w0.3 is not in this grid


def test_rank_relevance_transforms() -> None:
    assert rank_relevance([3.0, 9.0, 1.0], "none") == [0.5, 1.0, pytest.approx(1 / 3)]
    assert rank_relevance([3.0, 9.0, 1.0], "rank") == [0.5, 1.0, 0.0]
    assert rank_relevance([3.0], "rank") == [1.0]
    assert rank_relevance([3.0, 9.0], "minmax") == [3.0, 9.0]


# ----------------------------------------------------------------------------- methods and compare

def test_table_methods_and_the_default_hook() -> None:
    ctx = MethodContext(task_family="tailauth", label_source=None)
    unknown = BenchItem("u", "https://zq-unknown-site-4412.biz/x", 0)
    assert build_method("table-const", ctx).score([unknown]) == [None]
    learned = build_method("table-learned", ctx).score([unknown])[0]
    assert learned is not None and 0.0 <= learned <= 1.0
    default = build_method("default", ctx)
    # page evidence is off by default (docs/evidence.md), so the default is reserved names, hosted pages, the table
    assert default.info()["composition"] == "reserved>hosted>table" and default.score([unknown]) == [None]


def test_headline_cells_and_config_errors() -> None:
    cells = headline_cells("le", {"le": {"spearman": 0.5, "spearman_ci": [0.4, 0.6], "coverage": 0.8}})
    assert cells["LE ρ"].text() == "0.500 [0.40, 0.60]"
    with pytest.raises(ConfigError, match="unknown track"):
        CompareConfig(tracks=("nope",))
    with pytest.raises(ConfigError, match="at least one method"):
        CompareConfig(methods=())
    assert CompareConfig().method_options() == {"credibility_weight": "0.5"}


@pytest.mark.slow
def test_compare_writes_one_table(tmp_path: Path) -> None:
    cfg = CompareConfig(methods=("table-const", "oracle"), tracks=("tail-trec2019", "hosted-urls"), n_lists=10,
                        n_pairs=10, rerank_relevance=())
    record = run_compare(cfg, tmp_path)
    assert record["table"]["tail-trec2019 | pair accuracy (AUC)"]["oracle"]["value"] == pytest.approx(1.0)
    text = (tmp_path / "compare.md").read_text()
    assert "| hosted-urls | official > user |" in text
    assert (tmp_path / "runs" / "tail-trec2019__table-const" / "result.json").exists()
    delta = record["table"]["tail-trec2019 | pair accuracy (AUC)"]["Δ oracle − table-const"]
    assert delta["value"] == pytest.approx(1.0 - record["table"]["tail-trec2019 | pair accuracy (AUC)"]["table-const"]["value"])


def test_paired_delta_on_the_same_units() -> None:
    from authorag.benchmarks.paired import paired_delta

    base = {"levels": [1, 1, 0, 0], "scores": [0.9, 0.4, 0.4, 0.1]}  # AUC 3.5/4
    other = {"levels": [1, 1, 0, 0], "scores": [0.9, 0.8, 0.4, 0.1]}  # AUC 4/4
    d = paired_delta("tail", "pair accuracy (AUC)", base, other)
    assert d["value"] == pytest.approx(0.125)
    assert 0.0 <= d["ci"][0] <= d["ci"][1] <= 0.5  # other never loses a pair base wins
    # hosted: groups (credit, pairs): base 1/2 + 0/1, other 2/2 + 1/1 -> 1/3 vs 3/3
    hb = {"all": [[1.0, 2], [0.0, 1]], "user": [[1.0, 2], [0.0, 1]]}
    ho = {"all": [[2.0, 2], [1.0, 1]], "user": [[2.0, 2], [1.0, 1]]}
    assert paired_delta("hosted", "official > user", hb, ho)["value"] == pytest.approx(2 / 3)
    # RAG: topics 1, 1, 2; per-topic means pooled over instances: base 0.5, other 1.0
    rb = {"topics": [1, 1, 2], "k1": [1.0, 0.0, 0.5]}
    ro = {"topics": [1, 1, 2], "k1": [1.0, 1.0, 1.0]}
    assert paired_delta("rag", "authority filter k=1", rb, ro)["value"] == pytest.approx(0.5)
    with pytest.raises(ConfigError, match="same units"):
        paired_delta("le", "LE ρ", {"spearman": [0.1]}, {"spearman": [0.1, 0.2]})


def test_method_variants_only_for_compositions() -> None:
    from dataclasses import dataclass

    from authorag.benchmarks.tracks.methods import parse_settings

    ctx = MethodContext(task_family="tailauth", label_source=None)
    with pytest.raises(ConfigError, match=r"only the compositions \(relevance-only, today, default\) take settings "
                                          "after a colon, got 'table-const:x=1'"):
        build_method("table-const:x=1", ctx)

    @dataclass(frozen=True)
    class Settings:
        exclude_sources: tuple[str, ...] = ()
        optin_sources: tuple[str, ...] = ()
        learned: bool = False
        hosted_authority: float = 0.3

    assert parse_settings("learned=yes,optin_sources=a+b", Settings) == {"learned": True, "optin_sources": ("a", "b")}
    with pytest.raises(ConfigError, match="'nope=1' is not NAME=VALUE for a ScorerSettings field"):
        parse_settings("nope=1", Settings)
    with pytest.raises(ConfigError, match="exclude_sources is set by the task"):
        parse_settings("exclude_sources=majestic", Settings)
    with pytest.raises(ConfigError, match="setting learned must be true or false, got 'maybe'"):
        parse_settings("learned=maybe", Settings)
