"""``authorag bench tracks``: the command line of :mod:`authorag.benchmarks.generalisation.run`.

Example:
    authorag bench tracks --data-dir /work/shared/data              # every track, dev half
    authorag bench tracks --split test --out /tmp/tracks             # the test half: report, never tune
    authorag bench tracks --tracks trust-pairs-v2,decodex-fr --relevance dense
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from authorag.cli._util import Subparsers


def add_tracks(bsub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``bench tracks``."""
    p = bsub.add_parser("tracks", help="every generalisation track: the default against page evidence off, with CIs")
    p.add_argument("--tracks", default="",
                   help="comma-separated tracks (default all: the hand-written sets from trust-pairs-v2 on, "
                        "which 'authorag bench list' names, and c3-credibility, fakebr-pt, coaid-covid, decodex-fr, "
                        "wikipedia-sources)")
    p.add_argument("--data-dir", help="the shared data folder holding C3, Fake.br, CoAID, Décodex and the Wikipedia "
                                      "lists (default $AUTHORAG_SHARED_DATA; without it those tracks are skipped)")
    p.add_argument("--split", default="dev", choices=["dev", "test", "all"],
                   help="half of the hand-written sets, and of Fake.br and CoAID by registrable domain "
                        "(default dev: tune there; report test)")
    p.add_argument("--relevance", default="bm25", choices=["bm25", "dense", "cascade"],
                   help="relevance of the rerank tracks (default bm25; dense and cascade need the embeddings extra)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-per-domain", type=int, default=300,
                   help="items kept per registrable domain and label in Fake.br and CoAID (default 300)")
    p.add_argument("--limit", type=int, help="at most this many items per shared track (a seeded sample)")
    p.add_argument("--out", help="output folder (default: the user results folder's tracks/)")
    p.set_defaults(func=_tracks)


def _tracks(args: argparse.Namespace) -> int:
    from authorag.benchmarks.generalisation.run import ALL_TRACKS, TracksConfig, run_tracks
    from authorag.benchmarks.generalisation.shared_sets import data_dir
    from authorag.errors import ConfigError
    from authorag.settings import results_dir

    if args.max_per_domain < 1:
        raise ConfigError(f"--max-per-domain must be at least 1, got {args.max_per_domain}")
    tracks = tuple(t.strip() for t in args.tracks.split(",") if t.strip()) or ALL_TRACKS
    cfg = TracksConfig(tracks=tracks, split=args.split, relevance=args.relevance, data_dir=data_dir(args.data_dir),
                       seed=args.seed, max_per_domain=args.max_per_domain, limit=args.limit)
    out = Path(args.out) if args.out else results_dir() / "tracks"
    record = run_tracks(cfg, out, log=lambda msg: print(msg, file=sys.stderr))
    skipped = [e["track"] for e in record["tracks"] if e.get("note")]
    print(json.dumps({"version": 1, "folder": str(out), "table": str(out / "compare.md"), "skipped": skipped,
                      "wall_time_s": record["wall_time_s"]}, indent=2))
    return 0
