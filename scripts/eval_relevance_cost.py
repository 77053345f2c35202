"""Cheaper dense relevance: the same orders on the trust and no-harm tracks, at what cost per page?

Variants of the default dense relevance (MiniLM, each page's first 128 tokens, fp32), each built
as a :class:`~authorag.relevance.dense.DenseRelevance` and run through the rerank tracks as the
surfaces build rerankers (:meth:`~authorag.benchmarks.tracks.rerank.Reranking.add_relevance`):

* ``dense-int8``: the default window with the model's linear layers in int8 (``precision="int8"``);
* ``dense-int8-64``: both.

For each method (``relevance-only``, ``default``), split (dev, test) and hand-written track
(trust pairs, no-harm pairs, lists and harder pairs) it reports each track's rows for every
variant and the share of reranked input orders identical to the default dense relevance's. Then,
in the same run, the CPU cost: milliseconds per new ~200-word page for each variant, one thread,
pages never seen (the cache off), after a warm-up.

Run by ``bash benchmarks/results/relevance_cost/reproduce.sh``; writes ``compare.md`` and
``compare.json`` to ``--out``.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

TRACKS = ("trust-pairs", "no-harm-pairs", "no-harm-lists", "no-harm-hard")
METHODS = ("relevance-only", "default")
SPLITS = ("dev", "test")
VARIANTS: dict[str, dict[str, Any]] = {
    "dense-int8": {"precision": "int8"}, "dense-int8-64": {"max_tokens": 64, "precision": "int8"}}
"""Name -> DenseRelevance options; ``dense`` (the default: 128 tokens, fp32) is the reference."""


def scorers() -> dict[str, Any]:
    from authorag.relevance.dense import DenseRelevance

    return {name: DenseRelevance(cache_size=None, **options) for name, options in VARIANTS.items()}


def tracks(seed: int) -> dict[str, Any]:
    """method -> split -> track -> {"rows": track rows, "same_orders": variant -> share}."""
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.rag.protocol import cached_dense
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.rerank import Reranking, case_orders, run_case_track
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup
    from authorag.benchmarks.tracks.trust_data import load_cases

    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document", seed=seed)
    made = scorers()
    relevances = ["dense", *made]
    pages = list(dict.fromkeys(p.text for task in TRACKS for split in SPLITS for case in load_cases(task, split)
                               for p in case.pages))
    for name, scorer in {"dense": cached_dense(), **made}.items():  # every page once, in batches (remembered)
        start = time.perf_counter()
        scorer.cosines("warm up", pages)
        print(f"{name}: {len(pages)} pages encoded in {time.perf_counter() - start:.0f} s", flush=True)
    out: dict[str, Any] = {}
    for method in METHODS:
        reranking = Reranking(rerank_setup(build_method(method, ctx)))
        for name, scorer in made.items():
            reranking.add_relevance(name, scorer)
        for split in SPLITS:
            for task in TRACKS:
                rows = run_case_track(task, split, reranking, relevances, seed=seed)["rows"]
                same = {name: 0 for name in made}
                total = 0
                for case in load_cases(task, split):
                    urls, texts = [p.url for p in case.pages], [p.text for p in case.pages]
                    for perm in case_orders(case, "dense", seed, retriever_order=task != "trust-pairs"):
                        args = (case.query, [urls[i] for i in perm], [texts[i] for i in perm])
                        reference = reranking.order("dense", *args)
                        total += 1
                        for name in made:
                            same[name] += reranking.order(name, *args) == reference
                out.setdefault(method, {}).setdefault(split, {})[task] = {
                    "rows": rows, "same_orders": {k: round(v / total, 4) for k, v in same.items()},
                    "orders": total}
                print(f"{method} {split} {task}: done", flush=True)
    return out


def cost(pages: int, seed: int) -> dict[str, float]:
    """Milliseconds of one CPU thread per new ~200-word page, for ``dense`` and each variant."""
    import torch

    from authorag.relevance.dense import DenseRelevance

    torch.set_num_threads(1)
    rng = random.Random(seed)
    words = ["cranberry", "juice", "urinary", "tract", "infection", "clinical", "trial", "women", "recurrent", "evidence", "review", "prevention", "the", "of", "and", "to", "in", "a", "is", "that", "for", "with", "as", "was", "on", "by", "patients", "results", "were", "not", "more", "than", "after", "which", "may", "these", "health", "care", "risk", "group", "years", "found", "reported", "compared", "authors", "data", "number", "effect"]
    texts = [" ".join(rng.choice(words) for _ in range(200)) for _ in range(pages)]
    out: dict[str, float] = {}
    for name, options in {"dense": {}, **VARIANTS}.items():
        dense = DenseRelevance(cache_size=0, **options)
        dense.warm_up()
        dense.cosines("warm", texts[:8])
        start = time.process_time()
        dense.cosines("does cranberry juice prevent urinary tract infections", texts)
        out[name] = round(1000 * (time.process_time() - start) / pages, 2)
    return out


def markdown(results: dict[str, Any]) -> str:
    names = ["dense", *VARIANTS]
    lines = ["# Cheaper dense relevance: orders on the tracks, cost per page", "",
             ("Made by `bash benchmarks/results/relevance_cost/reproduce.sh` (scripts/eval_relevance_cost.py, "
              f"seed {results['seed']}). `dense`: the default (first 128 tokens, fp32). Cells: value "
              "[bootstrap 95 % CI]; `same orders`: the share of reranked input orders identical to `dense`'s."), "",
             f"CPU per new ~200-word page, one thread ({results['pages']} pages, same run): "
             + ", ".join(f"`{n}` {ms} ms" for n, ms in results["ms_per_page"].items()), ""]
    for method, splits in results["tracks"].items():
        lines += [f"## {method}", "", "| split | track | row | " + " | ".join(names) + " |",
                  "|---|---|---|" + "---|" * len(names)]
        for split, by_task in splits.items():
            for task, data in by_task.items():
                rows = data["rows"]
                for row in dict.fromkeys(r.rsplit(" (", 1)[0] for r in rows):
                    cells = [cell_text(rows.get(f"{row} ({n})")) for n in names]
                    lines.append(f"| {split} | {task} | {row} | " + " | ".join(cells) + " |")
                same = data["same_orders"]
                lines.append(f"| {split} | {task} | same orders as dense ({data['orders']}) | 1.00 | "
                             + " | ".join(f"{same[n]:.2f}" for n in VARIANTS) + " |")
        lines.append("")
    return "\n".join(lines)


def cell_text(cell: Any) -> str:
    """A result cell as a table shows it: its value and CI to two decimals, or a dash."""
    if not isinstance(cell, dict):
        return "–"
    ci = cell.get("ci")
    value = float(cell["value"])
    return f"{value:.2f}" if not ci else f"{value:.2f} [{float(ci[0]):.2f}, {float(ci[1]):.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description="Cheaper dense relevance: track orders and cost per page.")
    parser.add_argument("--out", type=Path, required=True, help="folder for compare.md and compare.json")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pages", type=int, default=200, help="pages timed per variant (default 200)")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)  # one thread: OpenMP teams thrash on a shared, oversubscribed machine
    args.out.mkdir(parents=True, exist_ok=True)
    results = {"seed": args.seed, "pages": args.pages, "tracks": tracks(args.seed),
               "ms_per_page": cost(args.pages, args.seed)}
    (args.out / "compare.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "compare.md").write_text(markdown(results))
    print(f"wrote {args.out / 'compare.md'}")


if __name__ == "__main__":
    main()
