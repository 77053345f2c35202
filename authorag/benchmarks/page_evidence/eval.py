"""The page-evidence ablation: per-layer credibility AUC and RAG rows, leave-topic-out, with CIs.

Every number comes from models that never saw the scored page's topic (nor its domain's other
topics): :class:`~authorag.benchmarks.page_evidence.crossfit.CrossFitPageEvidence`. Rows:

* **credibility** on the TREC HM 2019 pages whose domain the default composition does not know
  (238 of 276): pooled AUC of the calibrated estimate (topic-clustered bootstrap CI, paired Δ
  against the full tier), within-topic AUC (pairs inside one topic only: immune to the shift
  of a fold's base rate that makes a constant score 0.5 → below 0.5 when pooled), the share of
  pages whose value is not the unknown constant, Brier score and expected calibration error;
* **calibration**: the full tier's out-of-fold probabilities in five bins, observed rate per bin;
* **RAG**: ``ragauth-trec2019-resampled`` (550 draws, 22 topics), the authority filter's
  generator-free accuracy at k = 1, 3, 5 with the reranker's blend signal, against the default
  composition without the tier (paired Δ, topics resampled);
* **pool** (``pool=True``, needs ``authorag[embeddings]``): the corroboration experiment, each
  page's MiniLM similarity to the trust-weighted rest of its pool added to its logit.

Run: ``python -m authorag.benchmarks.page_evidence.eval --out DIR`` (see
``benchmarks/results/page_evidence/reproduce.sh``).
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from authorag.benchmarks.page_evidence.crossfit import CrossFitPageEvidence, FoldModels, LabelledPages, labelled_pages
from authorag.benchmarks.page_evidence.pool import pool_rows
from authorag.benchmarks.page_evidence.rows import (
    auc,
    blend_signal,
    cell,
    default_details,
    rag_rows,
    topic_bootstrap,
    within_topic_auc,
)
from authorag.evidence.features import LAYERS, EvidenceLayer
from authorag.evidence.train import FitConfig
from authorag.types import UNKNOWN_LEVEL, AuthorityDetail, Candidate

ABLATIONS: dict[str, tuple[EvidenceLayer, ...]] = {
    "url": ("url",), "type": ("type",), "text": ("text",), "url+type": ("url", "type"),
    "url+text": ("url", "text"), "all": LAYERS,
}
"""Ablation row -> layers its models are fitted (and scored) with."""
def credibility_rows(pages: LabelledPages, seed: int = 0) -> tuple[dict[str, Any], dict[str, NDArray[np.float64]]]:
    """The credibility rows (one per :data:`ABLATIONS` entry plus the constant) and each row's scores."""
    unknown = np.array([d.tier == "unknown" for d in default_details(pages.candidates)])
    y, topics = pages.labels[unknown], pages.topics[unknown]
    cands = [c for c, u in zip(pages.candidates, unknown) if u]
    scores: dict[str, NDArray[np.float64]] = {"constant": np.full(len(cands), UNKNOWN_LEVEL)}
    for name, layers in ABLATIONS.items():
        tier = CrossFitPageEvidence(FoldModels(pages, FitConfig(layers=layers)))
        scores[name] = np.array([UNKNOWN_LEVEL if e.credibility is None else e.credibility
                                 for e in tier.estimate(cands)])
    rows: dict[str, Any] = {}
    full = scores["all"]
    for name, s in scores.items():
        def delta(idx: NDArray[np.intp], s: NDArray[np.float64] = s) -> float | None:
            a, b = auc(s[idx], y[idx]), auc(full[idx], y[idx])
            return None if a is None or b is None else a - b
        rows[name] = {
            "auc": cell(auc(s, y), topic_bootstrap(lambda idx, s=s: auc(s[idx], y[idx]), topics, seed)),
            "delta_vs_all": cell((auc(s, y) or 0.0) - (auc(full, y) or 0.0),
                                  None if name == "all" else topic_bootstrap(delta, topics, seed)),
            "within_topic_auc": cell(within_topic_auc(s, y, topics), topic_bootstrap(
                lambda idx, s=s: within_topic_auc(s[idx], y[idx], topics[idx]), topics, seed)),
            "non_constant": round(float(np.mean(np.abs(s - UNKNOWN_LEVEL) > 1e-9)), 4),
            "brier": None if name == "constant" else round(float(np.mean((s - y) ** 2)), 4),
            "ece": None if name == "constant" else round(expected_calibration_error(s, y), 4),
        }
    meta = {"pages": int(len(y)), "credible": int(y.sum()), "topics": int(len(np.unique(topics)))}
    return {"meta": meta, "rows": rows, "calibration": calibration_bins(full, y)}, scores


def expected_calibration_error(p: NDArray[np.float64], y: NDArray[Any], bins: int = 5) -> float:
    """Mean |observed rate − mean probability| over equal-width bins, weighted by pages."""
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    return float(sum(abs(y[which == b].mean() - p[which == b].mean()) * (which == b).sum()
                     for b in range(bins) if (which == b).any()) / len(p))


def calibration_bins(p: NDArray[np.float64], y: NDArray[Any], bins: int = 5) -> list[dict[str, Any]]:
    """Per equal-width probability bin: pages, mean probability, observed credible rate, trust range."""
    from authorag.evidence.model import load_page_model, page_trust

    base = load_page_model().base_rate
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    out: list[dict[str, Any]] = []
    for b in range(bins):
        sel = which == b
        if sel.any():
            out.append({"bin": f"{edges[b]:.1f}-{edges[b + 1]:.1f}", "pages": int(sel.sum()),
                        "mean_p": round(float(p[sel].mean()), 3), "observed": round(float(y[sel].mean()), 3),
                        "trust": [round(page_trust(float(p[sel].min()), base), 3),
                                  round(page_trust(float(p[sel].max()), base), 3)]})
    return out


def page_variant(layers: tuple[EvidenceLayer, ...]) -> Callable[[list[Candidate], list[AuthorityDetail]], list[float]]:
    """The default composition with a cross-fitted page tier of ``layers``, as a signal function."""
    tier = CrossFitPageEvidence(FoldModels(labelled_pages(), FitConfig(layers=layers)))
    return lambda cands, base: [blend_signal(d) for d in tier.fill(cands, base)]


def run(out_dir: Path, seed: int = 0, pool: bool = False) -> dict[str, Any]:
    """Write ``ablation.json`` (and return it)."""
    pages = labelled_pages()
    cred, _ = credibility_rows(pages, seed)
    variants: dict[str, Callable[[list[Candidate], list[AuthorityDetail]], list[float]]] = {
        "default": lambda cands, base: [blend_signal(d) for d in base]}
    variants.update({f"default+page[{name}]": page_variant(layers) for name, layers in ABLATIONS.items()})
    record: dict[str, Any] = {"version": 1, "seed": seed, "data_sha256": pages.sha256, "credibility": cred,
                              "rag": rag_rows(variants, seed)}
    if pool:
        record["pool"] = pool_rows(pages, seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "ablation.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    from authorag.benchmarks.page_evidence.report import render

    (out_dir / "ablation.md").write_text(render(record))
    return record


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m authorag.benchmarks.page_evidence.eval --out DIR [--pool]``."""
    p = argparse.ArgumentParser(description="page-evidence ablation (leave-topic-out, TREC HM 2019)")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--pool", action="store_true", help="also run the corroboration experiment (MiniLM)")
    args = p.parse_args(argv)
    run(args.out, args.seed, args.pool)
    print(f"wrote {args.out / 'ablation.json'} and ablation.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["ABLATIONS", "calibration_bins", "credibility_rows", "expected_calibration_error", "page_variant", "run"]
