"""Task construction: level rules, edge cases, list/pair sampling, RAG instance draws."""
from __future__ import annotations

import doctest
import math
import random

import numpy as np
import pytest

from authorag.benchmarks import protocols, tasks
from authorag.benchmarks.protocols import easy_threshold, sample_lists, sample_pairs
from authorag.benchmarks.rag import tasks as rag_tasks
from authorag.benchmarks.rag.tasks import QUESTION_REWRITES, draw_instances, load_rag_task
from authorag.benchmarks.registry import load_task
from authorag.benchmarks.tasks import (
    BenchItem,
    RankTask,
    baly_host,
    decile_levels,
    log_bin_levels,
    normalize_key,
    pagerank_levels,
)
from authorag.domains import parse_host
from authorag.errors import ConfigError


def test_log_bins_clip_at_lower_edge() -> None:
    # Without the clip, the minimum can land below edges[0] after the log/exp round trip.
    values = [5.0, 5.0, 7.0, 47.0]
    edges = np.logspace(math.log10(5.0), math.log10(47.0), 11)
    raw = (np.digitize(np.asarray(values), edges) - 1).tolist()
    assert min(raw) >= -1  # the unclipped rule can give -1 for s == smin
    assert log_bin_levels(values)[:2] == [0, 0]
    assert log_bin_levels(values)[-1] == 9  # smax lands past the last edge: clipped to 9


def test_log_bins_edges_by_hand() -> None:
    # 5..500: edges grow by 10**0.2 ≈ 1.585: 5, 7.9, 12.6, 19.9, 31.5, 50, ...
    assert log_bin_levels([5, 10, 40, 500]) == [0, 1, 4, 9]


def test_pagerank_levels() -> None:
    assert pagerank_levels(0.0) == (0, 0)
    assert pagerank_levels(0.19) == (1, 0)
    assert pagerank_levels(0.2) == (2, 1)
    assert pagerank_levels(1.0) == (9, 4)


def test_decile_levels_equal_frequency_and_ties() -> None:
    assert decile_levels(list(range(20))) == [i // 2 for i in range(20)]
    assert decile_levels([5, 1, 3, 3, 9], n_levels=5) == [3, 0, 1, 1, 4]


def test_web_track_drops_broken_row_and_normalizes_keys() -> None:
    task = load_task("domainauth-web-fine")
    keys = {i.key for i in task.items}
    assert normalize_key(".com") is None
    assert ".com" not in keys and "com" not in keys
    assert "en.wikipedia.org" in keys  # sub-domains keep their own row
    # "www." survives only where it is the registrable label itself (www.gov.uk)
    assert all(parse_host(k).domain == k for k in keys if k.startswith("www."))
    counts = [len(v) for v in task.by_level().values()]
    assert max(counts) - min(counts) < 0.02 * len(task.items)  # deciles
    assert task.label_source == "majestic"


def test_coarse_is_fine_halved() -> None:
    fine = {i.key: i.level for i in load_task("domainauth-news-fine").items}
    coarse = load_task("domainauth-news-coarse")
    assert all(i.level == fine[i.key] // 2 for i in coarse.items)
    assert coarse.n_levels == 5


def test_entity_pools_cap_per_level() -> None:
    task = load_task("entityauth-basketball-fine")
    sizes = [len(g) for g in task.by_level().values()]
    assert max(sizes) == tasks.ENTITY_CAP_PER_LEVEL
    assert all(i.url == "" and i.meta["kind"] == "basketball player" for i in task.items[:5])


def test_mbfc_six_levels_and_bare_domains() -> None:
    task = load_task("credauth-mbfc")
    assert task.n_levels == 6 and task.label_source is None
    assert all("/" not in i.key for i in task.items)


def test_baly_host() -> None:
    assert baly_host("who.int-en") == "who.int"
    assert baly_host("conservativeoutfitters.com-blogs-news") == "conservativeoutfitters.com"
    assert baly_host("france24-tv.com") == "france24-tv.com"


def _toy_task(levels: list[int], n_levels: int = 4) -> RankTask:
    items = tuple(BenchItem(f"d{i}.com", f"d{i}.com", lvl) for i, lvl in enumerate(levels))
    return RankTask("toy", "domainauth", n_levels, None, "domain", items, (), "toy")


def test_lists_hold_one_item_per_level() -> None:
    task = _toy_task([0, 0, 1, 1, 2, 3, 3])
    lists = sample_lists(task, 30, seed=1)
    assert all(sorted(i.level for i in lst) == [0, 1, 2, 3] for lst in lists)
    assert sample_lists(task, 30, seed=1) == lists  # seeded


def test_lists_skip_empty_levels_and_need_two() -> None:
    assert [sorted(i.level for i in lst) for lst in sample_lists(_toy_task([0, 3, 3]), 2, 0)] == [[0, 3], [0, 3]]
    with pytest.raises(ConfigError, match="1 non-empty level"):
        sample_lists(_toy_task([2, 2]), 1, 0)


def test_pairs_respect_difficulty() -> None:
    task = load_task("domainauth-news-fine")
    easy = sample_pairs(task, 50, "easy", seed=0)
    hard = sample_pairs(task, 50, "hard", seed=0)
    assert all(abs(a.level - b.level) > 5 for a, b in easy)
    assert all(abs(a.level - b.level) == 1 for a, b in hard)
    coarse = sample_pairs(load_task("domainauth-news-coarse"), 20, "easy", seed=0)
    assert all(abs(int(a.level10) - int(b.level10)) > 5 for a, b in coarse)  # type: ignore[arg-type]
    assert easy_threshold(10) == 5.0 and easy_threshold(3) == pytest.approx(10 / 9)


def test_rag_draws_are_disjoint_and_balanced() -> None:
    docs = [BenchItem(str(i), "", 0, meta={"stance": i % 2}) for i in range(26)]
    draws = draw_instances(docs, random.Random(0))
    assert [len(d) for d in draws] == [10, 10]
    ids = [d.key for draw in draws for d in draw]
    assert len(ids) == len(set(ids))
    assert all(sum(d.meta["stance"] for d in draw) == 5 for draw in draws)
    small = draw_instances(docs[:6], random.Random(0))
    assert [sorted(d.key for d in small[0])] == [sorted(d.key for d in docs[:6])]


def test_rag_task_instances() -> None:
    task = load_rag_task()
    topics = {i.topic_id for i in task.instances}
    assert len(topics) == 22
    by_topic = {t: [i for i in task.instances if i.topic_id == t] for t in topics}
    assert len(by_topic[38]) == 6 and len(by_topic[6]) == 4  # 62 and 40 documents
    for insts in by_topic.values():
        ids = [d.key for i in insts for d in i.documents]
        assert len(ids) == len(set(ids))  # disjoint draws
    (t13,) = by_topic[13]
    assert t13.question == QUESTION_REWRITES[13] and t13.question.endswith("?") and t13.gold == 0
    assert all(i.gold == 1 for i in by_topic[12])  # TREC "helpful" -> yes


@pytest.mark.parametrize("module", [tasks, rag_tasks, protocols])
def test_docstring_examples(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]
