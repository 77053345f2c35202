"""Spark PageRank equals the scipy builder on the same edge file (graph, iterations, values): the
CLI engine and 10 M links (slow; the small-graph check runs in the default suite, test_spark_local.py)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from authorag.cli import main
from authorag.errors import ConfigError
from authorag.priors.store.mapped import PriorStore


@pytest.mark.slow
def test_cli_spark_engine_writes_the_same_store_as_scipy(spark: Any, tmp_path: Path,
                                                         edge_file: Callable[..., Path]) -> None:
    edges = edge_file(tmp_path / "edges.tsv.gz", 2000, 200, seed=1)
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
def test_spark_equals_scipy_at_ten_million_edges(spark: Any, tmp_path: Path, edge_file: Callable[..., Path],
                                                 spark_equals_scipy: Callable[..., tuple[list[str], list[str]]]) -> None:
    """10 M links, 1 M domains: ~4 min for scipy's read and several minutes of Spark on 2 cores."""
    top_spark, top_scipy = spark_equals_scipy(spark, edge_file(tmp_path / "big.tsv.gz", 10_000_000, 1_000_000),
                                              tol=1e-8)
    assert top_spark == top_scipy


def test_spark_engine_needs_an_edge_list_and_a_store(tmp_path: Path) -> None:
    import argparse

    from authorag.cli.spark import build_with_spark

    args = argparse.Namespace(edges=str(tmp_path / "e.tsv"), out=str(tmp_path / "p.csv.gz"))
    with pytest.raises(ConfigError, match=r"--engine spark writes a prior store; name --out like NAME.store"):
        build_with_spark(args)
    with pytest.raises(ConfigError, match=r"give --edges FILE"):
        build_with_spark(argparse.Namespace(edges=None, out="x.store"))
