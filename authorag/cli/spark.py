"""``authorag spark score`` and the Spark engine of ``authorag priors build``.

Example:
    authorag spark score --input urls.parquet --url-col url --prior-file tranco=tranco.store --output scored.parquet
    authorag priors build --engine spark --edges links.tsv.gz --out links.store
    spark-submit --master yarn -m authorag spark score ...   (see docs/scale.md)
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from authorag.cli._util import JSON_VERSION, Subparsers
from authorag.compose import split_prior_file
from authorag.errors import ConfigError


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``spark`` to the CLI."""
    sp = sub.add_parser("spark", help="Spark jobs: batch authority annotation (extra [spark])")
    ssub = sp.add_subparsers(dest="spark_command", metavar="SUBCOMMAND", required=True)
    p = ssub.add_parser("score", help="add authority columns to a table of URLs (Parquet, CSV or text)",
                        description="Read URLs, score each with the prior table (shipped sources plus "
                                    "--prior-file stores) on the executors, write Parquet.")
    p.add_argument("--input", required=True, help="Parquet file/folder, CSV with header, or text (one URL a line)")
    p.add_argument("--url-col", default="url", help="column holding the URL (default url; text input: url)")
    p.add_argument("--output", required=True, help="Parquet folder to write")
    p.add_argument("--prior-file", action="append", default=[], metavar="NAME=STORE", help="add a prior store")
    p.add_argument("--exclude", action="append", default=[], metavar="SOURCE", help="leave a shipped source out")
    p.add_argument("--optin", action="append", default=[], metavar="SOURCE", help="add an opt-in source")
    p.add_argument("--master", help="Spark master (default: what spark-submit set, else local[*])")
    p.add_argument("--mode", choices=["error", "overwrite"], default="error", help="if --output exists")
    p.set_defaults(func=_score)


def _stores(specs: list[str]) -> dict[str, str]:
    return dict(split_prior_file(spec, "--prior-file") for spec in specs)


def _session(master: str | None) -> Any:
    from authorag.spark.session import spark_session

    spark = spark_session(master)
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _read_urls(spark: Any, path: str, url_col: str) -> Any:
    if path.endswith(".parquet") or Path(path).is_dir():
        return spark.read.parquet(path)
    if ".csv" in Path(path).name:
        return spark.read.csv(path, header=True)
    return spark.read.text(path).withColumnRenamed("value", url_col)


def _score(args: argparse.Namespace) -> int:
    from authorag.spark.annotate import annotate_urls

    spark = _session(args.master or _default_master())
    start = time.perf_counter()
    df = _read_urls(spark, args.input, args.url_col)
    scored = annotate_urls(df, args.url_col, prior_files=_stores(args.prior_file), exclude=args.exclude,
                           optin=args.optin)
    scored.write.mode("errorifexists" if args.mode == "error" else "overwrite").parquet(args.output)
    rows = spark.read.parquet(args.output).count()
    print(json.dumps({"version": JSON_VERSION, "output": args.output, "rows": rows,
                      "seconds": round(time.perf_counter() - start, 3)}))
    return 0


def _default_master() -> str | None:
    """None inside spark-submit (it set the master), else local mode on every core."""
    import os

    return None if os.environ.get("SPARK_ENV_LOADED") or os.environ.get("SPARK_SUBMIT") else "local[*]"


def build_with_spark(args: argparse.Namespace) -> int:
    """``authorag priors build --engine spark``: PageRank on Spark, written as a prior store."""
    from authorag.priors.store.from_pagerank import write_pagerank_store
    from authorag.spark.pagerank import spark_pagerank

    if not args.edges:
        raise ConfigError("--engine spark reads an edge list: give --edges FILE (HTML input needs scipy/networkx)")
    if not str(args.out).endswith(".store"):
        raise ConfigError(f"--engine spark writes a prior store; name --out like NAME.store, got {args.out!r}")
    limits = {k: v for k, v in (("tol", args.tol), ("max_iter", args.max_iter)) if v is not None}
    spark = _session(getattr(args, "spark_master", None) or _default_master())
    domains, pagerank, info = spark_pagerank(spark, args.edges, src_col=args.src_col, dst_col=args.dst_col,
                                             weight_col=args.weight_col, damping=args.damping,
                                             weighted=not args.unweighted, **limits)
    out = write_pagerank_store(args.out, domains, pagerank, name=Path(args.out).stem, info=info)
    summary = {"version": 1, "out": str(out), **info}
    print(json.dumps(summary, indent=1) if args.json else
          f"wrote {out}: {info['nodes']} domains, {info['edges']} edges from {info['rows']} links "
          f"({info['self_links']} self-links dropped, {info['skipped']} rows skipped); engine spark, "
          f"{info['iterations']} iterations")
    return 0
