"""What the LlamaIndex postprocessor's output stage costs, and what leaving the caller's nodes unchanged costs.

``AuthorityPostprocessor`` returns new ``NodeWithScore`` objects holding shallow copies of the
caller's nodes (new metadata with the ``authority`` explanation, new excluded-key lists naming it),
so the caller's nodes are never changed. LlamaIndex's own ``SentenceTransformerRerank`` instead
writes ``metadata["retrieval_score"]`` and ``score`` into the caller's objects. This script times,
in one run on the same 100 documents as ``scripts/bench_adapters.py`` (prior-only, incoming order):

* the core: ``AuthorityReranker.rerank`` on ready-made candidates (the adapters' baseline);
* the whole postprocessor (``postprocess_nodes``) and its overhead over the core;
* its output stage given a ranking, three ways, each checked to return the same order, scores and
  explanations as the shipped one:

  - ``copy (shipped)``: ``AuthorityPostprocessor._nodes``, the caller's nodes unchanged;
  - ``copy, caller's key lists``: the same copies, but the explanation key is appended to the
    caller's own excluded-key lists, which the copies then share (no two new lists per node);
  - ``in place``: the caller's ``NodeWithScore`` objects reordered, the score and the explanation
    written into them (LlamaIndex ``SentenceTransformerRerank``'s way);

and the postprocessor's overhead over the core if its output stage were each variant (the measured
overhead minus the stage's saving). Best of ``--rounds`` rounds of ``--calls`` calls, rounds
interleaved, calling thread's CPU time, garbage collector on.

    .venv/bin/python scripts/bench_llamaindex_output.py          # ~20 s
    .venv/bin/python scripts/bench_llamaindex_output.py --json

A measurement, not a test: it writes nothing unless ``--out`` is given.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # measure this checkout, not an installed copy
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_adapters import _docs, best_ms_interleaved, write_result


def measure(n: int, calls: int, rounds: int) -> dict[str, Any]:
    """Time the core, the postprocessor and the three output stages on ``n`` documents."""
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

    from authorag import adapters
    from authorag.compose import load_scorer
    from authorag.integrations._pydantic import set_dict, set_extra, set_fields_set, set_private
    from authorag.integrations.llamaindex import _CHANGED, META_KEY, AuthorityPostprocessor
    from authorag.scores import FUSED_SCORE
    from authorag.types import Ranking

    pairs = _docs(n)
    query = "does vitamin C prevent colds?"
    scorer = load_scorer()
    reranker, mode = adapters.build_reranker(scorer, "rank")
    cands, _ = adapters.candidates([(u, t, None) for u, t in pairs], mode)
    postprocessor = AuthorityPostprocessor(scorer=scorer, relevance="auto")
    bundle = QueryBundle(query)

    def fresh() -> list[NodeWithScore]:
        return [NodeWithScore(node=TextNode(text=t, metadata={"source": u})) for u, t in pairs]

    nodes = {name: fresh() for name in ("full", "copy", "shared", "inplace")}
    built, rmode = postprocessor._ready()  # pyright: ignore[reportPrivateUsage]
    _, cands_pp, source = postprocessor._candidates(nodes["copy"], bundle, built, rmode)  # pyright: ignore[reportPrivateUsage]
    ranking = built.rerank_owned(query, cands_pp)

    def shared_lists(ns: list[NodeWithScore], r: Ranking) -> list[NodeWithScore]:
        out: list[NodeWithScore] = []
        for cand, explanation in zip(r.candidates, adapters.breakdowns(r, source)):
            node = ns[int(cand.id)].node
            state = node.__dict__
            metadata = state["metadata"].copy()
            metadata[META_KEY] = explanation
            for lists in (state["excluded_llm_metadata_keys"], state["excluded_embed_metadata_keys"]):
                if META_KEY not in lists:
                    lists.append(META_KEY)  # the caller's list, shared by the copy
            fields = state.copy()
            fields["metadata"] = metadata
            copy = object.__new__(type(node))
            set_dict(copy, fields)
            set_fields_set(copy, node.__pydantic_fields_set__ | _CHANGED)
            set_extra(copy, None)
            set_private(copy, None)
            scored = object.__new__(NodeWithScore)
            set_dict(scored, {"node": copy, "score": cand.scores[FUSED_SCORE]})
            set_fields_set(scored, {"node", "score"})
            set_extra(scored, None)
            set_private(scored, None)
            out.append(scored)
        return out

    def in_place(ns: list[NodeWithScore], r: Ranking) -> list[NodeWithScore]:
        out: list[NodeWithScore] = []
        for cand, explanation in zip(r.candidates, adapters.breakdowns(r, source)):
            scored = ns[int(cand.id)]
            state = scored.node.__dict__
            state["metadata"][META_KEY] = explanation
            for lists in (state["excluded_llm_metadata_keys"], state["excluded_embed_metadata_keys"]):
                if META_KEY not in lists:
                    lists.append(META_KEY)
            scored.__dict__["score"] = cand.scores[FUSED_SCORE]
            out.append(scored)
        return out

    stages = {"copy (shipped)": lambda: postprocessor._nodes(nodes["copy"], ranking, source),  # pyright: ignore[reportPrivateUsage]
              "copy, caller's key lists": lambda: shared_lists(nodes["shared"], ranking),
              "in place": lambda: in_place(nodes["inplace"], ranking)}
    shipped = stages["copy (shipped)"]()
    for name, stage in stages.items():  # every variant returns what the shipped stage returns
        got = stage()
        same = [(s.node.metadata, s.score, s.node.excluded_llm_metadata_keys) for s in got] == \
               [(s.node.metadata, s.score, s.node.excluded_llm_metadata_keys) for s in shipped]
        if not same:
            raise SystemExit(f"{name}: output differs from the shipped stage")
    fns = {"core AuthorityReranker.rerank": lambda: reranker.rerank(query, cands),
           "LlamaIndex AuthorityPostprocessor": lambda: postprocessor.postprocess_nodes(nodes["full"], bundle),
           **{f"output stage: {k}": v for k, v in stages.items()}}
    ms = best_ms_interleaved(fns, calls, rounds)
    over = ms["LlamaIndex AuthorityPostprocessor"] - ms["core AuthorityReranker.rerank"]
    base = ms["output stage: copy (shipped)"]
    implied = {k: over - (base - ms[f"output stage: {k}"]) for k in stages}
    return {"documents": n, "calls": calls, "rounds": rounds, "ms_per_call": ms, "overhead_ms": over,
            "overhead_if_output_stage_ms": implied}


def main(argv: list[str] | None = None) -> int:
    """Print the table (or JSON); exit 0 (a measurement, not a test)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--documents", type=int, default=100)
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    out = measure(args.documents, args.calls, args.rounds)
    if args.out:
        write_result(args.out, out, argv, script="bench_llamaindex_output.py")
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{out['documents']} documents, prior-only; best of {args.rounds} rounds x {args.calls} calls")
    core = out["ms_per_call"]["core AuthorityReranker.rerank"]
    for name, value in out["ms_per_call"].items():
        print(f"{name:<45} {value:7.3f} ms  {value / core:5.2f} x core")
    print(f"postprocessor overhead over the core: {out['overhead_ms']:+.3f} ms")
    for name, value in out["overhead_if_output_stage_ms"].items():
        print(f"  with the output stage '{name}': {value:+.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
