"""Throughput of the learned prior (domains/s, batched) against a dict lookup, same run.

Domains: every registrable domain of the shipped sources and of MBFC 2026 (~40k names of
realistic length), shuffled and repeated to ``--n``. Timings are the best of ``--repeat`` runs
(the machine is shared; the best run is the least disturbed one), both wall-clock and CPU time
of this process, with the load average, because other jobs on the machine slow the wall clock.

    .venv/bin/python scripts/bench_learned_prior.py            # text
    .venv/bin/python scripts/bench_learned_prior.py --json
"""
from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from importlib import resources

from authorag.priors.learned.eval import credauth_track
from authorag.priors.learned.model import ARTIFACT, META, load_learned_prior
from authorag.priors.learned.train import registrable_values


def _domains(n: int, seed: int) -> list[str]:
    names: set[str] = set()
    for source in ("ccnews_pagerank", "majestic", "moz"):
        names.update(registrable_values(source))
    names.update(credauth_track().domains)
    pool = sorted(names)
    random.Random(seed).shuffle(pool)
    return (pool * (n // len(pool) + 1))[:n]


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU (process) time over ``repeat`` runs."""
    wall, cpu = float("inf"), float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000, help="domains per timed run")
    parser.add_argument("--batch", type=int, default=50_000, help="domains per predict() call")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    t0 = time.perf_counter()
    prior = load_learned_prior()
    prior.predict(["warm.up"])  # builds the word bitmap once
    load_s = time.perf_counter() - t0
    domains = _domains(args.n, args.seed)
    table = {d: 0.5 for d in set(domains)}

    def learned() -> None:
        for i in range(0, len(domains), args.batch):
            prior.predict(domains[i:i + args.batch])

    def lookup() -> None:
        get = table.get
        _ = [get(d) for d in domains]

    load_before = os.getloadavg()[0]
    t_learned, cpu_learned = _best(learned, args.repeat)
    t_dict, cpu_dict = _best(lookup, args.repeat)
    data = resources.files("authorag.data")
    sizes = {name: len(data.joinpath(name).read_bytes()) for name in (ARTIFACT, META, "learned_prior_words.txt.gz")}
    out = {
        "domains": len(domains), "distinct": len(table), "batch": args.batch, "repeat": args.repeat,
        "learned_domains_per_s": round(len(domains) / t_learned), "dict_lookups_per_s": round(len(domains) / t_dict),
        "learned_us_per_domain": round(1e6 * t_learned / len(domains), 3), "load_and_warmup_s": round(load_s, 3),
        "learned_domains_per_cpu_s": round(len(domains) / cpu_learned),
        "dict_lookups_per_cpu_s": round(len(domains) / cpu_dict),
        "cpus": os.cpu_count(), "load_average_1min": round(load_before, 2),
        "artifact_bytes": sizes,
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"learned prior: {out['learned_domains_per_s']:,} domains/s "
              f"({out['learned_us_per_domain']} µs/domain, batches of {args.batch}, best of {args.repeat})")
        print(f"dict lookup:   {out['dict_lookups_per_s']:,} lookups/s (same domains, same run)")
        print(f"per CPU second: learned {out['learned_domains_per_cpu_s']:,}/s, dict {out['dict_lookups_per_cpu_s']:,}/s "
              f"(load average {out['load_average_1min']} on {out['cpus']} CPUs)")
        print(f"load + warm-up: {out['load_and_warmup_s']} s; artifact bytes: {sizes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
