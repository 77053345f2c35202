"""Rerank-mode evaluation on RAGAuth-open: top-k of the fused order over a policy grid.

For every instance the documents are ordered by the product's own
:class:`~authorag.rerankers.authority.AuthorityReranker` (``mode="rerank"``) under each
:class:`GridPoint` (fusion × normalisation × weight), and the top k = 1, 3, 5 are scored
generator-free (majority stance vs the gold answer, ties ½). Beside the grid: ``relevance``
(top-k by relevance alone) and ``authority-filter`` (``mode="filter", top_k=k``). CIs resample
whole topics (instances of one topic share documents). Every row also carries its paired
difference (same topics resampled) to ``relevance`` and to today's default policy
(``linear/minmax/w0.3``): ``k1_vs_relevance``, ``k1_vs_default``, ...

Normalisations (how the relevance the reranker sees is made):

* ``minmax``: the raw relevance scores, ``normalize="minmax"`` (the reranker's default);
* ``none``: a rank-based relevance already in [0, 1], ``1 / rank`` (ties share the best
  rank), with ``normalize="none"``: the shape of a calibrated score that falls off fast;
* ``rank``: the linear rank ``(n − rank) / (n − 1)``, with ``normalize="none"``.

RRF uses ranks only, so its rows carry normalisation ``-``. The authority scorer is a
parameter: any :class:`~authorag.priors.base.AuthorityScorer` (see
:func:`~authorag.benchmarks.tracks.methods.method_scorer`); unknown sources get the policy's
``unknown_level`` (:data:`~authorag.types.UNKNOWN_LEVEL`), as in the product.

Example:
    >>> rank_relevance([3.0, 9.0, 3.0, 1.0], "rank")
    [0.6666666666666666, 1.0, 0.6666666666666666, 0.0]
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from authorag.benchmarks.metrics import mean, stance_majority_score
from authorag.benchmarks.paired import paired_delta
from authorag.benchmarks.rag.protocol import TOP_KS, DocScorer, keep_top, topic_clustered_ci
from authorag.benchmarks.rag.tasks import RagInstance
from authorag.policy import RerankPolicy
from authorag.priors.base import AuthorityScorer
from authorag.rerankers.authority import AuthorityReranker
from authorag.rerankers.fusion import ranks_desc
from authorag.types import AuthorityDetail, Candidate

GridNorm = Literal["minmax", "none", "rank", "-"]
DEFAULT_POLICY_ROW = "linear/minmax/w0.3"
"""The grid row of today's reranker defaults (linear fusion, minmax, weight 0.3)."""
WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7)
NORMALIZATIONS: tuple[GridNorm, ...] = ("minmax", "none", "rank")


@dataclass(frozen=True, slots=True)
class GridPoint:
    """One fused-order policy: fusion, relevance normalisation, authority weight."""

    fusion: Literal["linear", "rrf"]
    normalize: GridNorm
    weight: float

    @property
    def label(self) -> str:
        """``linear/minmax/w0.3`` style name."""
        return f"{self.fusion}/{self.normalize}/w{self.weight:g}"

    def policy(self) -> RerankPolicy:
        """The reranker policy of this point: the earlier signal (``blend``), everything else at the
        product defaults."""
        norm = "none" if self.normalize in ("none", "rank") else "minmax"  # rrf ignores it
        return RerankPolicy(mode="rerank", fusion=self.fusion, weight=self.weight, normalize=norm, signal="blend")


def default_grid(weights: Sequence[float] = WEIGHTS) -> list[GridPoint]:
    """Linear fusion × (minmax, none, rank) × weights, then RRF × weights."""
    grid = [GridPoint("linear", n, w) for n in NORMALIZATIONS for w in weights]
    return grid + [GridPoint("rrf", "-", w) for w in weights]


def rank_relevance(scores: Sequence[float], normalize: GridNorm) -> list[float]:
    """The relevance handed to the reranker for ``normalize`` (see the module docstring)."""
    if normalize in ("minmax", "-"):
        return [float(s) for s in scores]
    ranks = ranks_desc(scores).tolist()
    if normalize == "none":
        return [1.0 / r for r in ranks]
    n = len(scores)
    return [1.0 if n == 1 else (n - r) / (n - 1) for r in ranks]


class MemoScorer:
    """Caches an AuthorityScorer's details per URL (the grid asks for the same documents often)."""

    def __init__(self, scorer: AuthorityScorer) -> None:
        self.scorer = scorer
        self.name = scorer.name
        self._memo: dict[str, AuthorityDetail] = {}

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """Details of ``candidates``, asking the wrapped scorer only for new URLs."""
        todo = [c for c in candidates if c.url not in self._memo]
        if todo:
            for cand, detail in zip(todo, self.scorer.score(todo), strict=True):
                self._memo[cand.url] = detail
        return [self._memo[c.url] for c in candidates]


def _stance_scores(inst: RagInstance, order: Sequence[str]) -> list[float]:
    stance = {d.key: int(d.meta["stance"]) for d in inst.documents}
    return [stance_majority_score([stance[i] for i in order[:k]], inst.gold) for k in TOP_KS]


def _instance_scores(inst: RagInstance, reranker: AuthorityReranker, relevance: list[float],
                     grid: Sequence[GridPoint]) -> dict[str, list[float]]:
    """Per row label, the generator-free score at each k for one instance."""
    out: dict[str, list[float]] = {}
    for point in grid:
        rel = rank_relevance(relevance, point.normalize)
        cands = [Candidate.create(d.url, d.text, id=d.key, scores={"relevance": r})
                 for d, r in zip(inst.documents, rel)]
        ranking = reranker.rerank(inst.question, cands, **_overrides(point.policy()))
        out[point.label] = _stance_scores(inst, [c.id for c in ranking.candidates])
    keys = [d.key for d in inst.documents]
    out["relevance"] = _stance_scores(inst, [keys[i] for i in keep_top(relevance, len(keys))])
    cands = [Candidate.create(d.url, d.text, id=d.key, scores={"relevance": r}) for d, r in zip(inst.documents, relevance)]
    out["authority-filter"] = []
    for n, k in enumerate(TOP_KS):
        kept = reranker.rerank(inst.question, cands, mode="filter", top_k=k)
        out["authority-filter"].append(_stance_scores(inst, [c.id for c in kept.candidates])[n])
    return out


def _overrides(policy: RerankPolicy) -> dict[str, Any]:
    return {"mode": policy.mode, "fusion": policy.fusion, "weight": policy.weight, "normalize": policy.normalize,
            "signal": policy.signal}


def run_rerank_grid(instances: Sequence[RagInstance], scorer: AuthorityScorer, relevance: DocScorer, *,
                    grid: Sequence[GridPoint] | None = None, seed: int = 0, ci_by_topic: bool = True,
                    progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Generator-free accuracy at k = 1, 3, 5 for every grid point and the two baselines."""
    points = default_grid() if grid is None else list(grid)
    reranker = AuthorityReranker(MemoScorer(scorer))
    per_row: dict[str, list[list[float]]] = {}
    for inst in instances:
        for label, values in _instance_scores(inst, reranker, relevance(inst), points).items():
            per_row.setdefault(label, []).append(values)
        progress()
    topics = [inst.topic_id for inst in instances]
    rows: list[dict[str, Any]] = []
    meta = {p.label: p for p in points}
    units = {label: {"topics": topics if ci_by_topic else list(range(len(topics))),
                     **{f"k{k}": [v[n] for v in values] for n, k in enumerate(TOP_KS)}}
             for label, values in per_row.items()}
    for label, values in per_row.items():
        point = meta.get(label)
        row: dict[str, Any] = {"row": label, "fusion": None if point is None else point.fusion,
                               "normalize": None if point is None else point.normalize,
                               "weight": None if point is None else point.weight}
        for n, k in enumerate(TOP_KS):
            col = [v[n] for v in values]
            row[f"k{k}"] = mean(col)
            row[f"k{k}_ci"] = list(topic_clustered_ci(col, topics if ci_by_topic else list(range(len(col))), seed))
            for ref_name, ref in (("relevance", "relevance"), ("default", DEFAULT_POLICY_ROW)):
                if ref in units and ref != label:
                    row[f"k{k}_vs_{ref_name}"] = paired_delta("rag", f"k={k}", units[ref], units[label], seed=seed)
        rows.append(row)
    return {"protocol": "rerank-grid", "n_instances": len(instances), "n_topics": len(set(topics)),
            "ci_unit": "topic" if ci_by_topic else "instance", "rows": rows}


class PointwiseRelevanceMemo:
    """Wraps a pointwise :data:`DocScorer` (dense): each (question, document) is scored once.

    Not for BM25, whose IDF depends on the instance's other documents.
    """

    def __init__(self, scorer: DocScorer) -> None:
        self.scorer = scorer
        self._memo: dict[tuple[str, str], float] = {}

    def __call__(self, instance: RagInstance) -> list[float]:
        """Scores of the instance's documents, computing only unseen (question, document) pairs."""
        missing = tuple(d for d in instance.documents if (instance.question, d.key) not in self._memo)
        if missing:
            values = self.scorer(dataclasses.replace(instance, documents=missing))
            for doc, value in zip(missing, values, strict=True):
                self._memo[(instance.question, doc.key)] = value
        return [self._memo[(instance.question, d.key)] for d in instance.documents]
