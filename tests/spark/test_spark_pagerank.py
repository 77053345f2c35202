"""Spark PageRank equals the scipy builder on the same edge file (graph, iterations, values)."""
from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from authorag.cli import main
from authorag.errors import ConfigError
from authorag.priors.graph import read_edges
from authorag.priors.pagerank import PageRankPrior, rank_normalize
from authorag.priors.store import PriorStore


def _edge_file(path: Path, n_edges: int, n_domains: int, seed: int = 0) -> Path:
    """Hyperlinks between page URLs on sub-domains: skewed targets, repeats, self-links, bad rows."""
    rng = np.random.default_rng(seed)
    tlds = np.array(["com", "org", "co.uk", "de"])
    names = [f"site{i}.{tlds[i % 4]}" for i in range(n_domains)]
    src = rng.integers(0, n_domains, n_edges)
    dst = (rng.pareto(1.2, n_edges) * 3).astype(np.int64) % n_domains
    lines = [f"https://www.{names[a]}/p{a % 7}\thttps://blog.{names[b]}/x\n" for a, b in zip(src.tolist(), dst.tolist())]
    lines += ["not a url\thttps://site1.com/\n", "https://a.site2.com/\tjavascript:void(0)\n"]
    path.write_bytes(gzip.compress("".join(lines).encode()))
    return path


def _compare(spark: Any, edges: Path, **kw: Any) -> None:
    from authorag.spark.pagerank import spark_pagerank

    graph = read_edges(edges)
    ref = PageRankPrior.from_graph(graph, engine="scipy", **kw)
    domains, pagerank, info = spark_pagerank(spark, edges, **kw)
    assert sorted(domains) == sorted(ref.domains)
    assert (info["nodes"], info["edges"], info["rows"]) == (graph.num_nodes, graph.num_edges, graph.rows)
    assert (info["self_links"], info["skipped"]) == (graph.self_links, graph.num_skipped)
    assert info["iterations"] == ref.info["iterations"]
    order = {d: i for i, d in enumerate(domains)}
    idx = np.array([order[d] for d in ref.domains])
    assert float(np.max(np.abs(pagerank[idx] - ref.pagerank))) <= 1e-6
    assert float(np.max(np.abs(rank_normalize(pagerank)[idx] - ref.scores))) <= 1e-6


@pytest.mark.slow
def test_spark_equals_scipy_on_a_small_graph(spark: Any, tmp_path: Path) -> None:
    _compare(spark, _edge_file(tmp_path / "edges.tsv.gz", 3000, 300))


@pytest.mark.slow
def test_cli_spark_engine_writes_the_same_store_as_scipy(spark: Any, tmp_path: Path) -> None:
    edges = _edge_file(tmp_path / "edges.tsv.gz", 2000, 200, seed=1)
    del spark  # the CLI reuses the session (getOrCreate)
    assert main(["priors", "build", "--engine", "spark", "--edges", str(edges), "--out",
                 str(tmp_path / "spark.store"), "--quiet"]) == 0
    assert main(["priors", "build", "--engine", "scipy", "--edges", str(edges), "--out",
                 str(tmp_path / "scipy.store"), "--quiet"]) == 0
    a, b = PriorStore(tmp_path / "spark.store"), PriorStore(tmp_path / "scipy.store")
    assert sorted(a) == sorted(b) and len(a) > 100
    assert max(abs(a[k].value - b[k].value) for k in b) <= 1e-6
    assert max(abs(float(a[k].raw) - float(b[k].raw)) for k in b) <= 1e-6  # type: ignore[arg-type]
    assert a.info()["provenance"]["engine"] == "spark"


@pytest.mark.slow
def test_spark_equals_scipy_at_ten_million_edges(spark: Any, tmp_path: Path) -> None:
    """10 M links, 1 M domains: ~4 min for scipy's read and several minutes of Spark on 2 cores."""
    _compare(spark, _edge_file(tmp_path / "big.tsv.gz", 10_000_000, 1_000_000), tol=1e-8)


def test_spark_engine_needs_an_edge_list_and_a_store(tmp_path: Path) -> None:
    import argparse

    from authorag.cli.spark import build_with_spark

    args = argparse.Namespace(edges=str(tmp_path / "e.tsv"), out=str(tmp_path / "p.csv.gz"))
    with pytest.raises(ConfigError, match=r"--engine spark writes a prior store; name --out like NAME.store"):
        build_with_spark(args)
    with pytest.raises(ConfigError, match=r"give --edges FILE"):
        build_with_spark(argparse.Namespace(edges=None, out="x.store"))
