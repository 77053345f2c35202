"""Rerank tracks on TREC HM 2019 pages: graded nDCG (``graded-trec2019``) and RAGAuth rerank rows.

``graded-trec2019``: for each of the 29 topics, :data:`POOL_DRAWS` pools of the topic's own judged
pages (at most :data:`OWN_CAP`, gain = NIST usefulness, 1 or 2) and :data:`OFFTOPIC_PER_POOL`
pages drawn from the other topics (gain 0; several topics are close, such as four on lower
back pain, so these are the near misses a real pool holds), in a shuffled order, all seeded by
:data:`POOL_SEED`. The query is the topic's description (topic 13's instruction reworded as
:data:`~authorag.benchmarks.rag.tasks.QUESTION_REWRITES` does). Each pool is reranked by the
method (:class:`~authorag.benchmarks.tracks.rerank.Reranking`); rows ``nDCG@5 (REL)`` and
``nDCG@10 (REL)`` with linear gains, DCG = sum of gain / log2(rank + 1), CIs resampling topics.
The question it answers: does fusing trust cost ranking quality against relevance alone?

RAGAuth rerank rows (``rerank k=K (REL)``): the generator-free score of the top k of the fused
order (majority stance vs the gold answer, ties ½) on every RAGAuth-open instance.

Input order carries no relevance here (pools and instances are shuffled), so ``rank`` relevance
is not run on these tracks.

Example:
    >>> round(ndcg([2.0, 0.0, 1.0], 3), 4)
    0.9502
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from authorag.benchmarks.metrics import stance_majority_score
from authorag.benchmarks.rag.protocol import TOP_KS
from authorag.benchmarks.rag.tasks import QUESTION_REWRITES, RagInstance
from authorag.benchmarks.tasks import BenchItem, read_rows
from authorag.benchmarks.tracks.rerank import Reranking, Units, add_unit, cells_of

GRADED_TASK = "graded-trec2019"
TREC_FILE = "authorag.benchmarks.data/trec_hm2019.csv.gz"
OWN_CAP = 20
OFFTOPIC_PER_POOL = 10
POOL_DRAWS = 5
POOL_SEED = 0
NDCG_KS = (5, 10)
SCORED_RELEVANCE = ("bm25", "dense", "upstream", "similarity")
"""Relevances these tracks run (input order is a shuffle here, so ``rank`` tells nothing)."""


@dataclass(frozen=True, slots=True)
class GradedPool:
    """One topic's candidate pool: documents in input order and their gains."""

    topic_id: int
    draw: int
    question: str
    documents: tuple[BenchItem, ...]
    gains: tuple[float, ...]


def ndcg(gains: Sequence[float], k: int, ideal: Sequence[float] | None = None) -> float:
    """nDCG@k of ``gains`` in ranked order (linear gain); the ideal order sorts ``ideal`` (default ``gains``)."""
    def dcg(values: Sequence[float]) -> float:
        return sum(g / math.log2(i + 2) for i, g in enumerate(values[:k]))

    best = dcg(sorted(gains if ideal is None else ideal, reverse=True))
    return 0.0 if best == 0.0 else dcg(gains) / best


@cache
def graded_pools() -> tuple[GradedPool, ...]:
    """Every pool of ``graded-trec2019`` (deterministic)."""
    topics: dict[int, list[BenchItem]] = {}
    questions: dict[int, str] = {}
    for row in read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz"):
        t = int(row["topic_id"])
        questions.setdefault(t, QUESTION_REWRITES.get(t, row["description"]))
        topics.setdefault(t, []).append(BenchItem(row["doc_id"], row["url"], int(row["credibility"]), text=row["text"],
                                                  meta={"usefulness": int(row["usefulness"]), "topic_id": t}))
    rng = random.Random(POOL_SEED)
    pools: list[GradedPool] = []
    for t in sorted(topics):
        own_all = sorted(topics[t], key=lambda d: d.key)
        own_keys = {d.key for d in own_all} | {d.url for d in own_all}
        others = [d for u in sorted(topics) if u != t for d in sorted(topics[u], key=lambda d: d.key)
                  if d.key not in own_keys and d.url not in own_keys]
        for draw in range(POOL_DRAWS):
            own = own_all if len(own_all) <= OWN_CAP else rng.sample(own_all, OWN_CAP)
            pool = [(d, float(d.meta["usefulness"])) for d in own] + [(d, 0.0) for d in rng.sample(others, OFFTOPIC_PER_POOL)]
            rng.shuffle(pool)
            pools.append(GradedPool(t, draw, questions[t], tuple(d for d, _ in pool), tuple(g for _, g in pool)))
    return tuple(pools)


def graded_metrics(pools: Sequence[GradedPool], reranking: Reranking, relevances: Sequence[str], *, seed: int = 0,
                   progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """nDCG@5 and @10 of the method's order per relevance, CIs by topic."""
    units: Units = {}
    for pool in pools:
        urls, texts = [d.url for d in pool.documents], [d.text for d in pool.documents]
        for rel in relevances:
            ranked = [pool.gains[i] for i in reranking.order(rel, pool.question, urls, texts)]
            for k in NDCG_KS:
                add_unit(units, f"nDCG@{k} ({rel})", pool.topic_id, ndcg(ranked, k))
        progress()
    return {"protocol": "graded", "task": GRADED_TASK, "n_pools": len(pools),
            "n_topics": len({p.topic_id for p in pools}), "relevance": list(relevances),
            "pool": {"own_cap": OWN_CAP, "offtopic": OFFTOPIC_PER_POOL, "draws": POOL_DRAWS, "seed": POOL_SEED},
            "rows": cells_of(units, seed), "units": {"rows": units}}


def rag_rerank_metrics(instances: Sequence[RagInstance], reranking: Reranking, relevances: Sequence[str], *,
                       seed: int = 0, ci_by_topic: bool = True) -> dict[str, Any]:
    """Generator-free accuracy of the top k = 1, 3, 5 of the method's fused order, per relevance."""
    units: Units = {}
    for n, inst in enumerate(instances):
        docs = inst.documents
        for rel in relevances:
            order = reranking.order(rel, inst.question, [d.url for d in docs], [d.text for d in docs])
            stances = [int(docs[i].meta["stance"]) for i in order]
            for k in TOP_KS:
                add_unit(units, f"rerank k={k} ({rel})", inst.topic_id if ci_by_topic else n,
                     stance_majority_score(stances[:k], inst.gold))
    return {"relevance": list(relevances), "rows": cells_of(units, seed), "units": {"rows": units}}
