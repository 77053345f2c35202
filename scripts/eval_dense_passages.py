"""Does dense relevance that reads more of a long page (passage-max) let trust decide on real pages?

An experiment, not a product component. Dense relevance reads each page's lead (its first 128
tokens, ``LEAD_TOKENS``) and takes the no-harm pairs to 1.00, but on the RAG stand-in's long
TREC pages it keeps credible pages out of the relevance window that BM25 lets in (rerank k = 3:
0.550 against the BM25 default's 0.710, benchmarks/results/trust/README.md, "BM25 or dense").
A page whose lead is navigation or boilerplate has a low lead cosine however well its body
answers. The remedy IR uses for long documents is passage-max (MaxP): split the page into
passages, score each, keep the best.

Here a page is cut into passages of ``--words`` whitespace words (90 by default: about the 128
tokens the lead reads), the first N of them are embedded with the product's own
:class:`~authorag.relevance.dense.DenseRelevance` (the lead setting, one cache for every method)
and the page's relevance is its best passage's cosine. N = 1 is the lead as words, close to the
product's dense relevance, which is run beside it as ``dense``. The scorers are declared to judge
meaning (``semantic = True``), so the reranker caps the words' window by them exactly as it caps
it by dense cosines.

Methods, each through ``adapters.build_reranker`` as the rerank tracks build them (dev halves,
the harder no-harm pairs, graded-trec2019, the RAG stand-in): relevance alone (authority weight
0) and the default. BM25 is the reference row. Needs the ``embeddings`` extra.

Run by ``bash benchmarks/results/trust/reproduce_passages.sh``; writes ``compare.md`` and
``compare.json`` to ``--out``.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from authorag.relevance.dense import DenseRelevance
from authorag.types import Candidate

PASSAGES = (1, 2, 4, 8)
"""Passages of each page read (the first N)."""
WORDS = 90
"""Whitespace words per passage (about 128 MiniLM tokens of ordinary English)."""
METHODS = ("relevance-only", "default")


def passages(text: str, n: int, words: int) -> list[str]:
    """The first ``n`` passages of ``words`` whitespace words of ``text`` (the text itself when it
    has no words).

    Example:
        >>> passages("a b c d e", 2, 2)
        ['a b', 'c d']
    """
    split = text.split()
    if not split:
        return [text]
    return [" ".join(split[i:i + words]) for i in range(0, min(len(split), n * words), words)]


class PassageMax:
    """Relevance of a page: the best cosine over its first ``n`` passages (MaxP)."""

    name = "relevance.dense"
    semantic = True

    def __init__(self, dense: DenseRelevance, n: int, words: int) -> None:
        self.dense, self.n, self.words = dense, n, words

    def score(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        flat: list[str] = []
        owner: list[int] = []
        for i, c in enumerate(candidates):
            for p in passages(c.text, self.n, self.words):
                flat.append(p)
                owner.append(i)
        best = [-1.0] * len(candidates)
        for i, v in zip(owner, self.dense.cosines(query, flat)):
            best[i] = max(best[i], v)
        return best


def run(seed: int, words: int) -> dict[str, Any]:
    from authorag.benchmarks.rag.protocol import cached_dense
    from authorag.benchmarks.tracks.scorer_study import dev_rows

    dense = cached_dense()  # the tracks' own lead scorer: one embedding cache for every passage count
    maxp = {f"maxp-{n}": PassageMax(dense, n, words) for n in PASSAGES}
    return dev_rows(METHODS, maxp, ["bm25", "dense", *maxp], seed)


def markdown(results: dict[str, Any], words: int) -> str:
    from authorag.benchmarks.tracks.scorer_study import rows_markdown

    return rows_markdown(
        results, "Passage-max dense relevance (the best of a page's first N passages) against the lead",
        ("Made by `bash benchmarks/results/trust/reproduce_passages.sh` (scripts/eval_dense_passages.py, "
         f"seed 0, dev halves). Cells: value [bootstrap 95 % CI]. `maxp-N`: the best MiniLM cosine over "
         f"a page's first N passages of {words} words; `dense`: the product's dense relevance (the "
         "first 128 tokens); `bm25` is the reference (the CLI's and the server's default relevance). "
         "Only the rows of the metrics the tracks share are kept (no per-domain breakdown)."),
        breakdown=False)


def main() -> None:
    parser = argparse.ArgumentParser(description="Passage-max dense relevance against the lead (dev tracks).")
    parser.add_argument("--out", type=Path, required=True, help="folder for compare.md and compare.json")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--words", type=int, default=WORDS, help="whitespace words per passage")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = run(args.seed, args.words)
    (args.out / "compare.json").write_text(json.dumps({"seed": args.seed, "words": args.words,
                                                       "passages": list(PASSAGES), "results": results},
                                                      indent=1) + "\n")
    (args.out / "compare.md").write_text(markdown(results, args.words))
    print(f"wrote {args.out / 'compare.md'}")


if __name__ == "__main__":
    main()
