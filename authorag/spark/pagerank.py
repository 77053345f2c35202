"""PageRank of the registrable-domain link graph on Spark DataFrames.

The same definition and stopping rule as :func:`authorag.priors.pagerank.pagerank_scipy`
(damping, uniform teleport, dangling rank spread uniformly, start at 1/N, stop when the L1
change is below ``N * tol``), and the same graph as :func:`authorag.priors.graph.read_edges`:
every endpoint goes through :class:`~authorag.priors.graph.DomainGraphBuilder` (so URL and
host parsing are identical), links inside one domain are dropped, repeated domain pairs become
one edge weighted by their count (or by the sum of a weight column).

Edges stay distributed; each iteration is one join + aggregation, then the new ranks are
checkpointed (which cuts the lineage) and one small aggregation returns the L1 change and the
dangling mass for the next step. Only the per-domain result (N rows) comes back to the driver
to be written as a prior store.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from authorag.errors import ConfigError
from authorag.priors.pagerank import DEFAULT_MAX_ITER, DEFAULT_TOL, PageRankConvergenceError

log = logging.getLogger(__name__)


def _resolve_endpoints(batches: Iterator[Any]) -> Iterator[Any]:
    """mapInPandas body: endpoint text → registrable domain (None when unreadable)."""
    import pandas as pd

    from authorag.priors.graph import DomainGraphBuilder

    for batch in batches:
        builder = DomainGraphBuilder()
        ids = [builder.node(str(u)) for u in batch["endpoint"].tolist()]
        names = builder.build().domains
        domains = [names[i] if isinstance(i, int) else None for i in ids]
        yield pd.DataFrame({"endpoint": batch["endpoint"], "domain": domains})


def read_edge_frame(spark: Any, path: str | Path, *, src_col: str = "0", dst_col: str = "1",
                    weight_col: str | None = None) -> Any:
    """An edge file (TSV/CSV, ``.gz`` ok, or Parquet) as a DataFrame ``(src, dst, weight)``.

    Columns are header names, or 0-based indices for files without a header.
    """
    from pyspark.sql import functions as F

    text = str(path)
    by_index = all(c.isdigit() for c in (src_col, dst_col, weight_col or "0"))
    if text.endswith(".parquet") or Path(text).is_dir() and any(Path(text).glob("*.parquet")):
        df = spark.read.parquet(text)
    else:
        sep = "," if ".csv" in Path(text).name else "\t"
        df = spark.read.csv(text, sep=sep, header=not by_index, quote='"', comment=None)

    def col(spec: str) -> Any:
        return F.col(df.columns[int(spec)]) if by_index else F.col(spec)

    weight = F.lit(1.0) if weight_col is None else col(weight_col).cast("double")
    return df.select(col(src_col).cast("string").alias("src"), col(dst_col).cast("string").alias("dst"),
                     weight.alias("weight"))


def domain_graph(edges: Any) -> tuple[Any, Any, dict[str, int]]:
    """(links ``(src_id, dst_id, weight)``, nodes ``(id, domain)``, counts) from raw edges."""
    from pyspark.sql import functions as F

    endpoints = edges.select(F.col("src").alias("endpoint")).union(edges.select(F.col("dst").alias("endpoint")))
    mapping = endpoints.where(F.col("endpoint").isNotNull()).distinct().mapInPandas(
        _resolve_endpoints, "endpoint string, domain string").cache()
    nodes = (mapping.where(F.col("domain").isNotNull()).select("domain").distinct()
             .withColumn("id", F.monotonically_increasing_id()).cache())
    ids = mapping.join(nodes, "domain").select("endpoint", "id")
    resolved = (edges.join(ids.withColumnRenamed("endpoint", "src").withColumnRenamed("id", "src_id"), "src", "left")
                .join(ids.withColumnRenamed("endpoint", "dst").withColumnRenamed("id", "dst_id"), "dst", "left"))
    readable = F.col("src_id").isNotNull() & F.col("dst_id").isNotNull()
    counts_row = resolved.agg(F.count(F.lit(1)).alias("rows"),
                              F.sum(F.when(~readable, 1).otherwise(0)).alias("skipped"),
                              F.sum(F.when(readable & (F.col("src_id") == F.col("dst_id")), 1).otherwise(0))
                              .alias("self_links")).first()
    links = (resolved.where(readable & (F.col("src_id") != F.col("dst_id")))
             .groupBy("src_id", "dst_id").agg(F.sum("weight").alias("weight")).cache())
    counts = {"rows": int(counts_row["rows"] or 0), "skipped": int(counts_row["skipped"] or 0),
              "self_links": int(counts_row["self_links"] or 0), "nodes": nodes.count(), "edges": links.count()}
    return links, nodes, counts


def pagerank_frame(links: Any, nodes: Any, n: int, *, damping: float = 0.85, tol: float = DEFAULT_TOL,
                   max_iter: int = DEFAULT_MAX_ITER, weighted: bool = True,
                   on_iteration: Callable[[int], None] | None = None) -> tuple[Any, int]:
    """Power iteration on DataFrames; returns (``(id, pagerank)`` DataFrame, iterations).

    Raises:
        PageRankConvergenceError: not converged within ``max_iter`` iterations.
    """
    from pyspark.sql import functions as F

    w = F.col("weight") if weighted else F.lit(1.0)
    out = links.groupBy("src_id").agg(F.sum(w).alias("out_w"))
    trans = (links.join(out, "src_id").select("src_id", "dst_id", (w / F.col("out_w")).alias("p"))
             .repartition("src_id").cache())
    ranks = (nodes.join(out.withColumnRenamed("src_id", "id"), "id", "left")
             .select("id", F.col("out_w").isNull().alias("dangling"), F.lit(1.0 / n).alias("rank"))
             .localCheckpoint())
    dangling_mass = float(ranks.where("dangling").agg(F.sum("rank")).first()[0] or 0.0)
    for it in range(1, max_iter + 1):
        contrib = (trans.join(ranks.select(F.col("id").alias("src_id"), "rank"), "src_id")
                   .groupBy("dst_id").agg(F.sum(F.col("p") * F.col("rank")).alias("c")))
        shift = dangling_mass / n
        new = (ranks.join(contrib.withColumnRenamed("dst_id", "id"), "id", "left")
               .select("id", "dangling", F.col("rank").alias("last"),
                       ((F.coalesce(F.col("c"), F.lit(0.0)) + F.lit(shift)) * damping + (1.0 - damping) / n)
                       .alias("rank"))
               .localCheckpoint())
        row = new.agg(F.sum(F.abs(F.col("rank") - F.col("last"))).alias("l1"),
                      F.sum(F.when(F.col("dangling"), F.col("rank")).otherwise(0.0)).alias("dm")).first()
        ranks, dangling_mass = new.drop("last"), float(row["dm"] or 0.0)
        if on_iteration is not None:
            on_iteration(it)
        if float(row["l1"]) < n * tol:
            return ranks.select("id", F.col("rank").alias("pagerank")), it
    raise PageRankConvergenceError(f"PageRank did not converge to tol={tol} within max_iter={max_iter} "
                                   "iterations; raise max_iter (CLI: --max-iter) or tol (--tol)")


def spark_pagerank(spark: Any, edges_path: str | Path, *, src_col: str = "0", dst_col: str = "1",
                   weight_col: str | None = None, damping: float = 0.85, tol: float = DEFAULT_TOL,
                   max_iter: int = DEFAULT_MAX_ITER, weighted: bool = True,
                   on_iteration: Callable[[int], None] | None = None,
                   ) -> tuple[list[str], np.ndarray[Any, np.dtype[np.float64]], dict[str, Any]]:
    """Read an edge file, fold it to domains and run PageRank; returns (domains, pagerank, info)."""
    if not 0.0 < damping < 1.0:
        raise ConfigError(f"damping must be in (0, 1), got {damping!r}; 0.85 is the usual choice")
    start = time.perf_counter()
    links, nodes, counts = domain_graph(read_edge_frame(spark, edges_path, src_col=src_col, dst_col=dst_col,
                                                        weight_col=weight_col))
    if counts["nodes"] == 0:
        raise ConfigError(f"no readable links in {str(edges_path)!r} ({counts['skipped']} rows skipped); check "
                          "the columns (--src-col/--dst-col) and format")
    graph_s = time.perf_counter() - start
    ranks, iterations = pagerank_frame(links, nodes, counts["nodes"], damping=damping, tol=tol,
                                       max_iter=max_iter, weighted=weighted, on_iteration=on_iteration)
    table = ranks.join(nodes, "id").select("domain", "pagerank").toPandas()
    info: dict[str, Any] = {"engine": "spark", "iterations": iterations, "damping": damping, "tol": tol,
                            "max_iter": max_iter, "weighted": weighted, **counts, "graph_s": graph_s,
                            "total_s": time.perf_counter() - start}
    log.info("Spark PageRank over %d domains / %d edges: %d iterations", counts["nodes"], counts["edges"], iterations)
    return table["domain"].tolist(), table["pagerank"].to_numpy(dtype=np.float64), info
