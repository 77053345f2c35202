"""What share of the pages cascade relevance encodes, on the hand-written tracks and on the server
benchmark's requests.

For every case of the trust and no-harm tracks (v1 and v2, dev and test halves) the cascade
(:class:`~authorag.relevance.cascade.CascadeRelevance`, its defaults) scores the case's pages for
its query; the share it encoded is counted per track and split. The same for the requests
``scripts/bench_server.py --fresh-texts`` sends (20 new ~200-word pages each). Writes
``encoded.json`` and ``encoded.md`` to ``--out``. Run by
``bash benchmarks/results/relevance_cost/reproduce_cascade.sh``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

TRACKS = ("trust-pairs", "no-harm-pairs", "no-harm-lists", "no-harm-hard",
          "trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2")
SPLITS = ("dev", "test")


def track_shares(cascade: Any) -> dict[str, dict[str, dict[str, float]]]:
    """track -> split -> {"pages", "encoded", "share"}."""
    from authorag.benchmarks.tracks.trust_data import load_cases
    from authorag.types import Candidate

    out: dict[str, dict[str, dict[str, float]]] = {}
    for track in TRACKS:
        for split in SPLITS:
            pages = encoded = 0
            for case in load_cases(track, split):
                cands = [Candidate.create(p.url, p.text) for p in case.pages]
                flags = cascade.score_encoded(case.query, cands)[1]
                pages += len(flags)
                encoded += sum(flags)
            out.setdefault(track, {})[split] = {"pages": pages, "encoded": encoded,
                                                "share": round(encoded / max(pages, 1), 4)}
    return out


def bench_share(cascade: Any, requests: int) -> dict[str, float]:
    """The share encoded of ``requests`` requests of the server benchmark (20 new ~200-word pages)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_server import payload  # pyright: ignore[reportMissingImports]

    from authorag.types import Candidate

    pages = encoded = 0
    for variant in range(1, requests + 1):
        body = payload(20, variant, 200, True)
        cands = [Candidate.create(doc.split("\nurl: ")[1].split("\n")[0], doc.split("\ntext: ")[1])
                 for doc in body["documents"]]
        flags = cascade.score_encoded(body["query"], cands)[1]
        pages += len(flags)
        encoded += sum(flags)
    return {"requests": requests, "pages": pages, "encoded": encoded, "share": round(encoded / max(pages, 1), 4)}


def markdown(results: dict[str, Any]) -> str:
    lines = ["# Pages cascade relevance encodes", "",
             "Made by `bash benchmarks/results/relevance_cost/reproduce_cascade.sh` "
             f"(scripts/eval_relevance_cascade.py; `CascadeRelevance()`: {results['cascade']}).", "",
             "| pages of | split | pages | encoded | share |", "|---|---|---|---|---|"]
    for track, splits in results["tracks"].items():
        for split, row in splits.items():
            lines.append(f"| {track} | {split} | {row['pages']} | {row['encoded']} | {row['share']:.2f} |")
    b = results["bench"]
    lines.append(f"| bench_server.py --fresh-texts ({b['requests']} requests of 20 pages) | | {b['pages']} | "
                 f"{b['encoded']} | {b['share']:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Share of pages cascade relevance encodes.")
    parser.add_argument("--out", type=Path, required=True, help="folder for encoded.md and encoded.json")
    parser.add_argument("--requests", type=int, default=50, help="benchmark requests counted (default 50)")
    args = parser.parse_args()
    import torch

    from authorag.relevance.cascade import CascadeRelevance

    torch.set_num_threads(1)  # one thread: OpenMP teams thrash on a shared machine
    cascade = CascadeRelevance()
    enc = cascade.dense.encoder
    settings = (f"encode_top={cascade.encode_top}, lexical_floor={cascade.lexical_floor}, "
                f"below_window={cascade.below_window}, precision={enc.precision}, max_tokens={enc.max_tokens}")
    results = {"cascade": settings, "tracks": track_shares(cascade), "bench": bench_share(cascade, args.requests)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "encoded.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "encoded.md").write_text(markdown(results))
    print(markdown(results))


if __name__ == "__main__":
    main()
