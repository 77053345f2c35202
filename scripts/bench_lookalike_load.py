"""Load time of the prior and its look-alike index, in fresh processes.

Usage: python scripts/bench_lookalike_load.py [--runs 5] [--out FILE]

Each run starts a new interpreter with the ``authorag`` found on ``PYTHONPATH`` and times
``load_prior()`` and then the first lookup of a host no table knows, which builds the look-alike
index from the shipped target list (once per process). Run it with two checkouts on
``PYTHONPATH`` in turn to compare them in one session (``benchmarks/results/lookalike/reproduce_speed_targets.sh``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CODE = ("import time; from authorag import load_prior; t=time.perf_counter(); p=load_prior(); "
        "t1=time.perf_counter(); p.lookup('some-unlisted-name-0.example-shop.net'); "
        "t2=time.perf_counter(); import authorag; print(t1-t, t2-t1, authorag.__file__)")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    runs: list[tuple[float, float]] = []
    where = ""
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, "-c", CODE], check=True, capture_output=True, text=True).stdout.split()
        runs.append((float(out[0]), float(out[1])))
        where = out[2]
    record = {"command": "python scripts/bench_lookalike_load.py " + " ".join(sys.argv[1:]), "authorag": where,
              "load_prior_ms": [round(a * 1000, 1) for a, _ in runs],
              "first_check_ms": [round(b * 1000, 1) for _, b in runs],
              "load_prior_median_ms": round(statistics.median(a for a, _ in runs) * 1000, 1),
              "first_check_median_ms": round(statistics.median(b for _, b in runs) * 1000, 1)}
    text = json.dumps(record, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
