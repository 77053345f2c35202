"""Markdown for ``authorag bench compare``: the one comparison table and the rerank grid.

Example:
    >>> record = {"methods": ["a"], "table": {"t | LE ρ": {"a": {"value": 0.5, "ci": [0.4, 0.6], "coverage": 1.0}}},
    ...           "rerank_grid": [], "seed": 0, "n_lists": 5, "n_pairs": 5, "options": {}, "package_version": "x"}
    >>> comparison_table(record)[2]
    '| t | LE ρ | 0.500 [0.40, 0.60] |'
    >>> "## Comparison" in render_compare(record)
    True
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from authorag.benchmarks.rag.protocol import TOP_KS


def _cell(raw: Mapping[str, Any] | None, signed: bool = False) -> str:
    if raw is None or raw.get("value") is None:
        return "–"
    ci = raw.get("ci")
    text = f"{raw['value']:+.3f}" if signed else f"{raw['value']:.3f}"
    if not ci:
        return text
    text += f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if signed else f" [{ci[0]:.2f}, {ci[1]:.2f}]"
    if signed:  # ▲ better, ▼ worse than the baseline (CI excludes 0), = within the CI
        text += " ▲" if ci[0] > 0 else " ▼" if ci[1] < 0 else " ="
    return text


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def _mark(raw: Mapping[str, Any] | None) -> str:
    """A compact paired difference: ``+0.031 ▲`` (CI above 0), ``▼`` (below), ``=`` (contains 0)."""
    if raw is None or raw.get("value") is None or not raw.get("ci"):
        return ""
    lo, hi = raw["ci"]
    return f"{raw['value']:+.3f} " + ("▲" if lo > 0 else "▼" if hi < 0 else "=")


def comparison_table(record: Mapping[str, Any], table: str = "table") -> list[str]:
    """Rows = track | metric, columns = methods then paired differences, cells = value [95 % CI]."""
    methods = list(record["methods"])
    deltas = list(record.get("delta_columns", []))
    rows: list[list[str]] = []
    for key, cells in record[table].items():
        track, _, metric = str(key).partition(" | ")
        rows.append([track, metric, *(_cell(cells.get(m)) for m in methods),
                     *(_cell(cells.get(d), signed=True) for d in deltas)])
    return _table(["track", "metric", *methods, *deltas], rows)


def coverage_table(record: Mapping[str, Any]) -> list[str]:
    """Share of each track's items a method knows (the rest get the constant)."""
    methods = list(record["methods"])
    seen: dict[str, Mapping[str, Any]] = {}
    for key, cells in record["table"].items():
        seen.setdefault(str(key).partition(" | ")[0], cells)
    rows = [[track, *("–" if cells.get(m, {}).get("coverage") is None else f"{cells[m]['coverage']:.2f}"
                      for m in methods)] for track, cells in seen.items()]
    return _table(["track", *methods], rows)


def grid_tables(record: Mapping[str, Any]) -> list[str]:
    """One table per method × relevance: every grid point and the baselines, k = 1, 3, 5, with the
    paired difference to relevance only and to today's default policy (▲ / ▼ / =)."""
    lines: list[str] = []
    for grid in record.get("rerank_grid", []):
        lines += ["", f"### rerank grid: authority = {grid['method']}, relevance = {grid['relevance']}", "",
                  f"{grid['n_instances']} instances, {grid['n_topics']} topics, CIs by {grid['ci_unit']}", ""]
        rows = [[str(r["row"]), *(_cell({"value": r[f"k{k}"], "ci": r[f"k{k}_ci"]}) for k in TOP_KS),
                 *(_mark(r.get(f"k{k}_vs_{ref}")) for ref in ("relevance", "default") for k in TOP_KS)]
                for r in grid["rows"]]
        lines += _table(["order (fusion/normalize/weight)", *(f"k={k}" for k in TOP_KS),
                         *(f"Δ vs {ref} k={k}" for ref in ("relevance", "default") for k in TOP_KS)], rows)
    return lines


def _rerank_notes(record: Mapping[str, Any]) -> list[str]:
    if not record.get("detail_table") and not any(" (" in k for k in record["table"]):
        return []
    relevances = record.get("track_relevance", [])
    lead = ""
    if "dense_max_tokens" in record and {"dense", "upstream", "similarity"} & set(relevances):
        tokens = record["dense_max_tokens"]
        read = "the model's own window" if tokens is None else f"each page's first {tokens} tokens"
        lead = f" MiniLM cosines (dense, and those handed over as upstream / similarity scores) read {read}."
    return [(f"Rerank tracks: relevance {', '.join(relevances)}, split "
             f"{record.get('split', 'all')} of the hand-written sets; every case through "
             "adapters.build_reranker with the method's scorer and policy, in each input order; cells are "
             "shares of (case, order) units (nDCG: mean over pools), CIs resample cases (graded and RAG: "
             f"topics).{lead}"), ""]


def _breakdown(record: Mapping[str, Any]) -> list[str]:
    if not record.get("detail_table"):
        return []
    return ["## Breakdown of the rerank tracks (by domain and source kind)", "",
            *comparison_table(record, "detail_table"), ""]


def render_compare(record: Mapping[str, Any]) -> str:
    """The whole ``compare.md``."""
    opts = ", ".join(f"{k}={v}" for k, v in sorted(record.get("options", {}).items())) or "none"
    lines = ["# authorag bench compare", "",
             (f"Generated by `authorag bench compare` (package {record['package_version']}, seed {record['seed']}, "
              f"{record['n_lists']} LE lists, method options: {opts}); do not edit by hand."), "",
             ("Every method is leave-source-out and treats an unknown source the same way: it gets the "
              "reranker's UNKNOWN_LEVEL. Cells: value [bootstrap 95 % CI]; the RAG rows and "
              "the rerank grid resample whole topics, the hosted rows whole platforms. Δ columns: the "
              "method minus the first method on the same units, paired bootstrap 95 % CI; ▲ / ▼ = the CI "
              "lies above / below 0, = it contains 0."), "",
             *_rerank_notes(record), "## Comparison", "", *comparison_table(record), "",
             *_breakdown(record),
             "## Coverage (share of items known to the method; the rest get the constant)", "",
             *coverage_table(record), "", "## Rerank mode on ragauth-trec2019-resampled (generator-free accuracy)",
             *grid_tables(record)]
    return "\n".join(lines) + "\n"
