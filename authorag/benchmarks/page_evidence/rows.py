"""Rows of the page-evidence ablation: AUCs, topic-clustered bootstrap CIs and the RAG rows.

The held-out evaluation (:mod:`authorag.benchmarks.page_evidence.collections`) reads its AUCs
and bootstrap CIs from here.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.benchmarks.rag.protocol import TOP_KS, keep_top
from authorag.benchmarks.rag.tasks import load_rag_task
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate

N_BOOT = 1000
_BLEND = 0.5
"""The reranker's default credibility weight: signal = (1 − w)·authority + w·credibility."""


def auc(scores: NDArray[np.float64], labels: NDArray[Any]) -> float | None:
    """Probability that a credible page scores above a non-credible one (ties ½); None without both."""
    pos, neg = scores[labels == 1], scores[labels == 0]
    if len(pos) == 0 or len(neg) == 0:
        return None
    gt = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(gt / (len(pos) * len(neg)))


def within_topic_auc(scores: NDArray[np.float64], labels: NDArray[Any], topics: NDArray[Any]) -> float | None:
    """AUC over credible/non-credible pairs of the same topic only."""
    credit = pairs = 0.0
    for t in np.unique(topics):
        s, y = scores[topics == t], labels[topics == t]
        pos, neg = s[y == 1], s[y == 0]
        credit += float((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum())
        pairs += len(pos) * len(neg)
    return credit / pairs if pairs else None


def topic_bootstrap(stat: Callable[[NDArray[np.intp]], float | None], topics: NDArray[Any], seed: int = 0,
                    n_boot: int = N_BOOT) -> list[float]:
    """Percentile 95 % CI of ``stat(row indices)`` over resampled topics."""
    rng = np.random.default_rng(seed)
    groups = [np.flatnonzero(topics == t) for t in np.unique(topics)]
    values: list[float] = []
    for _ in range(2 * n_boot):
        pick = rng.integers(0, len(groups), len(groups))
        v = stat(np.concatenate([groups[i] for i in pick]))
        if v is not None:
            values.append(v)
        if len(values) == n_boot:
            break
    return [round(float(np.percentile(values, 2.5)), 4), round(float(np.percentile(values, 97.5)), 4)]


def cell(value: float | None, ci: list[float] | None) -> dict[str, Any]:
    return {"value": None if value is None else round(value, 4), "ci": ci}


def default_details(candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
    """The default composition's details without its page tier (what the page tier starts from)."""
    from authorag.compose import ScorerSettings, load_scorer

    return load_scorer(ScorerSettings(page_evidence=False)).score(list(candidates))


def blend_signal(detail: AuthorityDetail) -> float:
    """What the authority filter ranks by under the reranker's default blend (unknown at 0.3)."""
    base = UNKNOWN_LEVEL if detail.authority is None else detail.authority
    return base if detail.credibility is None else (1 - _BLEND) * base + _BLEND * detail.credibility


def rag_rows(variants: dict[str, Callable[[list[Candidate], list[AuthorityDetail]], list[float]]],
             seed: int = 0) -> dict[str, Any]:
    """Authority-filter accuracy per variant (k = 1, 3, 5) and paired Δ against ``default``."""
    task = load_rag_task("ragauth-trec2019-resampled")
    docs = {d.key: d for inst in task.instances for d in inst.documents}
    cands = {k: Candidate.create(d.url, d.text, id=k) for k, d in docs.items()}
    base = dict(zip(cands, default_details(list(cands.values()))))
    topics = np.array([inst.topic_id for inst in task.instances])
    acc: dict[str, dict[int, NDArray[np.float64]]] = {}
    from authorag.benchmarks.metrics import stance_majority_score

    for name, signal in variants.items():
        keys = list(cands)
        value = dict(zip(keys, signal([cands[k] for k in keys], [base[k] for k in keys])))
        acc[name] = {k: np.array([stance_majority_score(
            [int(inst.documents[i].meta["stance"]) for i in keep_top([value[d.key] for d in inst.documents], k)],
            inst.gold) for inst in task.instances]) for k in TOP_KS}
    rows: dict[str, Any] = {}
    for name, per_k in acc.items():
        rows[name] = {}
        for k, v in per_k.items():
            ref = acc["default"][k]
            rows[name][f"k={k}"] = {
                "accuracy": cell(float(v.mean()), topic_bootstrap(lambda idx, v=v: float(v[idx].mean()), topics, seed)),
                "delta_vs_default": cell(float(v.mean() - ref.mean()), topic_bootstrap(
                    lambda idx, v=v, ref=ref: float(v[idx].mean() - ref[idx].mean()), topics, seed)),
            }
    return {"instances": len(task.instances), "topics": int(len(np.unique(topics))), "rows": rows}


__all__ = ["N_BOOT", "auc", "blend_signal", "cell", "default_details", "rag_rows", "topic_bootstrap", "within_topic_auc"]
