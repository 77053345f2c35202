"""Corroboration inside the pool, measured (not shipped): does agreeing with trusted pages help?

The idea (golden-gaze, Zhang et al. SIGIR 2022; TrustRAG's content-consistency filter, 2025): a
page no table knows that agrees with the pool's trusted pages is more credible than one that
contradicts them. Here agreement is content similarity (MiniLM, offline, the first 2,000
characters the text layer reads), each other page of the pool weighted by its own trust
evidence (table pages: the blend signal − 0.3; unknown pages: their cross-fitted page trust −
0.3), relative to the pool's mean similarity:

    c_i = Σ_j w_j · (cos(i, j) − mean_k cos(i, k)) / Σ_j |w_j|

and added to the page's logit as ``β · c_i`` for a few fixed β (no β is chosen on these data).
Two numbers bound what a stance layer could add: how well similarity separates same-stance
from opposite-stance pairs of a topic, and an oracle that adds NIST's own stance agreement with
the correct answer.

Needs ``authorag[embeddings]``; about a minute of encoding on two cores.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.benchmarks.page_evidence.crossfit import CrossFitPageEvidence, FoldModels, LabelledPages
from authorag.benchmarks.page_evidence.rows import (
    cell,
    auc,
    blend_signal,
    default_details,
    rag_rows,
    topic_bootstrap,
)
from authorag.evidence.model import page_trust
from authorag.text_window import read_window
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate

BETAS = (1.0, 3.0, 10.0)
EMBED_CHARS = 2000


def _embed(texts: Sequence[str]) -> NDArray[np.float64]:
    from authorag.relevance.dense import DenseEncoder

    e = np.asarray(DenseEncoder().encode([read_window(t)[:EMBED_CHARS] for t in texts]), dtype=np.float64)
    return e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)


def corroboration(emb: NDArray[np.float64], weights: NDArray[np.float64]) -> NDArray[np.float64]:
    """``c_i`` of every page of one pool (0 where the others carry no trust evidence)."""
    sims = emb @ emb.T
    n = len(weights)
    out = np.zeros(n)
    for i in range(n):
        others = np.arange(n) != i
        w = weights[others]
        if n < 2 or np.abs(w).sum() == 0:
            continue
        rel = sims[i, others] - sims[i, others].mean()
        out[i] = float((w * rel).sum() / np.abs(w).sum())
    return out


def pool_rows(pages: LabelledPages, seed: int = 0) -> dict[str, Any]:
    """The corroboration experiment's credibility and RAG rows."""
    emb = _embed([c.text for c in pages.candidates])
    base = default_details(pages.candidates)
    tier = CrossFitPageEvidence(FoldModels(pages))
    est = tier.estimate(list(pages.candidates))
    unknown = np.array([d.tier == "unknown" for d in base])
    logit = np.array([e.logit for e in est])
    trust = np.array([blend_signal(d) if not u else e.trust for d, e, u in zip(base, est, unknown)])
    weights = trust - UNKNOWN_LEVEL
    corr = np.zeros(len(est))
    for t in np.unique(pages.topics):
        idx = np.flatnonzero(pages.topics == t)
        corr[idx] = corroboration(emb[idx], weights[idx])
    y, topics = pages.labels[unknown], pages.topics[unknown]
    page_only = logit[unknown]
    rows: dict[str, Any] = {"page tier": {"auc": cell(auc(page_only, y), topic_bootstrap(
        lambda i: auc(page_only[i], y[i]), topics, seed))}}
    rows["corroboration alone"] = {"auc": cell(auc(corr[unknown], y), topic_bootstrap(
        lambda i: auc(corr[unknown][i], y[i]), topics, seed))}
    for beta in BETAS:
        s = page_only + beta * corr[unknown]
        rows[f"page tier + {beta:g}·c"] = {
            "auc": cell(auc(s, y), topic_bootstrap(lambda i, s=s: auc(s[i], y[i]), topics, seed)),
            "delta": cell((auc(s, y) or 0) - (auc(page_only, y) or 0), topic_bootstrap(
                lambda i, s=s: (auc(s[i], y[i]) or 0) - (auc(page_only[i], y[i]) or 0), topics, seed))}
    answered = unknown & (pages.answer >= 0)
    agree = (pages.stance == pages.answer).astype(np.float64)
    ya, la = pages.labels[answered], logit[answered]
    rows["oracle: + NIST stance agrees with the answer"] = {
        "auc": cell(auc(la + agree[answered], ya), None),
        "delta": cell((auc(la + agree[answered], ya) or 0) - (auc(la, ya) or 0), None)}
    record: dict[str, Any] = {"note": _stance_note(emb, pages), "credibility": rows}
    record["rag"] = rag_rows(_rag_variants(pages, emb, tier), seed)
    return record


def _stance_note(emb: NDArray[np.float64], pages: LabelledPages) -> str:
    same: list[float] = []
    diff: list[float] = []
    for t in np.unique(pages.topics):
        idx = np.flatnonzero(pages.topics == t)
        sims = emb[idx] @ emb[idx].T
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                (same if pages.stance[idx[a]] == pages.stance[idx[b]] else diff).append(float(sims[a, b]))
    s, d = np.array(same), np.array(diff)
    sep = float((s[:, None] > d[None, :]).mean())
    return (f"MiniLM similarity puts a same-stance pair above an opposite-stance pair of the same topic "
            f"{sep:.3f} of the time ({len(s)} vs {len(d)} pairs; 0.5 = no stance signal).")


def _rag_variants(pages: LabelledPages, emb: NDArray[np.float64], tier: CrossFitPageEvidence) -> dict[str, Any]:
    row_of = {c.id: i for i, c in enumerate(pages.candidates)}

    def with_pool(beta: float) -> Any:
        def signal(cands: list[Candidate], base: list[AuthorityDetail]) -> list[float]:
            filled = tier.fill(cands, base)
            return [blend_signal(d) for d in filled] if beta == 0 else _pooled(cands, base, filled, beta)
        return signal

    def _pooled(cands: list[Candidate], base: list[AuthorityDetail], filled: list[AuthorityDetail],
                beta: float) -> list[float]:
        # the signal is per document, but corroboration is per pool: score each topic's documents as one pool
        est = {c.id: e for c, e in zip(cands, tier.estimate(cands))}
        out: list[float] = []
        idx = np.array([row_of[c.id] for c in cands])
        trust = np.array([blend_signal(d) for d in filled]) - UNKNOWN_LEVEL
        corr = np.zeros(len(cands))
        for t in np.unique(pages.topics[idx]):
            sel = np.flatnonzero(pages.topics[idx] == t)
            corr[sel] = corroboration(emb[idx[sel]], trust[sel])
        for i, (c, b, d) in enumerate(zip(cands, base, filled)):
            e = est[c.id]
            if d.tier != "page" or e.credibility is None:
                out.append(blend_signal(d))
                continue
            p = float(tier.model.calibrated(np.array([e.logit + beta * corr[i]]))[0])
            out.append(blend_signal(AuthorityDetail(b.authority, d.confidence, "page", credibility=page_trust(
                p, tier.model.base_rate))))
        return out

    def plain(cands: list[Candidate], base: list[AuthorityDetail]) -> list[float]:
        return [blend_signal(d) for d in base]

    variants: dict[str, Any] = {"default": plain, "default+page": with_pool(0.0)}
    variants.update({f"default+page+pool(β={b:g})": with_pool(b) for b in BETAS})
    return variants


__all__ = ["BETAS", "corroboration", "pool_rows"]
