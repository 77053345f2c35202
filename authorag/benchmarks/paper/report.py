"""The suite report: our runs laid out like AuthorityBench's tables, the paper's numbers beside.

Published numbers come from ``authoritybench_published.csv.gz`` (the paper's tables 1-6, see
data/provenance/authoritybench_published.md). They are the paper's facts on the paper's data; our
rows are the same protocol on open stand-in data, so they are a reference, not a target. Our
values are shown in percent like the paper's, with the bootstrap 95 % CI beside ρ.

Example:
    >>> published("1", "Qwen3-32B", "w/o text", "point", "spearman")
    73.72
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from authorag.benchmarks.paper.suite import FORMS, RAG_TASK
from authorag.benchmarks.rag.protocol import TOP_KS
from authorag.benchmarks.runner import load_results
from authorag.benchmarks.tasks import read_rows

PAPER = "AuthorityBench (arXiv 2603.25092)"
_FORM_ORDER = tuple(FORMS)
_FORM_TITLE = {"point": "Point", "list-rank": "ListRank", "list-score": "ListScore", "pair-rank": "PairRank",
               "pair-score": "PairScore"}


@cache
def _published() -> dict[tuple[str, str, str, str, str], float]:
    return {(r["table"], r["model"], r["setting"], r["form"], r["metric"]): float(r["value"])
            for r in read_rows("authorag.benchmarks.data", "authoritybench_published.csv.gz")}


def published(table: str, model: str, setting: str, form: str, metric: str) -> float | None:
    """One published value (percent), or None where the paper has none."""
    return _published().get((table, model, setting, form, metric))


def _models(table: str) -> list[str]:
    seen: dict[str, None] = {}
    for t, model, *_ in _published():
        if t == table:
            seen.setdefault(model, None)
    return list(seen)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def _pct_ci(value: float | None, ci: Sequence[float] | None) -> str:
    if value is None:
        return "—"
    return f"{100 * value:.1f} [{100 * ci[0]:.0f}, {100 * ci[1]:.0f}]" if ci else _pct(value)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|",
            *("| " + " | ".join(r) + " |" for r in rows)]


Runs = Mapping[tuple[str, str], Mapping[str, Any]]


def _index(runs: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], Mapping[str, Any]]:
    by_method = {m: f for f, m in FORMS.items()}
    out: dict[tuple[str, str], Mapping[str, Any]] = {}
    for r in runs:
        form = by_method.get(str(r["config"]["method"]))
        if form is not None:
            out[(str(r["config"]["task"]), form)] = r
    return out


def _le_cells(run: Mapping[str, Any] | None) -> list[str]:
    if run is None:
        return ["—", "—"]
    le = run["metrics"]["le"]
    return [_pct_ci(le["spearman"], le["spearman_ci"]), _pct(le["kendall"])]


def _le_table(runs: Runs, task: str, table: str, setting: str, ours: str, extra_rows: Sequence[list[str]] = ()) -> list[str]:
    header = ["model", *(f"{_FORM_TITLE[f]} {m}" for f in _FORM_ORDER for m in ("ρ", "τ"))]
    rows = [[ours, *(c for f in _FORM_ORDER for c in _le_cells(runs.get((task, f))))], *extra_rows]
    for model in _models(table):
        cells = [published(table, model, setting, f, m) for f in _FORM_ORDER for m in ("spearman", "kendall")]
        rows.append([f"paper: {model}", *("—" if v is None else f"{v:.2f}" for v in cells)])
    return _table(header, rows)


def _sample(runs: Runs, task: str) -> str:
    parts = [f"{_FORM_TITLE[f]} {r['metrics']['le']['n_lists']} lists" for f in _FORM_ORDER
             if (r := runs.get((task, f))) is not None]
    pairs = next((r["metrics"]["pe"]["easy"]["n_pairs"] for f in _FORM_ORDER if (r := runs.get((task, f)))), None)
    return (", ".join(parts) + (f"; {pairs}+{pairs} PE pairs" if pairs else "")) or "not run"


def domain_sections(runs: Runs, ours: str) -> list[str]:
    """Tables 1-3: DomainAuth fine / coarse LE, then PE easy/hard accuracy."""
    out: list[str] = []
    no_text = ["ours, w/ text", *(["n/a"] * 10)]
    for table, task, title in (("1", "domainauth-web-fine", "fine (10 levels)"),
                               ("2", "domainauth-web-coarse", "coarse (5 levels)")):
        out += [f"### Table {table}: DomainAuth {title}, LE (ours: {task}; {_sample(runs, task)})", "",
                *_le_table(runs, task, table, "w/o text", f"ours: {ours}, w/o text", [no_text]), "",
                "Paper rows: w/o text (domain only). The open DomainAuth data has no page text, so the "
                "paper's w/ text rows have no counterpart here; its w/ text numbers are in the published file.", ""]
    header = ["model", "pairs", "PairRank w/o", "PairScore w/o", "Point w/o"]
    rows: list[list[str]] = []
    for pairs in ("easy", "hard"):
        cells = []
        for form in ("pair-rank", "pair-score", "point"):
            r = runs.get(("domainauth-web-fine", form))
            cells.append("—" if r is None else _pct(r["metrics"]["pe"][pairs]["accuracy"]))
        rows.append([f"ours: {ours}", pairs, *cells])
    for model in _models("3"):
        for pairs in ("easy", "hard"):
            vals = [published("3", model, "w/o text", f, f"pe_{pairs}") for f in ("pair-rank", "pair-score", "point")]
            rows.append([f"paper: {model}", pairs, *("—" if v is None else f"{v:.2f}" for v in vals)])
    out += ["### Table 3: DomainAuth pairwise accuracy (PE), easy vs hard pairs (ours: domainauth-web-fine)", "",
            *_table(header, rows), ""]
    return out


def entity_sections(runs: Runs, ours: str) -> list[str]:
    """Tables 4 and 6: EntityAuth fine / coarse per domain, LE, without text."""
    out: list[str] = []
    for table, grain in (("4", "fine"), ("6", "coarse")):
        out += [f"### Table {table}: EntityAuth {grain}, LE, w/o text", ""]
        for domain in ("basketball", "movies", "songs"):
            task = f"entityauth-{domain}-{grain}"
            out += [f"**{domain}** ({_sample(runs, task)})", "",
                    *_le_table(runs, task, table, domain, f"ours: {ours}"), ""]
    return out


def rag_section(runs: Sequence[Mapping[str, Any]], ours: str) -> list[str]:
    """Table 5: RAGAuth answer accuracy per filter and k; generator and generator-free rows."""
    run = next((r for r in runs if r["config"]["task"] == RAG_TASK and r["metrics"].get("generator")), None)
    header = ["model", "k", "no filter (all documents)", "relevance", "utility", "authority (URL only)"]
    rows: list[list[str]] = []
    if run is not None:
        m = run["metrics"]
        for kind, label in (("generator", f"ours: {ours}, generator"), ("generator_free", "ours: stance proxy (no model)")):
            for k in TOP_KS:
                rows.append([label, str(k), *(_pct_ci(m[kind][f][str(k)], m[f"{kind}_ci"][f].get(str(k)))
                                              for f in ("none", "relevance", "utility", "authority"))])
    for model in _models("5"):
        for k in TOP_KS:
            vals = [published("5", model, f"k={k}", f, "accuracy") for f in ("none", "relevance", "utility", "authority")]
            rows.append([f"paper: {model}", str(k), *("—" if v is None else f"{v:.2f}" for v in vals)])
    n = "not run" if run is None else f"{run['metrics']['n_instances']} of 33 instances"
    return [f"### Table 5: RAGAuth answer accuracy (ours: {RAG_TASK}, {n})", "", *_table(header, rows), "",
            "Filters: one ListJudge-PointScore call each (authority: URL list only; relevance and utility: "
            "URL + text); the generator answers yes/no from the kept documents. The stance proxy scores the "
            "kept documents' majority stance without a model.", ""]


def cost_lines(runs: Sequence[Mapping[str, Any]], est: Mapping[str, Any] | None) -> list[str]:
    """Measured calls, tokens and wall time per condition, and the up-front estimate's total."""
    rows = [[str(r["run_id"]), str(r["cost"]["calls"]), str(r["cost"]["cache_hits"]),
             f"{r['cost']['prompt_tokens']:,} + {r['cost']['completion_tokens']:,}", str(r["parse_failures"]),
             f"{r['wall_time_s'] / 60:.1f}"] for r in runs]
    out = ["### Cost (measured)", "", *_table(["run", "calls", "cache hits", "tokens (prompt + completion)",
                                               "parse failures", "minutes"], rows), ""]
    if est:
        t = est["total"]
        out += [f"Up-front estimate for the whole plan: {t['calls']:,} calls, {t['prompt_tokens']:,} prompt + "
                f"{t['completion_tokens']:,} completion tokens, {t['hours']} h at {est['prompt_tps']} prompt and "
                f"{est['gen_tps']} generated tokens/s (sequential).", ""]
    return out


def write_paper_report(results_dir: Path, out: Path | None = None) -> Path:
    """Render ``paper_report.md`` from the suite's results folder; returns its path."""
    import json

    runs = load_results(results_dir)
    plan_path = results_dir / "suite.json"
    plan = json.loads(plan_path.read_text()) if plan_path.exists() else {}
    first = runs[0] if runs else None
    ours = "—" if first is None else (f"{first['backend']['name']}:{first['backend']['model'] or 'default'} "
                                      f"({first['config'].get('protocol', 'authorag')} protocol)")
    index = _index(runs)
    lines = [f"# AuthorityBench suite (paper layout): {ours}", "",
             f"Generated by `authorag bench suite paper --report-only --out {results_dir}`; do not edit by hand. "
             f"Rows marked *paper* are the published numbers of {PAPER} (facts from its tables, on the paper's own "
             "data); rows marked *ours* are this run on open stand-in data. Ours: percent, ρ with its bootstrap "
             "95 % CI.", "",
             *domain_sections(index, ours), *entity_sections(index, ours), *rag_section(runs, ours),
             *cost_lines(runs, plan.get("estimate"))]
    path = (results_dir if out is None else out) / "paper_report.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


__all__ = ["domain_sections", "entity_sections", "published", "rag_section", "write_paper_report"]
