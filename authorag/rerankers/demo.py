"""The bundled demo: one TREC HM 2019 health question, 10 real pages of mixed credibility.

Shows three orders with the per-signal breakdown and the NIST credibility label of each page:
relevance only (authority weight 0), the configured fusion, and the paper's authority filter
(keep the top 5 by authority, then order them by the fused score).
"""
from __future__ import annotations

import json
from importlib import resources
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from authorag.rerankers.authority import AuthorityReranker
from authorag.types import Candidate, Ranking

EXAMPLE = "trec_hm2019_topic6.jsonl"
FILTER_K = 5


def load_example(name: str = EXAMPLE) -> tuple[dict[str, Any], list[Candidate]]:
    """The example's header (query, gold answer) and its candidates (labels in metadata)."""
    text = resources.files("authorag.data").joinpath("examples").joinpath(name).read_text(encoding="utf-8")
    lines = [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    header = lines[0]["_example"]
    cands = [Candidate.create(r["url"], r["text"], id=r["id"],
                              metadata={"nist_credibility": r["nist_credibility"], "stance": r["stance"]})
             for r in lines[1:]]
    return header, cands


def _table(title: str, ranking: Ranking) -> Table:
    t = Table(title=title)
    for col in ("#", "domain", "NIST cred.", "stance", "relevance", "authority", "tier", "fused"):
        t.add_column(col)
    for i, c in enumerate(ranking.candidates, start=1):
        auth = c.authority
        t.add_row(str(i), c.domain or c.url, "credible" if c.metadata["nist_credibility"] else "not credible",
                  str(c.metadata["stance"]), f"{c.scores['relevance.norm']:.2f}",
                  "unknown" if auth is None or auth.authority is None else f"{auth.authority:.2f}",
                  "-" if auth is None else auth.tier, f"{c.scores['fused']:.3f}")
    return t


def _summary(ranking: Ranking, gold: str, k: int = 3) -> str:
    top = ranking.candidates[:k]
    credible = sum(int(c.metadata["nist_credibility"]) for c in top)
    agree = sum(c.metadata["stance"] == gold for c in top)
    return f"top {k}: {credible}/{k} credible, {agree}/{k} agree with the correct answer ({gold})"


def run_demo(reranker: AuthorityReranker, out: IO[str]) -> int:
    """Print before/after tables for the bundled example; returns 0."""
    header, cands = load_example()
    before = reranker.rerank(header["query"], cands, fusion="linear", weight=0.0, mode="rerank", top_k=None)
    after = reranker.rerank(header["query"], cands)
    filtered = reranker.rerank(header["query"], cands, mode="filter", top_k=FILTER_K)
    console = Console(file=out, width=120)
    console.print(f"[bold]query:[/bold] {header['query']}  (correct answer: {header['gold_answer']})")
    console.print(f"scorer: {reranker.scorer.name}; relevance: "
                  f"{'upstream' if reranker.relevance is None else reranker.relevance.name}; "
                  f"policy: {reranker.policy.to_dict()}")
    p = reranker.policy
    console.print(_table("before: relevance only", before))
    console.print(_table(f"after: {p.fusion} fusion, authority weight {p.weight}", after))
    console.print(_table(f"after: authority filter (top {FILTER_K} by authority, then fused order)", filtered))
    console.print("relevance only     " + _summary(before, header["gold_answer"]))
    console.print("fusion             " + _summary(after, header["gold_answer"]))
    console.print("authority filter   " + _summary(filtered, header["gold_answer"]))
    return 0
