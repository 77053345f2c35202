"""Suitability speed: the rule layers' cost per candidate on top of a prior-only rerank, in one run.

Usage: PYTHONPATH=. .venv/bin/python scripts/bench_suitability_speed.py [--repeats 300] [--seed 0] [--out FILE.json]

100 candidates per request: real pages of RAGAuth-open (TREC HM 2019 ClueWeb12 URLs with their
page text), drawn with replacement (seeded). Three conditions, interleaved round-robin so machine
noise hits them alike: prior-only rerank (baseline), + suitability from the URL rule layers
(suffix, list, platform, path), and + suitability with the text layer too (it reads the first
1,000 characters). Every condition gets the same candidates with text. Prints medians, the added
microseconds per candidate and the ratio to the baseline. The target: <= 20 us per
candidate for the rule layers.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from authorag import AuthorityReranker, Candidate, load_prior
from authorag.benchmarks.tasks import read_rows
from authorag.suitability import MatrixSuitability, SourceTypeClassifier

URL_LAYERS = ("suffix", "list", "platform", "path")


def _cands(pages: list[tuple[str, str]]) -> list[Candidate]:
    return [Candidate.create(u, t, id=str(i), scores={"relevance": 0.5}) for i, (u, t) in enumerate(pages)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="also write the medians as JSON here")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = [(r["url"], r["text"][:4000]) for r in read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz")]
    prior = load_prior()
    url_only = MatrixSuitability(classifier=SourceTypeClassifier(layers=URL_LAYERS))
    conds = {"prior-only": AuthorityReranker(prior),
             "+suitability (URL rules)": AuthorityReranker(prior, suitability=url_only),
             "+suitability (URL + text rules)": AuthorityReranker(prior, suitability=MatrixSuitability())}
    times: dict[str, list[float]] = {k: [] for k in conds}
    query = "Can vitamin C cure the common cold?"
    for rep in range(args.repeats + 20):
        pages = [rng.choice(pool) for _ in range(100)]
        for name, rr in conds.items():
            cands = _cands(pages)
            t = time.perf_counter()
            rr.rerank(query, cands)
            if rep >= 20:  # warm-up
                times[name].append(time.perf_counter() - t)
    b = statistics.median(times["prior-only"])
    print(f"100 candidates per rerank, {args.repeats} repeats, medians:")
    rows = {}
    for name, ts in times.items():
        m = statistics.median(ts)
        rows[name] = {"median_ms": round(m * 1e3, 4), "added_us_per_candidate": round((m - b) / 100 * 1e6, 2),
                      "ratio": round(m / b, 3)}
        print(f"  {name:34s} {m * 1e3:7.3f} ms  +{(m - b) / 100 * 1e6:6.1f} us/candidate  ratio {m / b:5.2f}x")
    if args.out:
        Path(args.out).write_text(json.dumps({"repeats": args.repeats, "seed": args.seed, "candidates": 100,
                                              "conditions": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
