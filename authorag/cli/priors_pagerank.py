"""``authorag priors build``: a PageRank prior file from an edge list or an HTML collection.

Example:
    authorag priors build --edges links.tsv --out prior.csv.gz
    authorag priors build --html-dir mirror/ --out corpus_prior.csv.gz --engine scipy
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from authorag.cli._util import progress_bar
from authorag.errors import ConfigError


def add_parsers(psub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:  # pyright: ignore[reportPrivateUsage]
    """Add ``build`` to the ``authorag priors`` sub-commands."""
    p = psub.add_parser("build", help="build a PageRank prior file from hyperlinks",
                        description="Aggregate hyperlinks to the registrable-domain graph, run PageRank "
                                    "and write a prior file (gzip CSV: domain,pagerank,score,in_degree).")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--edges", metavar="FILE", help="edge list, one link per row (TSV, CSV, Parquet; .gz ok)")
    src.add_argument("--html-dir", metavar="DIR", help="folder of saved .html pages (outlinks of <a href>)")
    src.add_argument("--html-jsonl", metavar="FILE", help='JSONL of {"url": ..., "html": ...} objects')
    p.add_argument("--format", choices=["auto", "tsv", "csv", "parquet"], default="auto",
                   help="edge file format (default: from the file name)")
    p.add_argument("--src-col", default="0", help="source column: header name or 0-based index (default 0)")
    p.add_argument("--dst-col", default="1", help="target column: header name or 0-based index (default 1)")
    p.add_argument("--weight-col", help="optional column holding a link count per row (pre-aggregated lists)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="prior file to write: prior.csv.gz (gzip CSV) or prior.store (memory-mapped store)")
    p.add_argument("--damping", type=float, default=0.85, help="PageRank damping factor (default 0.85)")
    p.add_argument("--engine", choices=["auto", "networkx", "scipy", "spark"], default="auto",
                   help="networkx (reference), scipy (large graphs), spark (graphs beyond one machine; "
                        "extra [spark], writes a .store); auto picks networkx or scipy by size")
    p.add_argument("--spark-master", help="Spark master for --engine spark (default local[*] or spark-submit's)")
    # Defaults live in authorag.priors.pagerank (not imported here: keeps --help free of numpy).
    p.add_argument("--tol", type=float, help="per-node tolerance: stop when the L1 change < N*tol (default 1e-10)")
    p.add_argument("--max-iter", type=int, help="maximum power iterations (default 1000)")
    p.add_argument("--unweighted", action="store_true", help="count each domain pair once, not per link")
    p.add_argument("--json", action="store_true", help="print a JSON summary instead of text")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=_build)


def _read_graph(args: argparse.Namespace) -> Any:
    from authorag.priors.graph import read_edges
    from authorag.priors.outlinks import (
        count_html_files,
        graph_from_documents,
        iter_html_dir,
        iter_html_jsonl,
    )

    if args.edges:
        path = Path(args.edges)
        size = path.stat().st_size if path.is_file() else None
        with progress_bar(f"reading {path.name}", size if args.format != "parquet" else None, args.quiet) as cb:
            return read_edges(path, format=args.format, src_col=args.src_col, dst_col=args.dst_col,
                              weight_col=args.weight_col, progress=cb)
    if args.html_dir:
        if not Path(args.html_dir).is_dir():
            raise ConfigError(f"--html-dir {args.html_dir!r} is not a directory")
        with progress_bar("parsing HTML", count_html_files(args.html_dir), args.quiet) as cb:
            return graph_from_documents(iter_html_dir(args.html_dir), progress=cb)
    with progress_bar("parsing HTML", None, args.quiet) as cb:
        return graph_from_documents(iter_html_jsonl(args.html_jsonl), progress=cb)


def _build(args: argparse.Namespace) -> int:
    from authorag.priors.pagerank import PageRankPrior

    if args.engine == "spark":
        from authorag.cli.spark import build_with_spark

        return build_with_spark(args)

    graph = _read_graph(args)
    if graph.num_nodes == 0:
        raise ConfigError(f"no readable links in the input ({graph.num_skipped} rows skipped: "
                          f"{graph.skipped}); check the columns (--src-col/--dst-col) and format")
    limits = {k: v for k, v in (("tol", args.tol), ("max_iter", args.max_iter)) if v is not None}
    with progress_bar("PageRank", None, args.quiet) as cb:
        prior = PageRankPrior.from_graph(graph, damping=args.damping, engine=args.engine,
                                         weighted=not args.unweighted, on_iteration=cb, **limits)
    if str(args.out).endswith(".store"):  # a memory-mapped prior store instead of the gzip CSV
        from authorag.priors.store.from_pagerank import write_pagerank_store

        out = write_pagerank_store(args.out, prior.domains, prior.pagerank, name=Path(args.out).stem,
                                   info={k: v for k, v in prior.info.items() if k != "skipped"})
    else:
        out = prior.save(args.out)
    top = [prior.domains[i] for i in prior.ranking()[:5]]
    summary: dict[str, Any] = {"version": 1, "out": str(out), **dict(prior.info), "top": top}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"wrote {out}: {graph.num_nodes} domains, {graph.num_edges} edges from {graph.rows} links "
              f"({graph.self_links} self-links dropped, {graph.num_skipped} rows skipped); "
              f"engine {summary['engine']}; top: {', '.join(top)}")
    return 0
