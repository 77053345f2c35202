"""Spark vs scipy PageRank on the same synthetic edge files, and Spark batch annotation throughput.

For each edge count: write a gzip TSV of page-URL links (skewed targets, repeats, self-links),
build the prior with the scipy engine and with Spark local mode, and record wall time, the
iterations and the largest difference of PageRank and of the rank-normalized score. Then score
N synthetic URLs with ``annotate_urls`` (a 1 M-domain store as an extra source) into Spark's
``noop`` sink, and the same URLs with the plain single-process lookup. Core-hours per billion
edges / URLs are extrapolated two ways: the marginal cost between the two largest sizes (the
slope, which leaves out local mode's fixed cost) and the average cost of the largest size (an
upper bound). Results: OUT/spark.json.

Run it under the CPU lock:
    .venv/bin/python scripts/bench_spark.py --edges 1e6 1e7 --urls 1e5 1e6 --out /tmp/bench_spark
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from authorag.priors.graph import read_edges
from authorag.priors.pagerank import PageRankPrior, rank_normalize
from authorag.priors.store.mapped import write_store

TLDS = np.array(["com", "org", "co.uk", "de", "net", "io"])


def edge_file(path: Path, n_edges: int, seed: int = 0) -> Path:
    """Links between ``n_edges / 10`` domains' pages (targets Pareto-skewed)."""
    rng = np.random.default_rng(seed)
    n_domains = max(10, n_edges // 10)
    src = rng.integers(0, n_domains, n_edges)
    dst = (rng.pareto(1.2, n_edges) * 3).astype(np.int64) % n_domains
    with gzip.open(path, "wt", compresslevel=1) as f:
        for a, b in zip(src.tolist(), dst.tolist()):
            f.write(f"https://www.site{a}.{TLDS[a % 6]}/p{a % 7}\thttps://blog.site{b}.{TLDS[b % 6]}/x\n")
    return path


def pagerank_point(spark: Any, n_edges: int, work: Path) -> dict[str, Any]:
    from authorag.spark.pagerank import spark_pagerank

    edges = edge_file(work / f"edges_{n_edges}.tsv.gz", n_edges)
    t = time.perf_counter()
    ref = PageRankPrior.from_graph(read_edges(edges), engine="scipy")
    scipy_s = time.perf_counter() - t
    t = time.perf_counter()
    domains, pagerank, info = spark_pagerank(spark, edges)
    spark_s = time.perf_counter() - t
    order = {d: i for i, d in enumerate(domains)}
    idx = np.array([order[d] for d in ref.domains])
    edges.unlink()
    return {"links": n_edges, "domains": len(ref.domains), "edges": info["edges"], "scipy_s": scipy_s,
            "spark_s": spark_s, "spark_graph_s": info["graph_s"], "iterations_spark": info["iterations"],
            "iterations_scipy": ref.info["iterations"],
            "max_abs_diff_pagerank": float(np.max(np.abs(pagerank[idx] - ref.pagerank))),
            "max_abs_diff_score": float(np.max(np.abs(rank_normalize(pagerank)[idx] - ref.scores)))}


def annotate_point(spark: Any, n_urls: int, store: Path) -> dict[str, Any]:
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.spark.annotate import annotate_urls, score_frame

    rng = np.random.default_rng(1)
    ids = rng.integers(0, 2_000_000, n_urls).tolist()  # half of them in the 1 M-domain store
    urls = [f"https://www.site{i}.{TLDS[i % 6]}/page/{i % 97}" for i in ids]
    df = spark.createDataFrame([(u,) for u in urls], "url string").repartition(4).cache()
    df.count()
    t = time.perf_counter()
    annotate_urls(df, prior_files={"synthetic": str(store)}).write.format("noop").mode("overwrite").save()
    spark_s = time.perf_counter() - t
    table = load_scorer(ScorerSettings(prior_files=(f"synthetic={store}",)))
    sample = urls[:min(n_urls, 100_000)]
    t = time.perf_counter()
    score_frame(sample, table)
    single_us = (time.perf_counter() - t) / len(sample) * 1e6
    df.unpersist()
    return {"urls": n_urls, "spark_s": spark_s, "single_process_us_per_url": single_us}


def per_billion(points: list[dict[str, Any]], size: str, cores: int) -> dict[str, float]:
    """Core-hours per billion ``size`` units: marginal (slope of the two largest) and average."""
    big = points[-1]
    out = {"average": big["spark_s"] * cores / big[size] * 1e9 / 3600}
    if len(points) > 1 and big[size] > points[-2][size]:
        prev = points[-2]
        out["marginal"] = (big["spark_s"] - prev["spark_s"]) * cores / (big[size] - prev[size]) * 1e9 / 3600
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edges", nargs="+", type=float, default=[1e5, 1e6])
    ap.add_argument("--urls", nargs="+", type=float, default=[1e5, 1e6])
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    from authorag.spark.session import spark_session

    work = Path(tempfile.mkdtemp(prefix="bench_spark_"))
    spark = spark_session(args.master, app_name="authorag-bench")
    spark.sparkContext.setLogLevel("ERROR")
    cores = spark.sparkContext.defaultParallelism
    pr = []
    for n in args.edges:
        pr.append(pagerank_point(spark, int(n), work))
        print(json.dumps(pr[-1]), flush=True)
    names = [f"site{i}.{TLDS[i % 6]}" for i in range(1_000_000)]
    store = write_store(work / "synthetic.store", names, np.linspace(0, 1, len(names)), name="synthetic")
    ann = [annotate_point(spark, int(n), store) for n in args.urls]
    spark.stop()
    big_pr, big_ann = pr[-1], ann[-1]
    report = {
        "command": "scripts/bench_spark.py --edges " + " ".join(f"{n:g}" for n in args.edges) + " --urls "
                   + " ".join(f"{n:g}" for n in args.urls) + f" --master {args.master}",
        "cores": cores, "load_average_at_end": os.getloadavg(), "pagerank": pr, "annotate": ann,
        "extrapolated": {
            "pagerank_core_hours_per_billion_links": per_billion(pr, "links", cores),
            "annotate_core_hours_per_billion_urls": per_billion(ann, "urls", cores),
            "scipy_core_hours_per_billion_links": big_pr["scipy_s"] / big_pr["links"] * 1e9 / 3600,
            "single_process_hours_per_billion_urls": big_ann["single_process_us_per_url"] * 1e9 / 1e6 / 3600},
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "spark.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
