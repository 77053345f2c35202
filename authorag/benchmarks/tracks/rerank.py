"""Rerank tracks: the hand-written trust and no-harm cases through the product's own reranker.

Every case is reranked as the surfaces rerank: ``authorag.adapters.build_reranker(scorer,
relevance, policy)``, candidates from ``authorag.adapters.candidates_of`` and
``AuthorityReranker.rerank_owned``, with the method's scorer and policy
(:func:`~authorag.benchmarks.tracks.rerank_methods.rerank_setup`). Relevance (:data:`RELEVANCE_CHOICES`):
``bm25`` (the server's and ``authorag rerank --relevance bm25``'s), ``rank`` (the input order),
``dense`` (the reranker's MiniLM scorer), ``upstream`` (MiniLM cosine clipped at 0 handed over
as each document's 0-1 score, as a Cohere-style client sends one) and ``similarity`` (the same
scores, declared to judge meaning, as a vector retriever's caller would). Pages a policy drops count as ranked last.

Input orders per case: trust pairs and no-harm pairs as written and reversed; lists as written,
reversed and :data:`LIST_SHUFFLES` shuffles seeded by the run seed and the case id. With ``rank``
relevance the input order is the relevance, so no-harm cases get the order a retriever that got
relevance right would give (every on-topic page first; lists also with each group reversed):
the question is whether trust overturns it.

Rows (each a share of (case, input order) units, bootstrap 95 % CI resampling cases):

* ``trust-pairs``: ``trusted first (REL)``; by domain and by untrusted kind in the breakdown;
* ``no-harm-pairs``: ``on-topic first (REL)``; by domain and on-topic kind in the breakdown;
* ``no-harm-hard``: the same for the harder no-harm pairs (BM25 alone misses some of them);
* ``no-harm-lists``: ``order respected (REL)`` (every expected pair in order), ``pairs in order
  (REL)`` (share of the expected pairs), ``on-topic above off-topic (REL)``, ``trusted first (REL)``;
* ``trust-pairs-v2``, ``no-harm-pairs-v2``, ``rerank-lists-v2``: the same rows (lists: trusted
  first, on-topic above off-topic, pairwise order, whole order), broken down by topic, kind and
  language; ``trust-pairs-v3``, ``no-harm-pairs-v3``, ``rerank-lists-v3`` and the v4 sets on new
  topics (``trust-pairs-v4``, ``no-harm-pairs-v4``, ``rerank-lists-v4``), the 7-page
  ``rerank-lists-v5`` and the pair sets in new languages, ``trust-pairs-v6`` / ``no-harm-pairs-v6`` on
  (:data:`~authorag.benchmarks.tracks.trust_data.LANGUAGE_VERSIONS`: Italian, Portuguese and Dutch first):
  the rows of their v2 twins (:func:`~authorag.benchmarks.tracks.trust_data.form_of`).

Example:
    >>> case_orders(load_cases("trust-pairs")[0], "bm25", seed=0)
    [(0, 1), (1, 0)]
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from authorag.benchmarks.metrics import cluster_bootstrap_ci, mean
from authorag.benchmarks.rag.protocol import cached_dense
from authorag.benchmarks.tracks.rerank_methods import RELEVANCE_CHOICES, RerankSetup
from authorag.benchmarks.tracks.trust_data import (
    DOMAINS,
    MULTI_LANGS,
    MULTI_SETS,
    ONTOPIC_KINDS,
    TRUST_KINDS,
    V2_KINDS,
    V2_TOPICS,
    V4_TOPICS,
    RerankCase,
    form_of,
    group_pairs,
    load_cases,
)
from authorag.errors import ConfigError
from authorag.relevance.base import RelevanceScorer
from authorag.relevance.dense import LEAD_TOKENS
from authorag.rerankers.authority import AuthorityReranker

DEFAULT_RELEVANCE = ("bm25", "rank", "dense")
LIST_SHUFFLES = 2
CASE_TASKS = ("trust-pairs", "no-harm-pairs", "no-harm-hard", "no-harm-lists", *MULTI_SETS)
Units = dict[str, dict[str, list[Any]]]
"""row → ``{"clusters": [case index per unit], "values": [value per unit]}`` (paired deltas)."""


class Reranking:
    """One method's rerankers, one per relevance, built the way the surfaces build them."""

    def __init__(self, setup: RerankSetup, dense_max_tokens: int | None = LEAD_TOKENS) -> None:
        self.setup = setup
        self.dense_max_tokens = dense_max_tokens
        self._built: dict[str, tuple[AuthorityReranker, str]] = {}

    def add_relevance(self, name: str, scorer: RelevanceScorer) -> None:
        """Rerank with your own relevance ``scorer`` wherever a track is run with relevance
        ``name`` (a row label; the built-in names are :data:`RELEVANCE_CHOICES`), built as the
        surfaces build it (``scripts/eval_static_meaning.py`` evaluates a scorer this way)."""
        from authorag.adapters import build_reranker

        self._built[name] = build_reranker(self.setup.scorer, scorer, self.setup.policy)

    def _reranker(self, relevance: str) -> tuple[AuthorityReranker, str]:
        from authorag.adapters import build_reranker

        if relevance not in self._built:
            choice: Any = cached_dense(self.dense_max_tokens) if relevance == "dense" else relevance
            self._built[relevance] = build_reranker(self.setup.scorer, choice, self.setup.policy)
        return self._built[relevance]

    def order(self, relevance: str, query: str, urls: Sequence[str], texts: Sequence[str]) -> list[int]:
        """Input indices best first; pages the policy dropped follow in input order."""
        from authorag.adapters import candidates_of

        reranker, mode = self._reranker(relevance)
        upstream: list[float | None] | None = None
        if relevance in ("upstream", "similarity"):  # clipped at 0: a 0-1 score, as a Cohere-style relevance_score is
            upstream = [max(0.0, v) for v in cached_dense(self.dense_max_tokens).cosines(query, texts)]
        cands, _ = candidates_of(urls, texts, upstream, mode)
        ranked = [int(c.id) for c in reranker.rerank_owned(query, cands).candidates]
        kept = set(ranked)
        return ranked + [i for i in range(len(urls)) if i not in kept]


def track_relevances(requested: Sequence[str], pinned: str | None, allowed: Sequence[str] = RELEVANCE_CHOICES) -> list[str]:
    """The relevances a method runs on a track: its pinned one, else the requested ones the track takes.

    Raises:
        ConfigError: an unknown relevance name.
    """
    bad = [r for r in requested if r not in RELEVANCE_CHOICES]
    if bad:
        raise ConfigError(f"track relevance must be among {', '.join(RELEVANCE_CHOICES)}, got {', '.join(bad)}")
    chosen = [pinned] if pinned is not None else list(requested)
    return [r for r in chosen if r in allowed]


def case_orders(case: RerankCase, relevance: str, seed: int, retriever_order: bool = False) -> list[tuple[int, ...]]:
    """The input orders (permutations of page indices) a case is reranked in; ``retriever_order``
    (the no-harm tracks) makes ``rank`` relevance use the orders a relevance-right retriever gives."""
    n = len(case.pages)
    written = tuple(range(n))
    if relevance == "rank" and retriever_order:
        by_group = sorted(written, key=lambda i: case.pages[i].group)
        flipped = sorted(reversed(written), key=lambda i: case.pages[i].group)
        return list(dict.fromkeys([tuple(by_group), tuple(flipped)]))
    orders = [written, written[::-1]]
    if n > 2:
        rng = random.Random(f"{seed}:{case.id}")
        for _ in range(LIST_SHUFFLES):
            shuffled = list(written)
            rng.shuffle(shuffled)
            orders.append(tuple(shuffled))
    return orders


def case_measures(case: RerankCase, ranked: Sequence[int]) -> dict[str, float]:
    """What one reranked order scores: first page in group 0, pairs in order, on-topic above off-topic."""
    pos = {page: n for n, page in enumerate(ranked)}
    pairs = group_pairs(case)
    held = [pos[a] < pos[b] for a, b in pairs]
    off = [pos[a] < pos[b] for a, b in pairs if case.pages[b].role == "offtopic"]
    return {"first": float(case.pages[ranked[0]].group == 0), "respected": float(all(held)),
            "pairs": sum(held) / len(held), "ontopic": float(all(off)) if off else 1.0}


_ROWS: Mapping[str, Sequence[tuple[str, str]]] = {
    "trust-pairs": (("trusted first", "first"),),
    "no-harm-pairs": (("on-topic first", "first"),),
    "no-harm-hard": (("on-topic first", "first"),),
    "no-harm-lists": (("order respected", "respected"), ("pairs in order", "pairs"),
                      ("on-topic above off-topic", "ontopic"), ("trusted first", "first")),
    "trust-pairs-v2": (("trusted first", "first"),),
    "no-harm-pairs-v2": (("on-topic first", "first"),),
    "rerank-lists-v2": (("trusted first", "first"), ("on-topic above off-topic", "ontopic"),
                        ("pairs in order", "pairs"), ("order respected", "respected")),
}


def mean_cell(clusters: Sequence[int], values: Sequence[float], seed: int) -> dict[str, Any]:
    """Share over units, with a bootstrap 95 % CI resampling whole clusters (JSON-ready)."""
    groups: dict[int, list[float]] = {}
    for c, v in zip(clusters, values, strict=True):
        groups.setdefault(c, []).append(v)
    ci = cluster_bootstrap_ci(list(groups.values()), lambda gs: mean([v for g in gs for v in g]), seed=seed)
    return {"value": mean(values), "ci": list(ci), "n_units": len(values), "n_clusters": len(groups)}


def cells_of(units: Units, seed: int) -> dict[str, Any]:
    """:func:`mean_cell` of every row."""
    return {r: mean_cell(u["clusters"], u["values"], seed) for r, u in units.items()}


def add_unit(units: Units, row: str, cluster: int, value: float) -> None:
    """Record one unit's value of ``row`` (its cluster is what the CI resamples)."""
    slot = units.setdefault(row, {"clusters": [], "values": []})
    slot["clusters"].append(cluster)
    slot["values"].append(value)


def _ordered(detail: Units, relevances: Sequence[str]) -> Units:
    """Breakdown rows per relevance, domains in :data:`DOMAINS` order, then kinds in their order."""
    order = [*(f"domain {d}" for d in dict.fromkeys((*DOMAINS, *V2_TOPICS, *V4_TOPICS))),
             *(f"kind {k}" for k in (*TRUST_KINDS, *ONTOPIC_KINDS, *V2_KINDS)),
             *(f"lang {g}" for g in MULTI_LANGS)]

    def key(row: str) -> tuple[int, int]:
        head, _, group = row.partition(", ")
        rel = head[head.rindex("(") + 1:-1]
        return relevances.index(rel), order.index(group)
    return {r: detail[r] for r in sorted(detail, key=key)}


def case_metrics(task: str, cases: Sequence[RerankCase], reranking: Reranking, relevances: Sequence[str], *,
                 seed: int = 0, progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Rows, breakdown rows, per-case outcomes and units of one case track for one method."""
    if not cases:
        raise ConfigError(f"{task}: no cases in this split")
    units: Units = {}
    detail: Units = {}
    per_case: list[dict[str, Any]] = []
    rows = _ROWS[form_of(task)]
    head = rows[0][0]
    for n, case in enumerate(cases):
        outcome: dict[str, Any] = {"id": case.id}
        urls, texts = [p.url for p in case.pages], [p.text for p in case.pages]
        for rel in relevances:
            firsts: list[float] = []
            for perm in case_orders(case, rel, seed,
                                    retriever_order=form_of(task) not in ("trust-pairs", "trust-pairs-v2")):
                ranked = reranking.order(rel, case.query, [urls[i] for i in perm], [texts[i] for i in perm])
                measures = case_measures(case, [perm[i] for i in ranked])
                for row, key in rows:
                    add_unit(units, f"{row} ({rel})", n, measures[key])
                key = rows[0][1]
                add_unit(detail, f"{head} ({rel}), domain {case.domain}", n, measures[key])
                if case.kind != "list":
                    add_unit(detail, f"{head} ({rel}), kind {case.kind}", n, measures[key])
                if task in MULTI_SETS:
                    add_unit(detail, f"{head} ({rel}), lang {case.lang}", n, measures[key])
                firsts.append(measures[key])
            outcome[rel] = mean(firsts)
        per_case.append(outcome)
        progress()
    return {"protocol": "rerank-cases", "task": task, "n_cases": len(cases), "relevance": list(relevances),
            "rows": cells_of(units, seed), "detail_rows": cells_of(_ordered(detail, relevances), seed),
            "cases": per_case, "units": {"rows": {**units, **detail}}}


def run_case_track(task: str, split: str, reranking: Reranking, relevances: Sequence[str], *, seed: int = 0,
                   progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """:func:`case_metrics` over the vendored cases of ``task`` in ``split``."""
    out = case_metrics(task, load_cases(task, split), reranking, relevances, seed=seed, progress=progress)
    out["split"] = split
    return out
