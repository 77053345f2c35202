"""What one dense encode costs by torch threads and pages per forward pass, each in a fresh process.

For each setting (``--threads`` x ``--batch``) a new Python process loads the bundled MiniLM the
way the server does (:class:`authorag.relevance.dense.DenseRelevance`, lead of 128 tokens), sets
torch's threads, encodes ``--pages`` new ~200-word pages (the overload script's pages) and reports
wall time, CPU time per page, and resident memory before, at its peak and after the encode, and
after the allocator returned its free memory (``malloc_trim``). Processes run one after another;
``--also-busy`` runs each setting a second time beside a copy of itself (two workers on the same
cores). The machine's load average is recorded with each result.

Usage:
    .venv/bin/python scripts/bench_encode.py --json docs/results/perf/encode_threads_batch.json
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def child(threads: int, batch: int, pages: int) -> dict[str, Any]:
    """One measurement, in this process (the parent starts a new one for each)."""
    sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]
    import torch
    from bench_server import payload

    from authorag.relevance.dense import DenseRelevance
    from authorag.server.encoding import release_memory

    torch.set_num_threads(threads)
    dense = DenseRelevance(batch_size=batch, cache_size=0)
    dense.warm_up()
    texts = [d.split("\ntext: ", 1)[1] for d in payload(pages, 7, 200, fresh_texts=True)["documents"]]

    def rss() -> float:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    before, t0, c0 = rss(), time.perf_counter(), time.process_time()
    dense.cosines("does cranberry juice prevent urinary tract infections", texts)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak, after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, rss()
    release_memory()
    return {"threads": threads, "batch": batch, "pages": pages, "wall_s": round(wall, 2),
            "cpu_ms_per_page": round(1000 * cpu / pages, 1), "wall_ms_per_page": round(1000 * wall / pages, 1),
            "rss_before_mb": round(before, 1), "rss_peak_mb": round(peak, 1), "rss_after_mb": round(after, 1),
            "rss_trimmed_mb": round(rss(), 1)}


def run(threads: int, batch: int, pages: int, copies: int) -> list[dict[str, Any]]:
    """``copies`` processes measuring the same setting at once."""
    cmd = [sys.executable, __file__, "--child", str(threads), str(batch), str(pages)]
    load = os.getloadavg()[0]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
             for _ in range(copies)]
    out = [json.loads(p.communicate(timeout=1800)[0].strip().splitlines()[-1]) for p in procs]
    return [{**r, "copies": copies, "load_average_before": round(load, 2)} for r in out]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--batch", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--pages", type=int, default=100)
    ap.add_argument("--also-busy", action="store_true", help="also run two copies of each setting at once")
    ap.add_argument("--child", type=int, nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    results: list[dict[str, Any]] = []
    for copies in (1, 2) if args.also_busy else (1,):
        for threads in args.threads:
            for batch in args.batch:
                results += run(threads, batch, args.pages, copies)
                print(json.dumps(results[-1]), flush=True)
    report = {"command": " ".join(["scripts/bench_encode.py", *(argv if argv is not None else sys.argv[1:])]),
              "cpus": os.cpu_count(), "python": platform.python_version(), "results": results}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
