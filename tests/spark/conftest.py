"""Spark test helpers: a local session for the slow tests, a small edge-file writer, and the
check that Spark PageRank equals the scipy builder.

Without pyspark or Java the session fixtures fail with the fix in the message
(``pip install 'authorag[spark]'`` / ``apt-get install default-jre-headless``): the default
suite runs one small Spark module, and a missing runtime must not pass silently.
"""
from __future__ import annotations

import gzip
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from authorag.priors.graph import read_edges
from authorag.priors.pagerank import PageRankPrior, rank_normalize


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """local[2] for the slow tests (the JVM alone takes 10-30 s to start on this 2-core machine)."""
    from authorag.spark.session import spark_session

    session = spark_session("local[2]", app_name="authorag-tests")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def write_edge_file(path: Path, n_edges: int, n_domains: int, seed: int = 0) -> Path:
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


def compare_with_scipy(spark: Any, edges: Path, **kw: Any) -> tuple[list[str], list[str]]:
    """Assert Spark PageRank equals the scipy builder; returns both top-10 domain orders."""
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
    top_spark = [domains[i] for i in np.argsort(-pagerank, kind="stable")[:10].tolist()]
    top_scipy = [ref.domains[i] for i in np.argsort(-ref.pagerank, kind="stable")[:10].tolist()]
    return top_spark, top_scipy


@pytest.fixture
def edge_file() -> Callable[..., Path]:
    return write_edge_file


@pytest.fixture
def spark_equals_scipy() -> Callable[..., tuple[list[str], list[str]]]:
    return compare_with_scipy
