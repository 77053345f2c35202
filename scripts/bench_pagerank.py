"""Benchmark the PageRank prior builder: time and peak memory, scipy path vs networkx.

Graph: a seeded power-law-ish directed graph (numpy PCG64, ``--seed``, default 0) with
N = edges / 10 nodes; edge sources follow Zipf(0.8) over 70 % of the nodes (the other 30 % are
dangling), targets Zipf(1.0) over all nodes, node ids randomly permuted; duplicate edges and
self-loops are removed and exactly ``edges`` distinct edges kept.

Cases (each in its own subprocess, so the peak resident memory (VmHWM) is the case's own):
  pagerank/<engine>  the PageRank step on int32 edge arrays loaded from .npy
                     (networkx includes building its DiGraph, which it needs)
  build/<engine>     end to end: TSV of page URLs (https://www.site<i>.com/p<j>) →
                     read_edges (parse_host per distinct host) → PageRank → prior .csv.gz
Memory is reported as the process peak (VmHWM) and as that peak minus the process's resident
memory right after its imports and input load ("delta"); for the scipy step also as the
tracemalloc peak of a second run. A tolerance check reports iterations and error per ``tol``. Ratios are against networkx on 1 M edges in the same run.

Usage:
    .venv/bin/python scripts/bench_pagerank.py                 # 1M + 10M scipy, 1M networkx
    .venv/bin/python scripts/bench_pagerank.py --build-sizes 1000000,10000000   # add the 10M file build
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray


def power_law_edges(m: int, seed: int) -> tuple[int, NDArray[np.int32], NDArray[np.int32]]:
    """(n, src, dst): exactly ``m`` distinct non-loop edges over n = m // 10 nodes (see module doc)."""
    n = max(m // 10, 10)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(n)

    def draw(a: float, k: int, size: int) -> NDArray[np.int64]:
        cdf = np.cumsum(np.arange(1, k + 1, dtype=np.float64) ** -a)
        picks = np.searchsorted(cdf / cdf[-1], np.sort(rng.random(size)), side="right").clip(0, k - 1)
        return perm[picks[rng.permutation(size)]]

    size = int(m * 1.3)
    key = np.zeros(0, dtype=np.int64)
    while key.shape[0] < m:  # oversample until there are m distinct edges
        src, dst = draw(0.8, int(0.7 * n), size), draw(1.0, n, size)
        key = np.unique(np.concatenate([key, (src * n + dst)[src != dst]]))
        size = int(size * 0.5)
    key = key[np.sort(rng.choice(key.shape[0], m, replace=False))]
    return n, (key // n).astype(np.int32), (key % n).astype(np.int32)


def write_url_tsv(path: Path, src: NDArray[np.int32], dst: NDArray[np.int32]) -> None:
    """One link per row between page URLs; the page part varies, the host is www.site<i>.com."""
    with path.open("w", encoding="utf-8") as fh:
        fh.write("source\ttarget\n")
        step = 1 << 18
        for start in range(0, src.shape[0], step):
            s, d = src[start:start + step].tolist(), dst[start:start + step].tolist()
            fh.write("".join(f"https://www.site{a}.com/p{(a + b) % 97}\thttps://www.site{b}.com/\n"
                             for a, b in zip(s, d, strict=True)))


def _proc_mb(field: str) -> float:
    """VmHWM (peak) or VmRSS (current) of this process from /proc/self/status, in MiB.

    Not ru_maxrss: Linux carries it over fork+exec, so a child would report the parent's size.
    """
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError(f"{field} not in /proc/self/status (Linux only)")


def _peak_mb() -> float:
    return _proc_mb("VmHWM")


def _rss_mb() -> float:
    return _proc_mb("VmRSS")


def _traced_peak_mb(fn: Any) -> float:
    """Peak bytes allocated while ``fn()`` runs, by tracemalloc (numpy reports its buffers to it)."""
    import tracemalloc

    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one case in this process and return its measurements."""
    import importlib

    for module in ("networkx", "scipy.sparse"):  # imported before timing: no case pays for imports
        importlib.import_module(module)

    from authorag.priors.pagerank import ENGINES, PageRankPrior

    if spec["kind"] == "tolerance":
        return tolerance_check(spec)
    if spec["kind"] == "pagerank":
        src, dst = np.load(spec["src"]), np.load(spec["dst"])
        weight = np.ones(src.shape[0], dtype=np.float64)
        engine = ENGINES[spec["engine"]]
        loaded = _rss_mb()
        start = time.perf_counter()
        scores, iterations = engine(spec["n"], src, dst, weight)
        seconds = time.perf_counter() - start
        np.save(spec["result"], scores)
        out = {"seconds": seconds, "iterations": iterations, "peak_mb": _peak_mb(), "delta_mb": _peak_mb() - loaded}
        if spec["engine"] == "scipy":  # cheap to repeat; networkx under tracemalloc would take minutes
            del scores
            out["traced_mb"] = _traced_peak_mb(lambda: engine(spec["n"], src, dst, weight))
        return out
    from authorag.priors.graph import read_edges

    loaded = _rss_mb()
    start = time.perf_counter()
    graph = read_edges(spec["tsv"])
    read_s = time.perf_counter() - start
    prior = PageRankPrior.from_graph(graph, engine=spec["engine"])
    prior.save(spec["out"])
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "read_seconds": read_s, "nodes": graph.num_nodes, "edges": graph.num_edges,
            "peak_mb": _peak_mb(), "delta_mb": _peak_mb() - loaded}


def tolerance_check(spec: dict[str, Any]) -> dict[str, Any]:
    """Iterations and error of the scipy engine per tol, against a tol = 1e-15/N reference."""
    from authorag.priors.pagerank import pagerank_scipy, rank_normalize

    src, dst, n = np.load(spec["src"]), np.load(spec["dst"]), spec["n"]
    weight = np.ones(src.shape[0], dtype=np.float64)
    ref, ref_iter = pagerank_scipy(n, src, dst, weight, tol=1e-15 / n, max_iter=1000)
    ref_score = rank_normalize(ref)
    rows = []
    for tol in (1e-6, 1e-8, 1e-10):
        x, it = pagerank_scipy(n, src, dst, weight, tol=tol, max_iter=1000)
        rows.append({"tol": tol, "iterations": it, "l1": float(np.abs(x - ref).sum()),
                     "max_score_error": float(np.abs(rank_normalize(x) - ref_score).max())})
    return {"reference_iterations": ref_iter, "rows": rows}


def run_case(spec: dict[str, Any]) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)], capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"case {spec['kind']}/{spec['engine']} failed:\n{proc.stderr[-3000:]}")
    return {**spec, **json.loads(proc.stdout.strip().splitlines()[-1])}


def _fmt(r: dict[str, Any], base: dict[str, Any] | None) -> str:
    ratio = (f"{r['seconds'] / base['seconds']:7.3g}x {r['peak_mb'] / base['peak_mb']:6.3g}x "
             f"{r['delta_mb'] / base['delta_mb']:6.3g}x" if base else "      -       -       -")
    return (f"{r['kind'] + '/' + r['engine']:18} {r['m']:>10,} {r['n']:>9,} {r['seconds']:9.2f} "
            f"{r['peak_mb']:9.0f} {r['delta_mb']:9.0f}  {ratio}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000000,10000000", help="edge counts for the scipy PageRank step")
    ap.add_argument("--networkx-sizes", default="1000000", help="edge counts for networkx")
    ap.add_argument("--build-sizes", default="1000000", help="edge counts for the end-to-end file build (scipy)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tol-check", type=int, default=10_000_000,
                    help="edge count of the graph for the tolerance check (0 skips it)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    sizes = {int(s) for s in f"{args.sizes},{args.networkx_sizes},{args.build_sizes}".split(",") if s}
    print(f"# bench_pagerank: seed {args.seed}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start", flush=True)
    results: list[dict[str, Any]] = []
    agree: list[str] = []
    tol_report: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for m in sorted(sizes):
            t0 = time.perf_counter()
            n, src, dst = power_law_edges(m, args.seed)
            files = {k: str(Path(tmp) / f"{k}_{m}.npy") for k in ("src", "dst")}
            np.save(files["src"], src)
            np.save(files["dst"], dst)
            print(f"# generated {m:,} edges over {n:,} nodes in {time.perf_counter() - t0:.1f} s", flush=True)
            for engine, wanted in (("networkx", args.networkx_sizes), ("scipy", args.sizes)):
                if str(m) in wanted.split(","):
                    results.append(run_case({"kind": "pagerank", "engine": engine, "m": m, "n": n, **files,
                                             "result": str(Path(tmp) / f"pr_{engine}_{m}.npy")}))
                    print("#", _fmt(results[-1], None), flush=True)
            if str(m) in args.build_sizes.split(","):
                tsv = Path(tmp) / f"links_{m}.tsv"
                write_url_tsv(tsv, src, dst)
                results.append(run_case({"kind": "build", "engine": "scipy", "m": m, "n": n, "tsv": str(tsv),
                                         "out": str(Path(tmp) / f"prior_{m}.csv.gz")}))
                print("#", _fmt(results[-1], None), flush=True)
            a, b = Path(tmp) / f"pr_networkx_{m}.npy", Path(tmp) / f"pr_scipy_{m}.npy"
            if a.exists() and b.exists():
                diff = np.abs(np.load(a) - np.load(b))
                agree.append(f"{m:,} edges: scipy vs networkx max |diff| {diff.max():.2e}, L1 {diff.sum():.2e}")
                print("#", agree[-1], flush=True)
            if m == args.tol_check:
                tol_report = run_case({"kind": "tolerance", "engine": "scipy", "m": m, "n": n, **files})
    base = next((r for r in results if r["kind"] == "pagerank" and r["engine"] == "networkx" and r["m"] == 1_000_000), None)
    print(f"\n{'case':18} {'edges':>10} {'nodes':>9} {'seconds':>9} {'peak MB':>9} {'delta MB':>9}  "
          "time / peak / delta vs networkx 1M")
    for r in results:
        print(_fmt(r, base))
    for r in results:
        if r["kind"] == "build":
            print(f"build {r['m']:,}: reading + domain aggregation {r['read_seconds']:.1f} s of {r['seconds']:.1f} s "
                  f"({r['nodes']:,} domains, {r['edges']:,} domain edges)")
    for r in results:
        if "traced_mb" in r:
            print(f"scipy {r['m']:,}: {r['iterations']} iterations, tracemalloc peak {r['traced_mb']:.0f} MB "
                  f"({r['traced_mb'] * 2**20 / r['m']:.0f} bytes/edge)")
    for line in agree:
        print(line)
    if tol_report is not None:
        print(f"tolerance (scipy, {args.tol_check:,} edges; reference tol 1e-15/N took "
              f"{tol_report['reference_iterations']} iterations):")
        for row in tol_report["rows"]:
            print(f"  tol {row['tol']:g}: {row['iterations']:3d} iterations, L1 error {row['l1']:.1e}, "
                  f"max rank-score error {row['max_score_error']:.3f}")
    print(f"# load average {os.getloadavg()[0]:.1f} at end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
