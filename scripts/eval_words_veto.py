"""The words' veto with a relevance that judges meaning: its power and the cascade's lexical floor.

With the default cascade relevance a candidate is on topic when its meaning reaches
``meaning_on_topic`` of the best and its words reach ``on_topic ** WORDS_POWER`` of the best words
(:func:`authorag.rerankers.fusion.words_on_topic`); the cascade does not encode a page under
``lexical_floor`` of the best words (:data:`authorag.relevance.cascade.LEXICAL_FLOOR`). This script
runs the default method with cascade relevance over the v2 tracks (rows per language) and the v1
tracks for every (power, floor) in ``--powers`` × ``--floors``, and says which cells are at least as
good as today's (the first power and the first floor) on every row and better on one.

The power is a module constant, set for each power before its tracks run; the floors are
shallow copies of one :class:`~authorag.relevance.cascade.CascadeRelevance` (they share its encoders
and their caches, so each page is encoded once). Writes ``words_veto.md`` and ``words_veto.json``
to ``--out``; choose on ``--split dev`` (the default), read ``--split test`` once at the end:
    PYTHONPATH=$PWD .venv/bin/python scripts/eval_words_veto.py --out /tmp/words_veto
"""
from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path
from typing import Any

V2_TRACKS = ("trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2")
V1_TRACKS = ("trust-pairs", "no-harm-pairs", "no-harm-lists", "no-harm-hard")
LANGS = ("en", "de", "es", "fr")
EPS = 1e-9


def cell_name(power: float, floor: float) -> str:
    return f"p{power:g}-f{floor:g}"


def run(split: str, seed: int, powers: list[float], floors: list[float]
        ) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """The default method with cascade relevance, every cell: row label -> {cell -> value} and
    "track:case id" -> {cell -> the case's head metric, averaged over its input orders}."""
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.rerank import Reranking, run_case_track
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup
    from authorag.relevance.cascade import CascadeRelevance
    from authorag.rerankers import fusion

    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document", seed=seed)
    reranking = Reranking(rerank_setup(build_method("default", ctx)))
    base = CascadeRelevance()
    for floor in floors:
        scorer = copy.copy(base)
        scorer.lexical_floor = floor
        for power in powers:
            reranking.add_relevance(cell_name(power, floor), scorer)
    table: dict[str, dict[str, float]] = {}
    cases: dict[str, dict[str, float]] = {}
    saved = fusion.WORDS_POWER
    try:
        for power in powers:
            fusion.WORDS_POWER = power
            names = [cell_name(power, f) for f in floors]
            for task in (*V2_TRACKS, *V1_TRACKS):
                start = time.perf_counter()
                result = run_case_track(task, split, reranking, names, seed=seed)
                _collect(table, task, result)
                for case in result["cases"]:
                    cases.setdefault(f"{task}:{case['id']}", {}).update({n: float(case[n]) for n in names})
                print(f"power {power:g}, {task}: {time.perf_counter() - start:.0f} s", flush=True)
    finally:
        fusion.WORDS_POWER = saved
    return table, cases


def trusted_pages(split: str, cases: dict[str, dict[str, float]], today: str) -> list[dict[str, Any]]:
    """Why trust-pairs-v2 does not move: for each case whose trusted page is not always first today,
    the trusted page's share of the best words (the cascade's), whether today's cascade encodes it,
    and its share of the best meaning when every page is encoded (lexical floor 0)."""
    from authorag.adapters import candidates_of
    from authorag.relevance.bm25 import BM25Relevance
    from authorag.relevance.cascade import CascadeRelevance, words_share
    from authorag.relevance.coverage import coverage_and_stuffing
    from authorag.relevance.language import detect_language

    today_cascade, every_page = CascadeRelevance(), CascadeRelevance(lexical_floor=0.0)
    every_page.english, every_page.multilingual = today_cascade.english, today_cascade.multilingual
    out: list[dict[str, Any]] = []
    for case in load_trust_v2(split):
        if cases[f"trust-pairs-v2:{case.id}"][today] >= 1.0 - EPS:
            continue
        texts = [p.text for p in case.pages]
        cands, _ = candidates_of([p.url for p in case.pages], texts, None, "document")
        guess = detect_language(case.query, texts)
        cov, stuffed = coverage_and_stuffing(case.query, texts, guess.lexical)
        words = words_share(cov, BM25Relevance(language=guess.lexical).score(case.query, cands), stuffed)
        encoded = today_cascade.score_encoded(case.query, cands)[1]
        meaning = every_page.score(case.query, cands)
        i = next(n for n, p in enumerate(case.pages) if p.group == 0)
        best = max(meaning)
        out.append({"case": case.id, "lang": case.lang, "trusted": case.pages[i].url, "words_share": float(words[i]),
                    "encoded_today": encoded[i], "meaning_share": meaning[i] / best if best > 0 else 0.0})
    return out


def load_trust_v2(split: str) -> Any:
    from authorag.benchmarks.tracks.trust_data import load_cases

    return load_cases("trust-pairs-v2", split)


def _collect(table: dict[str, dict[str, float]], task: str, result: dict[str, Any]) -> None:
    """Add one track's rows (and, for v2, the head metric per language), one value per cell."""
    for label, cell in result["rows"].items():
        metric, _, rest = label.rpartition(" (")
        table.setdefault(f"{task} | {metric}", {})[rest.rstrip(")")] = float(cell["value"])
    for label, cell in result["detail_rows"].items():
        head, _, group = label.partition(", ")
        if not group.startswith("lang "):
            continue
        metric, _, rest = head.rpartition(" (")
        table.setdefault(f"{task} | {metric}, {group}", {})[rest.rstrip(")")] = float(cell["value"])


def verdicts(table: dict[str, dict[str, float]], cases: dict[str, dict[str, float]], cells: list[str],
             today: str) -> dict[str, dict[str, Any]]:
    """Per cell: rows worse and better than ``today``, whether it qualifies (none worse, some
    better), and the cases whose head metric moves (case -> [today's value, the cell's])."""
    out: dict[str, dict[str, Any]] = {}
    for cell in cells:
        worse = [r for r, v in table.items() if v[cell] < v[today] - EPS]
        better = [r for r, v in table.items() if v[cell] > v[today] + EPS]
        moved = {c: [v[today], v[cell]] for c, v in cases.items() if abs(v[cell] - v[today]) > EPS}
        out[cell] = {"worse": worse, "better": better, "qualifies": not worse and bool(better), "cases_moved": moved}
    return out


def markdown(results: dict[str, Any]) -> str:
    cells, table, today = results["cells"], results["rows"], results["today"]
    lines = ["# The words' veto: power × cascade lexical floor", "",
             f"Made by `scripts/eval_words_veto.py --split {results['split']}` (seed {results['seed']}, the default "
             "method, cascade relevance). Columns: `p` the words' power (`on_topic ** p` of the best words), "
             f"`f` the cascade's lexical floor; today is `{today}`. Rows per language: the head metric of each "
             "v2 track.", "",
             "| track | row | " + " | ".join(f"`{c}`" for c in cells) + " |", "|---|---|" + "---|" * len(cells)]
    for label, values in table.items():
        task, row = label.split(" | ", 1)
        lines.append(f"| {task} | {row} | " + " | ".join(f"{values[c]:.3f}" for c in cells) + " |")
    lines += ["", "## Trust pairs v2 whose trusted page is not always first today", "",
              "Share of the best words (the cascade's), encoded by today's cascade, and share of the best meaning "
              "when every page is encoded (a page is on topic only when its meaning reaches `meaning_on_topic`, "
              "0.742 of the best by default).", "",
              "| case | lang | trusted page | words share | encoded today | meaning share |", "|---|---|---|---|---|---|"]
    for row in results["trusted_pages"]:
        lines.append(f"| {row['case']} | {row['lang']} | {row['trusted']} | {row['words_share']:.2f} | "
                     f"{'yes' if row['encoded_today'] else 'no'} | {row['meaning_share']:.2f} |")
    return "\n".join(lines + verdict_lines(results["verdicts"], today, "cell")) + "\n"


def verdict_lines(found: dict[str, dict[str, Any]], today: str, name: str) -> list[str]:
    """The markdown section of :func:`verdicts` (``name``: what a column is, "cell" or "rule")."""
    lines = ["", "## Against today (every row at least as good, one better: qualifies)", "",
             f"| {name} | rows worse | rows better | qualifies | cases that move (today → {name}, head metric) |",
             "|---|---|---|---|---|"]
    for cell, v in found.items():
        if cell != today:
            moved = "; ".join(f"{c} {a:.2f} → {b:.2f}" for c, (a, b) in v["cases_moved"].items()) or "none"
            lines.append(f"| `{cell}` | {len(v['worse'])} | {len(v['better'])} | "
                         f"{'yes' if v['qualifies'] else 'no'} | {moved} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description="The words' power and the cascade's lexical floor on the tracks.")
    parser.add_argument("--out", type=Path, required=True, help="folder for words_veto.md and words_veto.json")
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--powers", default="1.5,2,2.5,3", help="words' powers, today's first (default %(default)s)")
    parser.add_argument("--floors", default="0.3,0.2,0.1", help="lexical floors, today's first (default %(default)s)")
    args = parser.parse_args()
    powers = [float(p) for p in args.powers.split(",")]
    floors = [float(f) for f in args.floors.split(",")]
    cells = [cell_name(p, f) for p in powers for f in floors]
    args.out.mkdir(parents=True, exist_ok=True)
    table, cases = run(args.split, args.seed, powers, floors)
    today = cell_name(powers[0], floors[0])
    results: dict[str, Any] = {"seed": args.seed, "split": args.split, "method": "default", "relevance": "cascade",
                               "today": today, "cells": cells, "rows": table,
                               "verdicts": verdicts(table, cases, cells, today), "cases": cases,
                               "trusted_pages": trusted_pages(args.split, cases, today)}
    (args.out / "words_veto.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "words_veto.md").write_text(markdown(results))
    print(markdown(results))
    print(f"wrote {args.out / 'words_veto.md'}")


if __name__ == "__main__":
    main()
