"""Page-evidence speed: the tier's cost per candidate on top of today's default rerank, in one run.

Usage: PYTHONPATH=$PWD .venv/bin/python scripts/bench_page_evidence.py [--repeats 200] [--seed 0] [--out FILE.json]

100 candidates per request: real pages of TREC HM 2019 (ClueWeb12 URLs with their full page
text, median 6.8k characters; the text layer reads at most 8,000), drawn with replacement
(seeded), 86 % of them from domains no table knows. Two conditions, interleaved round-robin so
machine noise hits both alike (the load average is printed: other jobs on the machine slow
both conditions, the numpy-heavy text layer more; the fastest run of each condition is printed
too, the closest a busy machine comes to an idle one): today's default composition (``load_scorer()``: reserved >
hosted > prior, prior-only rerank) and the same with the page-evidence tier
(``page_evidence=True``: URL, source-type and text layers plus the model). Prints the medians,
the added microseconds per candidate and the ratio. Target: at most 50 us per candidate added.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

from authorag import AuthorityReranker, Candidate
from authorag.benchmarks.tasks import read_rows
from authorag.compose import ScorerSettings, load_scorer

CANDIDATES = 100


def _cands(pages: list[tuple[str, str]]) -> list[Candidate]:
    return [Candidate.create(u, t, id=str(i), scores={"relevance": 0.5}) for i, (u, t) in enumerate(pages)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="also write the medians as JSON here")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = [(r["url"], r["text"]) for r in read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz")]
    conds = {"default": AuthorityReranker(load_scorer(ScorerSettings())),
             "default + page evidence": AuthorityReranker(load_scorer(ScorerSettings(page_evidence=True)))}
    times: dict[str, list[float]] = {k: [] for k in conds}
    query = "Can vitamin C cure the common cold?"
    for rep in range(args.repeats + 20):
        pages = [rng.choice(pool) for _ in range(CANDIDATES)]
        for name, rr in conds.items():
            cands = _cands(pages)
            t = time.perf_counter()
            rr.rerank(query, cands)
            if rep >= 20:  # warm-up
                times[name].append(time.perf_counter() - t)
    base, base_min = statistics.median(times["default"]), min(times["default"])
    load = [round(x, 2) for x in os.getloadavg()]
    print(f"{CANDIDATES} candidates per rerank, {args.repeats} repeats (load average {load}); median, and fastest run:")
    rows = {}
    for name, ts in times.items():
        m, low = statistics.median(ts), min(ts)
        added, added_min = (m - base) / CANDIDATES * 1e6, (low - base_min) / CANDIDATES * 1e6
        rows[name] = {"median_ms": round(m * 1e3, 4), "added_us_per_candidate": round(added, 2),
                      "ratio": round(m / base, 3), "min_ms": round(low * 1e3, 4),
                      "added_us_per_candidate_min": round(added_min, 2)}
        print(f"  {name:26s} {m * 1e3:8.3f} ms  +{added:6.1f} us/candidate  ratio {m / base:6.2f}x"
              f"   fastest {low * 1e3:8.3f} ms  +{added_min:6.1f} us/candidate")
    if args.out:
        Path(args.out).write_text(json.dumps({"repeats": args.repeats, "seed": args.seed, "candidates": CANDIDATES,
                                              "target_us_per_candidate": 50, "load_average": load, "cpus": os.cpu_count(),
                                              "conditions": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
