"""Page-evidence speed: the tier's cost on top of today's default rerank, in one run.

Usage: PYTHONPATH=$PWD .venv/bin/python scripts/bench_page_evidence.py [--repeats 200] [--seed 0] [--out FILE.json]

Each request is 100 candidates: real pages of TREC HM 2019 (ClueWeb12 URLs with their full page
text, median 6.8k characters; the text layer reads at most 8,000), drawn with replacement
(seeded, new draws every repeat), 86 % of them from domains no table knows. Conditions, run
interleaved round-robin in one process so that machine noise hits all alike:

* text pages: today's default composition (``load_scorer()``: reserved > hosted > prior,
  prior-only rerank) against the same with the page-evidence tier (``page_evidence=True``);
  and the tier with its URL memo emptied before every request (``new URLs``: every URL and
  source-type reading done afresh; only the text layer ever runs afresh in the other two).
  Target: at most 50 us per candidate added.
* URL-only candidates (the same URLs, no text): the default against the default with the tier.
  Target: the tier's rerank within 1.3x of the default's.

Prints the medians and the fastest run of each condition (the closest a busy machine comes to an
idle one) with the added microseconds per candidate and the ratios, and the load average before
and after (other jobs on the machine slow every condition, the numpy-heavy text layer more).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from authorag import AuthorityReranker, Candidate
from authorag.benchmarks.tasks import read_rows
from authorag.compose import ScorerSettings, load_scorer
from authorag.evidence import PageEvidence
from authorag.tiered import TieredAuthority

CANDIDATES = 100
WARMUP = 20
TEXT_TARGET_US = 50.0
URL_TARGET_RATIO = 1.3


def _cands(pages: list[tuple[str, str]], text: bool) -> list[Candidate]:
    return [Candidate.create(u, t if text else "", id=str(i), scores={"relevance": 0.5}) for i, (u, t) in enumerate(pages)]


def _conditions() -> dict[str, tuple[AuthorityReranker, bool, Callable[[], None] | None]]:
    """name -> (reranker, candidates carry text, what to do before each timed request)."""
    default, page = load_scorer(ScorerSettings()), load_scorer(ScorerSettings(page_evidence=True))
    assert isinstance(page, TieredAuthority) and page.page is not None
    cold, model = copy.copy(page), page.page.model  # load_scorer hands out one scorer per settings

    def forget() -> None:
        cold.page = PageEvidence(model)  # a tier with empty memos

    return {"default": (AuthorityReranker(default), True, None),
            "default + page evidence": (AuthorityReranker(page), True, None),
            "default + page evidence, new URLs": (AuthorityReranker(cold), True, forget),
            "default, URL only": (AuthorityReranker(default), False, None),
            "default + page evidence, URL only": (AuthorityReranker(page), False, None)}


def _row(ts: list[float], base: list[float]) -> dict[str, float]:
    m, low, bm, blow = statistics.median(ts), min(ts), statistics.median(base), min(base)
    return {"median_ms": round(m * 1e3, 4), "min_ms": round(low * 1e3, 4),
            "added_us_per_candidate": round((m - bm) / CANDIDATES * 1e6, 2),
            "added_us_per_candidate_min": round((low - blow) / CANDIDATES * 1e6, 2),
            "ratio": round(m / bm, 3), "ratio_min": round(low / blow, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="also write the figures as JSON here")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = [(r["url"], r["text"]) for r in read_rows("authorag.benchmarks.data", "trec_hm2019.csv.gz")]
    conds = _conditions()
    times: dict[str, list[float]] = {k: [] for k in conds}
    query = "Can vitamin C cure the common cold?"
    load_before = [round(x, 2) for x in os.getloadavg()]
    for rep in range(args.repeats + WARMUP):
        pages = [rng.choice(pool) for _ in range(CANDIDATES)]
        for name, (rr, text, before) in conds.items():
            cands = _cands(pages, text)
            if before is not None:
                before()
            t = time.perf_counter()
            rr.rerank(query, cands)
            if rep >= WARMUP:
                times[name].append(time.perf_counter() - t)
    load = [round(x, 2) for x in os.getloadavg()]
    rows = {name: _row(ts, times["default" if conds[name][1] else "default, URL only"]) for name, ts in times.items()}
    print(f"{CANDIDATES} candidates per rerank, {args.repeats} repeats, {os.cpu_count()} CPUs, load average "
          f"{load_before} before, {load} after; median (fastest run):")
    for name, r in rows.items():
        print(f"  {name:36s} {r['median_ms']:8.3f} ms ({r['min_ms']:7.3f})  +{r['added_us_per_candidate']:6.1f} "
              f"us/candidate ({r['added_us_per_candidate_min']:+6.1f})  ratio {r['ratio']:5.2f}x ({r['ratio_min']:5.2f}x)")
    text, url = rows["default + page evidence"], rows["default + page evidence, URL only"]
    checks = {"text_us_per_candidate": {"median": text["added_us_per_candidate"], "min": text["added_us_per_candidate_min"],
                                        "target": TEXT_TARGET_US, "met": text["added_us_per_candidate"] <= TEXT_TARGET_US},
              "url_only_ratio": {"median": url["ratio"], "min": url["ratio_min"], "target": URL_TARGET_RATIO,
                                 "met": url["ratio"] <= URL_TARGET_RATIO}}
    for name, c in checks.items():
        print(f"  target {name}: {c['median']} (fastest {c['min']}) vs <= {c['target']}: {'met' if c['met'] else 'NOT met'}")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "command": "python scripts/bench_page_evidence.py " + " ".join(sys.argv[1:]), "repeats": args.repeats,
            "seed": args.seed, "candidates": CANDIDATES, "load_average_before": load_before, "load_average": load,
            "cpus": os.cpu_count(), "conditions": rows, "targets": checks}, indent=1) + "\n")


if __name__ == "__main__":
    main()
