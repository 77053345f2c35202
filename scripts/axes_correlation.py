"""Why two axes: Spearman ρ of each prior source against MBFC-2026 factual reporting.

Usage: .venv/bin/python scripts/axes_correlation.py
Data: the shipped prior sources vs authorag/benchmarks/data/mbfc2026.csv.gz (MBFC factual
reporting, 6 levels very-low=0 .. very-high=5), on the domains both cover. No sampling, no seed.
"""
from __future__ import annotations

import csv
import gzip
from importlib import resources

from scipy.stats import spearmanr

from authorag.priors import SOURCES, load_prior, load_source
from authorag.priors.sources import normalize_key

LEVELS = {"very-low": 0, "low": 1, "mixed": 2, "mostly-factual": 3, "high": 4, "very-high": 5}


def mbfc() -> dict[str, int]:
    raw = resources.files("authorag.benchmarks.data").joinpath("mbfc2026.csv.gz").read_bytes()
    out: dict[str, int] = {}
    for r in csv.DictReader(gzip.decompress(raw).decode().splitlines()):
        key = normalize_key(r["domain"])
        if key and r["reporting"] in LEVELS:
            out[key] = LEVELS[r["reporting"]]
    return out


def main() -> None:
    labels = mbfc()
    print("| source | axis | overlap with MBFC | Spearman ρ vs MBFC factual |")
    print("|---|---|---|---|")
    for name, spec in SOURCES.items():
        src = load_source(name)
        common = sorted(set(src) & set(labels))
        if len(common) < 10:
            continue
        values = [src[k].value for k in common]
        if len(set(values)) == 1:  # a plain list (every entry the same value): no ranking to correlate
            mean = sum(labels[k] for k in common) / len(common)
            print(f"| {name} | {spec.axis} | {len(common)} | n/a (one value; mean MBFC level {mean:.2f} of 5) |")
            continue
        rho = spearmanr(values, [labels[k] for k in common]).statistic
        print(f"| {name} | {spec.axis} | {len(common)} | {rho:+.3f} |")
    prior = load_prior()
    for axis in ("authority", "credibility"):
        pairs = [(getattr(prior.lookup_host(k, k), axis), v) for k, v in labels.items()]
        pairs = [(a, v) for a, v in pairs if a is not None]
        rho = spearmanr([a for a, _ in pairs], [v for _, v in pairs]).statistic
        print(f"| default prior `{axis}` | combined | {len(pairs)} | {rho:+.3f} |")


if __name__ == "__main__":
    main()
