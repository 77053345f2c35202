"""Every dev rerank track for relevance scorers of your own, as the experiment scripts run them.

``scripts/eval_static_meaning.py`` and ``scripts/eval_dense_passages.py`` evaluate a relevance
scorer that is not a product component: :func:`dev_rows` puts it through the hand-written dev
halves, graded-trec2019 and the RAG stand-in for each composition method, and
:func:`rows_markdown` writes the table.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from authorag.relevance.base import RelevanceScorer

CASE_TRACKS = ("trust-pairs", "no-harm-pairs", "no-harm-hard", "no-harm-lists")
"""The hand-written tracks run on their dev half."""


def dev_rows(methods: Sequence[str], scorers: Mapping[str, RelevanceScorer], relevances: Sequence[str],
             seed: int) -> dict[str, dict[str, Any]]:
    """method -> ``"track | row"`` -> cell, for every dev track, with ``scorers`` added under their
    names (:meth:`~authorag.benchmarks.tracks.rerank.Reranking.add_relevance`) beside the built-in
    ``relevances`` they are listed with; each method's time is printed."""
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.rag.tasks import load_rag_task
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.graded import graded_metrics, graded_pools, rag_rerank_metrics
    from authorag.benchmarks.tracks.rerank import Reranking, run_case_track
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup

    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document", seed=seed)
    pools = graded_pools()
    rag = load_rag_task("ragauth-trec2019-resampled").instances
    out: dict[str, dict[str, Any]] = {}
    for method in methods:
        reranking = Reranking(rerank_setup(build_method(method, ctx)))
        for name, scorer in scorers.items():
            reranking.add_relevance(name, scorer)
        start = time.perf_counter()
        rows: dict[str, Any] = {}
        for task in CASE_TRACKS:
            for row, cell in run_case_track(task, "dev", reranking, relevances, seed=seed)["rows"].items():
                rows[f"{task} | {row}"] = cell
        for row, cell in graded_metrics(pools, reranking, relevances, seed=seed)["rows"].items():
            rows[f"graded-trec2019 | {row}"] = cell
        for row, cell in rag_rerank_metrics(rag, reranking, relevances, seed=seed)["rows"].items():
            rows[f"ragauth-trec2019-resampled | {row}"] = cell
        out[method] = rows
        print(f"{method}: {time.perf_counter() - start:.0f} s", flush=True)
    return out


def rows_markdown(results: Mapping[str, Mapping[str, Any]], title: str, intro: str, *,
                  breakdown: bool = True) -> str:
    """The table of :func:`dev_rows`: one row per track and metric, one column per method, cells
    ``value [CI]``; ``breakdown=False`` leaves out the per-domain and per-kind rows."""
    methods = list(results)
    lines = [f"# {title}", "", intro, "",
             "| track | metric | " + " | ".join(methods) + " |", "|---|---|" + "---|" * len(methods)]
    for row in results[methods[0]]:
        track, metric = row.split(" | ", 1)
        if not breakdown and "," in metric:
            continue
        cells = [results[m][row] for m in methods]
        lines.append(f"| {track} | {metric} | " + " | ".join(
            f"{c['value']:.3f} [{c['ci'][0]:.2f}, {c['ci'][1]:.2f}]" for c in cells) + " |")
    return "\n".join(lines) + "\n"


__all__ = ["CASE_TRACKS", "dev_rows", "rows_markdown"]
