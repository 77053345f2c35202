"""Benchmark the relevance signals: embedding throughput, FAISS latency, authority-fusion overhead.

Usage:
    .venv/bin/python scripts/bench_relevance.py                  # 10k and 1M vectors (~1.5 GB RAM each copy)
    .venv/bin/python scripts/bench_relevance.py --sizes 10000    # quick run
    .venv/bin/python scripts/bench_relevance.py --json results.json

Sections:
1. Embedding throughput of the bundled all-MiniLM-L6-v2 (docs/s) on real page texts from the
   vendored TREC 2019 health-misinformation set (pages truncated by the model at 256 tokens)
   and on short passages (their first 60 words).
2. FAISS query latency at each size, for flat, IVF and HNSW indexes over random L2-normalized
   384-dim float32 vectors (random data: the worst case for IVF/HNSW recall). One query at a
   time; recall@10 of the approximate indexes against flat search on the same queries.
3. Added latency of authority fusion: ``AuthorityReranker(load_prior(), relevance=dense)`` vs the
   dense rerank alone (``DenseRelevance.score`` + sort) over 100 candidates, run interleaved in
   the same process; also the authority stage alone on pre-scored candidates. Ratios are against
   the baseline measured in this run.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from authorag.priors.base import AuthorityScorer
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.dense import DenseEncoder, DenseRelevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.retrieval.faiss_index import FaissIndex, IndexOptions
from authorag.types import AuthorityDetail, Candidate

TREC = ROOT / "authorag" / "benchmarks" / "data" / "trec_hm2019.csv.gz"
QUERY = "Can cranberries prevent urinary tract infections?"


def trec_rows() -> list[dict[str, str]]:
    csv.field_size_limit(10**8)
    with gzip.open(TREC, "rt", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def pct(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


# 1. embeddings ---------------------------------------------------------------------------------
def bench_embeddings(n_docs: int, batch_size: int) -> dict[str, Any]:
    rows = trec_rows()
    pages = [r["text"] for r in rows]
    pages = (pages * (n_docs // len(pages) + 1))[:n_docs]
    short = [" ".join(p.split()[:60]) for p in pages]
    enc = DenseEncoder(batch_size=batch_size)
    load_s = timed(lambda: enc.encode(["warm up"]))
    out: dict[str, Any] = {"model_load_s": load_s, "docs": n_docs, "batch_size": batch_size}
    for label, texts in (("pages_256tok", pages), ("passages_60w", short)):
        enc.encode(texts[:batch_size])  # warm the kernels for this length
        secs = timed(lambda texts=texts: enc.encode(texts))
        out[f"{label}_docs_per_s"] = n_docs / secs
    q_times = [timed(lambda: enc.encode_query(QUERY)) for _ in range(20)]
    out["query_encode_ms_median"] = 1000 * statistics.median(q_times)
    return out


# 2. FAISS --------------------------------------------------------------------------------------
def random_unit(n: int, dim: int, seed: int, chunk: int = 100_000) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, chunk):
        block = rng.standard_normal((min(chunk, n - start), dim), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start:start + block.shape[0]] = block
    return out


def query_latency(index: FaissIndex, queries: np.ndarray, k: int = 10) -> tuple[list[float], np.ndarray]:
    index.search(queries[:1], k)  # warm up
    times: list[float] = []
    found: list[np.ndarray] = []
    for q in queries:
        t0 = time.perf_counter()
        _, pos = index.search(q[None, :], k)
        times.append(time.perf_counter() - t0)
        found.append(pos[0])
    return times, np.stack(found)


def recall(approx: np.ndarray, exact: np.ndarray) -> float:
    return float(np.mean([len(set(a) & set(e)) / len(e) for a, e in zip(approx.tolist(), exact.tolist())]))


def bench_faiss(n: int, dim: int, n_queries: int, kinds: Sequence[str], hnsw_max: int,
                ivf: IndexOptions, hnsw: IndexOptions, sweep: dict[str, list[int]]) -> list[dict[str, Any]]:
    data = random_unit(n, dim, seed=n)
    queries = random_unit(n_queries, dim, seed=n + 1)
    results: list[dict[str, Any]] = []
    exact: np.ndarray | None = None
    for kind in kinds:
        if kind == "hnsw" and n > hnsw_max:
            print(f"  skip hnsw at n={n:,} (> --hnsw-max {hnsw_max:,})", flush=True)
            continue
        opts = {"flat": IndexOptions(), "ivf": ivf, "hnsw": hnsw}[kind]
        t0 = time.perf_counter()
        index = FaissIndex.build(data, opts)
        build_s = time.perf_counter() - t0
        for knob, value in _settings(kind, index, sweep):
            times, found = query_latency(index, queries)
            if kind == "flat":
                exact = found
            row = {"n": n, "dim": dim, "kind": kind, "build_s": build_s, knob: value,
                   "latency_ms_median": 1000 * statistics.median(times), "latency_ms_p95": 1000 * pct(times, 95),
                   "recall_at_10": None if exact is None else recall(found, exact),
                   "options": {k: v for k, v in vars_of(index.options).items() if k != "kind"}}
            results.append(row)
            label = f"{kind} {knob}={value}" if knob else kind
            print(f"  n={n:>9,} {label:<16} build {build_s:7.1f} s  query median {row['latency_ms_median']:8.3f} ms"
                  f"  p95 {row['latency_ms_p95']:8.3f} ms  recall@10 {fmt(row['recall_at_10'])}", flush=True)
        del index
    return results


def _settings(kind: str, index: FaissIndex, sweep: dict[str, list[int]]) -> Iterator[tuple[str, int | None]]:
    """Apply each search-time setting of the sweep in turn, yielding its name and value."""
    if kind == "flat":
        yield "", None
        return
    knob = "nprobe" if kind == "ivf" else "ef_search"
    for value in sweep[knob]:
        if kind == "ivf":
            index.index.nprobe = min(value, index.index.nlist)
        else:
            index.index.hnsw.efSearch = value
        yield knob, value


def vars_of(opts: IndexOptions) -> dict[str, Any]:
    return {f: getattr(opts, f) for f in opts.__dataclass_fields__}


def fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


# 3. authority fusion ---------------------------------------------------------------------------
class _TinyAuthority:
    """Fallback scorer when authorag.priors.load_prior is not available."""

    name = "tiny"
    table: ClassVar[dict[str, float]] = {"nih.gov": 0.95, "cdc.gov": 0.95, "mayoclinic.org": 0.9, "webmd.com": 0.8}

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        return [AuthorityDetail(authority=self.table.get(c.domain or ""), confidence=1.0, tier="table")
                if c.domain in self.table else AuthorityDetail(None, 0.0, "unknown") for c in candidates]


def load_scorer() -> tuple[AuthorityScorer, str, float]:
    t0 = time.perf_counter()
    try:
        from authorag.priors import load_prior
    except ImportError:
        return _TinyAuthority(), "tiny in-script table (load_prior unavailable)", 0.0
    prior = load_prior()
    return prior, f"load_prior() sources={list(prior.source_names)}", time.perf_counter() - t0


def bench_fusion(n_cands: int, repeats: int) -> dict[str, Any]:
    rows = trec_rows()
    rows.sort(key=lambda r: (r["topic_id"] != "1", r["doc_id"]))  # topic 1 (cranberries) first
    cands = [Candidate.create(r["url"], r["text"], id=r["doc_id"]) for r in rows[:n_cands]]
    dense = DenseRelevance()
    scorer, scorer_desc, prior_load_s = load_scorer()
    full = AuthorityReranker(scorer, relevance=dense, weight=0.3)
    auth_only = AuthorityReranker(scorer, weight=0.3)

    def baseline() -> None:
        scores = dense.score(QUERY, cands)
        sorted(zip(scores, range(len(cands))), reverse=True)

    prescored = [c.with_score("relevance", s) for c, s in zip(cands, dense.score(QUERY, cands))]
    baseline()
    full.rerank(QUERY, cands)  # warm up (first prior lookups, caches)
    t_base: list[float] = []
    t_full: list[float] = []
    t_auth: list[float] = []
    for _ in range(repeats):  # interleaved, so load changes on the machine hit both alike
        t_base.append(timed(baseline))
        t_full.append(timed(lambda: full.rerank(QUERY, cands)))
        t_auth.append(timed(lambda: auth_only.rerank(QUERY, prescored)))
    bm25 = BM25Relevance()
    t_bm25 = [timed(lambda: bm25.score(QUERY, cands)) for _ in range(repeats)]
    b, f, a = statistics.median(t_base), statistics.median(t_full), statistics.median(t_auth)
    return {"candidates": len(cands), "repeats": repeats, "scorer": scorer_desc,
            "prior_load_s": prior_load_s, "dense_rerank_ms": 1000 * b, "dense_plus_authority_ms": 1000 * f,
            "end_to_end_ratio": f / b, "authority_stage_ms": 1000 * a, "authority_stage_ratio": a / b,
            "bm25_score_ms": 1000 * statistics.median(t_bm25)}


def set_threads(n: int) -> None:
    """Pin torch and faiss to ``n`` threads (on a shared, oversubscribed machine OpenMP threads
    that spin-wait for each other make a 10k flat query ~50x slower with 2 threads than with 1)."""
    if n <= 0:
        return
    import faiss
    import torch

    torch.set_num_threads(n)
    faiss.omp_set_num_threads(n)


def machine() -> dict[str, Any]:
    import faiss
    import sentence_transformers
    import torch

    return {"python": platform.python_version(), "cpus": os.cpu_count(), "machine": platform.machine(),
            "torch": torch.__version__, "torch_threads": torch.get_num_threads(),
            "sentence_transformers": sentence_transformers.__version__, "faiss": faiss.__version__,
            "faiss_threads": faiss.omp_get_max_threads(), "loadavg_start": os.getloadavg(),
            "cpu_pressure": _cpu_pressure(), "matmul_1000_s": _matmul_probe()}


def _matmul_probe() -> float:
    """Median time of a 1000x1000 float32 matmul: a quick gauge of how contended the CPU is."""
    a = np.random.default_rng(0).standard_normal((1000, 1000), dtype=np.float32)
    return statistics.median(timed(lambda: a @ a) for _ in range(5))


def _cpu_pressure() -> str | None:
    try:
        return Path("/proc/pressure/cpu").read_text(encoding="utf-8").splitlines()[0]
    except OSError:
        return None


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sizes", default="10000,1000000", help="comma-separated index sizes")
    ap.add_argument("--dim", type=int, default=384)
    ap.add_argument("--queries", type=int, default=200, help="single queries timed per index")
    ap.add_argument("--kinds", default="flat,ivf,hnsw")
    ap.add_argument("--hnsw-max", type=int, default=100_000, help="skip HNSW above this size (slow build)")
    ap.add_argument("--nlist", type=int, default=1024, help="IVF lists at 1M vectors (scaled by sqrt(n / 1M))")
    ap.add_argument("--nprobe", default="16,64,256", help="IVF lists probed (comma-separated sweep)")
    ap.add_argument("--ef-search", default="64,256", help="HNSW search beam (comma-separated sweep)")
    ap.add_argument("--docs", type=int, default=128, help="documents embedded for throughput")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--candidates", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch and faiss (OpenMP) threads; 0 keeps the libraries' defaults")
    ap.add_argument("--skip", default="", help="comma-separated sections to skip: embed,faiss,fusion")
    ap.add_argument("--json", type=Path, help="also write all results here")
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    set_threads(args.threads)
    out: dict[str, Any] = {"command": " ".join(sys.argv), "threads": args.threads, "machine": machine()}
    print(f"machine: {out['machine']}", flush=True)
    if "embed" not in skip:
        print("1. embedding throughput (all-MiniLM-L6-v2, CPU)", flush=True)
        out["embeddings"] = bench_embeddings(args.docs, args.batch_size)
        print("  " + json.dumps(out["embeddings"]), flush=True)
    if "faiss" not in skip:
        print(f"2. FAISS single-query latency, top-10, random unit vectors dim {args.dim}", flush=True)
        sizes = [int(s) for s in args.sizes.split(",")]
        out["faiss"] = []
        for n in sizes:
            nlist = max(1, round(args.nlist * (n / 1_000_000) ** 0.5))
            ivf = IndexOptions(kind="ivf", nlist=nlist, train_size=max(64 * nlist, 10_000))
            hnsw = IndexOptions(kind="hnsw", m=32, ef_construction=80)
            sweep = {"nprobe": _ints(args.nprobe), "ef_search": _ints(args.ef_search)}
            out["faiss"] += bench_faiss(n, args.dim, args.queries, args.kinds.split(","), args.hnsw_max,
                                        ivf, hnsw, sweep)
    if "fusion" not in skip:
        print(f"3. authority fusion on top of a dense rerank of {args.candidates} candidates", flush=True)
        out["fusion"] = bench_fusion(args.candidates, args.repeats)
        print("  " + json.dumps(out["fusion"]), flush=True)
    out["machine"]["loadavg_end"] = os.getloadavg()
    out["machine"]["cpu_pressure_end"] = _cpu_pressure()
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
