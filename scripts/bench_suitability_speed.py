"""Suitability speed: the rule layers' cost per candidate on top of a prior-only rerank, in one run.

Usage: PYTHONPATH=. .venv/bin/python scripts/bench_suitability_speed.py [--repeats 300] [--seed 0]

100 candidates per request: URLs of the hand-labelled source-type set (real hosts and path
shapes), drawn with replacement (seeded). Three conditions, interleaved round-robin so machine
noise hits them alike: prior-only rerank (baseline), + suitability from URL rule layers, and
+ suitability with a 2,000-character page text per candidate (text layer active). Prints
medians, the added microseconds per candidate and the ratio to the baseline. The target of
issue 12 is <= 20 us per candidate for the rule layers.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from authorag import AuthorityReranker, Candidate, load_prior
from authorag.benchmarks.suitability import SOURCE_TYPE_FILE, _rows  # pyright: ignore[reportPrivateUsage]
from authorag.suitability import MatrixSuitability

TEXT = ("Posted by admin. Add to cart: $19.99, free shipping. Reviewed by Dr. Smith, board-certified. "
        "References: Smith et al. 2019, doi 10.1000/xyz. Reply quote thread. ") * 14


def _cands(urls: list[str], text: str) -> list[Candidate]:
    return [Candidate.create(u, text, id=str(i), scores={"relevance": 0.5}) for i, u in enumerate(urls)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = [r["url"] for r in _rows(SOURCE_TYPE_FILE)]
    prior = load_prior()
    suit = MatrixSuitability()
    base = AuthorityReranker(prior)
    with_suit = AuthorityReranker(prior, suitability=suit)
    conds = {"prior-only": (base, ""), "+suitability (URL rules)": (with_suit, ""),
             "+suitability (URL + text rules)": (with_suit, TEXT[:2000])}
    times: dict[str, list[float]] = {k: [] for k in conds}
    query = "Can vitamin C cure the common cold?"
    for rep in range(args.repeats + 20):
        urls = [rng.choice(pool) for _ in range(100)]
        for name, (rr, text) in conds.items():
            cands = _cands(urls, text)
            t = time.perf_counter()
            rr.rerank(query, cands)
            if rep >= 20:  # warm-up
                times[name].append(time.perf_counter() - t)
    b = statistics.median(times["prior-only"])
    print(f"100 candidates per rerank, {args.repeats} repeats, medians:")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name:34s} {m * 1e3:7.3f} ms  +{(m - b) / 100 * 1e6:6.1f} us/candidate  ratio {m / b:5.2f}x")


if __name__ == "__main__":
    main()
