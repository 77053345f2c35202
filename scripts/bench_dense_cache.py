"""Dense relevance over 100 real web pages: the full window, the lead with the cache off, a first call, a repeated call.

The pages are the first 100 of the vendored TREC 2019 health-misinformation set (ClueWeb12 text).
In one run, interleaved round by round:

* ``full``: ``DenseRelevance(cache_size=0, max_tokens=None)``: the model reads its own window of
  256 tokens of every page (the baseline of the lead);
* ``off``: ``DenseRelevance(cache_size=0)``: the default lead of 128 tokens, every page encoded on
  every call;
* ``first``: a new ``DenseRelevance()`` per round, one call (every page encoded once, remembered);
* ``repeat``: the same scorer called again with the same pages and a new question (only the
  question is encoded): what a reranking service pays for corpus pages it has seen before.

Printed: the median over rounds of each (wall time, one CPU thread for torch), the ratios to
``off``, and the lead's ratio to the full window (``off`` / ``full``).

    .venv/bin/python scripts/bench_dense_cache.py --rounds 3 --out docs/results/perf/bench_dense_cache.json
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import statistics
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # measure this checkout, not an installed copy

QUESTIONS = ("Can cranberries prevent urinary tract infections?", "Does vitamin C prevent the common cold?")


def _pages(n: int) -> list[tuple[str, str]]:
    csv.field_size_limit(1 << 30)
    data = resources.files("authorag.benchmarks.data").joinpath("trec_hm2019.csv.gz")
    with data.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as fh:
        rows = [(r["url"], r["text"]) for r in csv.DictReader(fh)]
    return rows[:n]


def measure(n: int, rounds: int) -> dict[str, Any]:
    """Seconds per call (medians over ``rounds``) for the full window, the cache off, a first call and a repeat."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # put back afterwards: the caller's process keeps its setting
    try:
        return _timed(n, rounds)
    finally:
        torch.set_num_threads(threads)


def _timed(n: int, rounds: int) -> dict[str, Any]:
    from authorag.relevance.dense import DenseRelevance
    from authorag.types import Candidate

    cands = [Candidate.create(u, t, id=str(i)) for i, (u, t) in enumerate(_pages(n))]
    full, off = DenseRelevance(cache_size=0, max_tokens=None), DenseRelevance(cache_size=0)
    for scorer in (full, off):
        scorer.score(QUESTIONS[0], cands[:2])  # each model copy loads outside the timing
    times: dict[str, list[float]] = {"full": [], "off": [], "first": [], "repeat": []}
    for _ in range(rounds):
        t0 = time.perf_counter()
        full.score(QUESTIONS[0], cands)
        times["full"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        plain = off.score(QUESTIONS[0], cands)
        times["off"].append(time.perf_counter() - t0)
        scorer = DenseRelevance()
        t0 = time.perf_counter()
        first = scorer.score(QUESTIONS[0], cands)
        times["first"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        scorer.score(QUESTIONS[1], cands)
        times["repeat"].append(time.perf_counter() - t0)
        if max(abs(a - b) for a, b in zip(plain, first)) > 1e-5:
            raise SystemExit("the cached scorer's cosines differ from the uncached ones")
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"candidates": n, "rounds": rounds, "torch_threads": 1, "seconds_per_call": med,
            "ratio_to_off": {k: v / med["off"] for k, v in med.items()},
            "lead_to_full": med["off"] / med["full"], "all_rounds": times}


def main(argv: list[str] | None = None) -> int:
    """Print the figures (or JSON); exit 0 (a measurement, not a test)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--candidates", type=int, default=100)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    out = measure(args.candidates, args.rounds)
    if args.out:
        import os
        import platform

        record = {"command": " ".join(["python scripts/bench_dense_cache.py", *(sys.argv[1:] if argv is None else argv)]),
                  "python": platform.python_version(), "cpus": os.cpu_count(), **out}
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"dense relevance, {out['candidates']} TREC 2019 pages, median of {out['rounds']} rounds, 1 torch thread")
    for name, secs in out["seconds_per_call"].items():
        print(f"  {name:<7} {secs * 1000:8.1f} ms  ({out['ratio_to_off'][name]:.3f}x off)")
    from authorag.relevance.dense import LEAD_TOKENS

    print(f"  the lead ({LEAD_TOKENS} tokens) takes {out['lead_to_full']:.3f}x the full window's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
