"""Render results folders into Markdown tables (the paper's layout) and PNG plots.

Tables: LE (methods × ρ/τ per task), PE (methods × easy/hard accuracy), RAG (filter × top-k,
generator-free and generator), and the prior sources active in each leave-source-out run with
their coverage. Plots: ρ per method with 95 % CI bars (per task), accuracy vs k per filter
(per RAG run), confusion of predicted vs true level (per task).

Example:
    authorag bench report --results benchmarks/results/runs --out benchmarks/results
"""
from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from authorag._optional import require
from authorag.benchmarks.rag.protocol import FILTERS, TOP_KS
from authorag.benchmarks.runner import load_results

log = logging.getLogger(__name__)
_METHOD_ORDER = ("oracle", "random", "prior", "prior-cred", "learned", "hybrid", "chatgpt-yang2023")


def _method_key(run: Mapping[str, Any]) -> tuple[int, str]:
    name = str(run["config"]["method"])
    label = _label(run)
    return (_METHOD_ORDER.index(name) if name in _METHOD_ORDER else len(_METHOD_ORDER), label)


def _label(run: Mapping[str, Any]) -> str:
    cfg = run["config"]
    tag = f" [{cfg['tag']}]" if cfg.get("tag") else ""
    return f"{cfg['method']}{tag}"


def _fmt(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _by_task(runs: Sequence[Mapping[str, Any]], protocol: str) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = {}
    for r in runs:
        if r["metrics"].get("protocol") == protocol:
            out.setdefault(str(r["config"]["task"]), []).append(r)
    for task_runs in out.values():
        task_runs.sort(key=_method_key)
    return out


def _sample_note(r: Mapping[str, Any]) -> str:
    m = r["metrics"]
    return f"{m['le']['n_lists']} lists, {m['pe']['easy']['n_pairs']}+{m['pe']['hard']['n_pairs']} pairs, seed {r['seed']}"


def le_pe_section(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """One table per task: method, ρ [CI], τ [CI], PE easy, PE hard, coverage, sample."""
    lines: list[str] = []
    for task, task_runs in sorted(_by_task(runs, "le+pe").items()):
        m0 = task_runs[0]["metrics"]
        lines += ["", f"### {task}", "",
                  f"{m0['n_items']} items, {m0['n_levels']} levels, label source: {m0['label_source'] or '—'}", ""]
        rows: list[list[str]] = []
        for r in task_runs:
            le, pe = r["metrics"]["le"], r["metrics"]["pe"]
            rows.append([_label(r), _fmt(le["spearman"]), f"[{_fmt(le['spearman_ci'][0])}, {_fmt(le['spearman_ci'][1])}]",
                         _fmt(le["kendall"]), f"[{_fmt(le['kendall_ci'][0])}, {_fmt(le['kendall_ci'][1])}]",
                         _fmt(pe["easy"]["accuracy"]), _fmt(pe["hard"]["accuracy"]), _fmt(le["coverage"], 2),
                         _sample_note(r)])
        lines += _table(["method", "ρ", "ρ 95% CI", "τ", "τ 95% CI", "PE easy", "PE hard", "coverage", "sample"], rows)
    return lines


def summary_section(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Headline: methods × tasks, cells ``ρ / τ``."""
    grouped = _by_task(runs, "le+pe")
    tasks = sorted(grouped)
    methods = sorted({_label(r) for rs in grouped.values() for r in rs},
                     key=lambda lbl: (_METHOD_ORDER.index(lbl.split(" ")[0]) if lbl.split(" ")[0] in _METHOD_ORDER
                                      else len(_METHOD_ORDER), lbl))
    rows: list[list[str]] = []
    for method in methods:
        row = [method]
        for task in tasks:
            hit = next((r for r in grouped[task] if _label(r) == method), None)
            le = None if hit is None else hit["metrics"]["le"]
            row.append("" if le is None else f"{_fmt(le['spearman'], 2)} / {_fmt(le['kendall'], 2)}")
        rows.append(row)
    return _table(["method (ρ / τ)", *tasks], rows)


def rag_section(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Per RAG run: filter × k, generator-free (and generator when measured)."""
    lines: list[str] = []
    for task, task_runs in sorted(_by_task(runs, "rag").items()):
        for r in task_runs:
            m = r["metrics"]
            note = (f"{m['n_instances']} instances; relevance = {m['relevance_scorer']}; utility = "
                    f"{m['utility_scorer']}; authority coverage {_fmt(m['authority_coverage'], 2)}; "
                    f"all documents kept: {_fmt(m['all_documents'])}")
            lines += ["", f"### {task} — authority = {_label(r)}", "", note, ""]
            for kind in ("generator_free", "generator", "generator_mean_p_yes"):
                if kind not in m:
                    continue
                ci = m.get(f"{kind}_ci", {})
                rows = [[f, *(_fmt(m[kind][f][str(k)]) + _ci_text(ci, f, k) for k in TOP_KS)] for f in FILTERS]
                title = "generator mean P(yes)" if kind == "generator_mean_p_yes" else f"{kind.replace('_', '-')} accuracy"
                lines += [f"*{title}*", ""]
                lines += _table(["filter", *(f"k={k}" for k in TOP_KS)], rows) + [""]
    return lines


def rag_summary_section(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """One table per RAG task: baseline filters once, then the authority filter of every run."""
    lines: list[str] = []
    for task, task_runs in sorted(_by_task(runs, "rag").items()):
        for kind in ("generator_free", "generator"):
            with_kind = [r for r in task_runs if kind in r["metrics"]]
            if not with_kind:
                continue
            rows: list[list[str]] = []
            seen: set[tuple[str, int]] = set()
            for r in with_kind:  # baseline filters once per distinct scorer and sample
                m = r["metrics"]
                for f in ("none", "relevance", "utility"):
                    label = "none (all documents)" if f == "none" else f"{f} ({m[f'{f}_scorer']})"
                    if (label, m["n_instances"]) not in seen:
                        seen.add((label, m["n_instances"]))
                        rows.append([label, *(_fmt(m[kind][f][str(k)]) for k in TOP_KS), str(m["n_instances"])])
            rows += [[f"authority: {_label(r)}", *(_fmt(r["metrics"][kind]["authority"][str(k)]) for k in TOP_KS),
                      str(r["metrics"]["n_instances"])] for r in with_kind]
            lines += ["", f"*{task}, {kind.replace('_', '-')} accuracy*", ""]
            lines += _table(["filter", *(f"k={k}" for k in TOP_KS), "instances"], rows)
    return lines


def _ci_text(ci: Mapping[str, Any], f: str, k: int) -> str:
    pair = ci.get(f, {}).get(str(k))
    return "" if not pair else f" [{_fmt(pair[0], 2)}, {_fmt(pair[1], 2)}]"


def sources_section(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Which prior sources were active per run, and their coverage of the scored items."""
    rows: list[list[str]] = []
    for r in sorted(runs, key=lambda r: (str(r["config"]["task"]), _method_key(r))):
        info = r.get("method_info") or {}
        if "source_coverage" not in info:
            continue
        cov = ", ".join(f"{k} {v:.1%}" for k, v in info["source_coverage"].items()) or "none"
        tiers = ", ".join(f"{k} {v}" for k, v in sorted(info.get("tiers", {}).items()))
        rows.append([str(r["config"]["task"]), _label(r), ", ".join(info.get("active_sources", [])) or "(see method)",
                     ", ".join(info.get("excluded_sources", [])) or "—", str(info.get("items_scored", "")), cov, tiers])
    return _table(["task", "method", "active sources", "left out", "items", "coverage per source", "tiers"], rows)


def cost_section(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """LLM runs: backend, calls, tokens, cache hits, parse failures, wall time."""
    rows = [[str(r["config"]["task"]), _label(r), str((r.get("method_info") or {}).get("backend", r["backend"]["name"])),
             str(r["cost"]["calls"]), str(r["cost"]["prompt_tokens"]), str(r["cost"]["completion_tokens"]),
             str(r["cost"]["cache_hits"]), str(r["parse_failures"]), f"{r['wall_time_s']:.0f}"]
            for r in runs if r["cost"]["calls"] or r["config"].get("generator")]
    return _table(["task", "method", "backend", "calls", "prompt tok", "completion tok", "cache hits",
                   "parse failures", "wall s"], rows)


def plot_all(runs: Sequence[Mapping[str, Any]], plot_dir: Path) -> list[Path]:
    """Write every PNG; returns their paths."""
    mpl = require("matplotlib", extra="bench", feature="benchmark plots")
    mpl.use("Agg")
    plt = require("matplotlib.pyplot", extra="bench", feature="benchmark plots")
    plot_dir.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for task, task_runs in sorted(_by_task(runs, "le+pe").items()):
        out.append(_plot_rho(plt, task, task_runs, plot_dir))
        out.append(_plot_confusion(plt, task, [r for r in task_runs if r["config"]["method"] not in ("oracle",)],
                                   plot_dir))
    for task, task_runs in sorted(_by_task(runs, "rag").items()):
        out.append(_plot_rag_methods(plt, task, task_runs, plot_dir))
        out += [_plot_rag(plt, r, plot_dir) for r in task_runs if "generator" in r["metrics"]]
    return out


def _save(plt: Any, fig: Any, path: Path) -> Path:
    """Lay out, write (110 dpi) and close one figure."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _plot_rag_methods(plt: Any, task: str, runs: Sequence[Mapping[str, Any]], plot_dir: Path) -> Path:
    """Generator-free accuracy vs k: baseline filters (dashed) and every run's authority filter."""
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    first = runs[0]["metrics"]["generator_free"]
    for f in ("none", "relevance", "utility"):
        ax.plot(TOP_KS, [first[f][str(k)] for k in TOP_KS], linestyle="--", marker="s", label=f)
    for r in runs:
        ax.plot(TOP_KS, [r["metrics"]["generator_free"]["authority"][str(k)] for k in TOP_KS], marker="o",
                label=f"authority: {_label(r)}")
    ax.set_xticks(TOP_KS)
    ax.set_ylim(0.0, 1.0)
    ax.set_xlabel("top-k kept")
    ax.set_ylabel("generator-free accuracy")
    ax.set_title(f"{task}: filters × k", fontsize=9)
    ax.legend(fontsize=6, loc="lower right", ncol=2)
    return _save(plt, fig, plot_dir / f"rag_{task}.png")


def _plot_rho(plt: Any, task: str, runs: Sequence[Mapping[str, Any]], plot_dir: Path) -> Path:
    labels = [_label(r) for r in runs]
    rho = [r["metrics"]["le"]["spearman"] for r in runs]
    lo = [v - r["metrics"]["le"]["spearman_ci"][0] for v, r in zip(rho, runs)]
    hi = [r["metrics"]["le"]["spearman_ci"][1] - v for v, r in zip(rho, runs)]
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(runs) + 1.5), 3.2))
    ax.bar(range(len(runs)), rho, yerr=[lo, hi], capsize=3, color="#4c72b0")
    ax.set_xticks(range(len(runs)), labels, rotation=35, ha="right", fontsize=8)
    ax.axhline(0.0, color="black", linewidth=0.6)
    ax.set_ylabel("Spearman ρ (95% CI)")
    ax.set_title(task, fontsize=10)
    return _save(plt, fig, plot_dir / f"rho_{task}.png")


def _plot_confusion(plt: Any, task: str, runs: Sequence[Mapping[str, Any]], plot_dir: Path) -> Path:
    n = max(1, len(runs))
    fig, axes = plt.subplots(1, n, figsize=(2.6 * n, 2.8), squeeze=False)
    for ax, r in zip(axes[0], runs):
        mat = [[v / max(1, sum(row)) for v in row] for row in r["metrics"]["le"]["confusion"]]
        ax.imshow(mat, cmap="Blues", origin="lower", vmin=0.0, vmax=1.0)
        ax.set_title(_label(r), fontsize=8)
        ax.set_xlabel("predicted level", fontsize=7)
        ax.set_ylabel("true level", fontsize=7)
        ax.tick_params(labelsize=6)
    fig.suptitle(f"{task}\npredicted level (rank in list) vs true level, rows normalized", fontsize=8)
    return _save(plt, fig, plot_dir / f"confusion_{task}.png")


def _plot_rag(plt: Any, run: Mapping[str, Any], plot_dir: Path) -> Path:
    m = run["metrics"]
    kinds = [k for k in ("generator_free", "generator") if k in m]
    fig, axes = plt.subplots(1, len(kinds), figsize=(4.2 * len(kinds), 3.2), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        for f in FILTERS:
            ax.plot(TOP_KS, [m[kind][f][str(k)] for k in TOP_KS], marker="o", label=f)
        ax.set_xticks(TOP_KS)
        ax.set_ylim(0.0, 1.0)
        ax.set_xlabel("top-k kept")
        ax.set_ylabel("accuracy")
        ax.set_title(f"{kind.replace('_', '-')} (authority = {_label(run)})", fontsize=8)
        ax.legend(fontsize=7)
    return _save(plt, fig, plot_dir / f"rag_{run['run_id']}.png")


def write_report(results_dir: Path, out_dir: Path) -> Path:
    """Write ``out_dir/report.md`` and ``out_dir/plots/*.png`` from every run under ``results_dir``."""
    runs = load_results(results_dir)
    plots = plot_all(runs, out_dir / "plots")
    lines = ["# AuthorityBench-open results", "",
             (f"Generated by `authorag bench report` from the results folders in `{results_dir}`; do not "
              "edit by hand. Open stand-in data, not the paper's AuthorityBench."), "",
             "## Summary (LE, Spearman ρ / Kendall τ)", "", *summary_section(runs), "",
             "## DomainAuth / CredAuth / EntityAuth: LE and PE", *le_pe_section(runs), "",
             "## RAGAuth-open (filter × top-k)", *rag_summary_section(runs), "",
             *(["### Per run", *per_run, ""] if (per_run := rag_section(runs)) else []),
             "## Prior sources active per run (leave-source-out) and coverage", "", *sources_section(runs), "",
             "## LLM cost per run", "", *cost_section(runs), "", "## Plots", ""]
    lines += [f"![{p.stem}](plots/{p.name})" for p in plots]
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path
