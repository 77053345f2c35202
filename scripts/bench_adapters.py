"""Adapter overhead in one run: 100 documents, prior-only authority, same process, same scorer.

Prints milliseconds per call (best of ``--rounds`` rounds of ``--calls`` calls, the surfaces'
rounds interleaved; the minimum is the least disturbed) for the calling thread's CPU time (``time.thread_time``: every call runs in
that thread, and time the scheduler gives to other processes on a shared machine is not counted;
on an idle machine it equals the wall time) for:

* the core: ``AuthorityReranker.rerank`` on ready-made candidates;
* LangChain ``AuthorityCompressor.compress_documents`` (documents in, documents out);
* Haystack ``AuthorityRanker.run`` and Haystack's own ``MetaFieldRanker.run`` (sort by a meta
  score it is given) on the same documents;
* the server's document reading: ``RerankService.rerank`` on a validated request (read the
  documents, build candidates, rerank, build the response dict; no HTTP);
* LlamaIndex ``AuthorityPostprocessor.postprocess_nodes`` (``NodeWithScore`` objects in and out).

and each adapter's overhead over the core. Targets: every adapter adds at most
0.3 ms per 100 documents (the LlamaIndex postprocessor, which copies the caller's nodes, at most
0.4 ms), and the Haystack ranker is faster than MetaFieldRanker.

Agents: a web-search tool's results (``AGENT_RESULTS`` of them, a JSON string in Tavily's shape)
through the LangChain ``AuthorityMiddleware.wrap_tool_call`` (the tool's answer is ready: the
handler returns it), the Haystack ``AuthorityToolHook.run`` (on a state holding the tool-result
message) and the LlamaIndex ``trusted_search_tool`` (``FunctionTool.call``, the search function
returning the answer), against the core on the same results as candidates. Target: each adds at
most 0.5 ms.

LlamaIndex wraps every postprocessor's ``_postprocess_nodes`` in its instrumentation span (an
``inspect.signature`` bind, a uuid4, context variables, the span handlers), so part of that
adapter's overhead is the framework's own, paid by any postprocessor. Two more rows time it, and
neither changes the overhead above or its target:

* ``LlamaIndex span alone (empty postprocessor)``: a postprocessor that returns its nodes, through
  the same ``postprocess_nodes`` entry point (the span with nothing inside);
* ``LlamaIndex AuthorityPostprocessor without the span``: the same postprocessor's
  ``_postprocess_nodes`` as written (``__wrapped__``, what the span wraps), called directly.

The run prints the LlamaIndex overhead net of the span both ways: minus the span alone, and
without the span (the span costs more around real work than alone, as the two show).

Beside the times, what the garbage collector costs each surface: over ``--gc-calls`` more calls,
the collections by generation and their wall time per call (``gc.callbacks``). Objects that
outlive a call's allocations (the documents a surface returns) trigger collections, and a full
one walks every object in the process.

    .venv/bin/python scripts/bench_adapters.py            # ~15 s
    .venv/bin/python scripts/bench_adapters.py --json
    .venv/bin/python scripts/bench_adapters.py --calls 200 --rounds 15 --out docs/results/perf/bench_adapters.json

``--out`` writes the figures with the command, package versions and CPU count (the committed
file changes only through this script).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # measure this checkout, not an installed copy

TARGET_MS = 0.3
LLAMAINDEX_TARGET_MS = 0.4  # the postprocessor keeps the caller's nodes unchanged (copies), which costs more
AGENT_RESULTS = 20
AGENT_TARGET_MS = 0.5
CORE = "core AuthorityReranker.rerank"
AGENT_CORE = f"core AuthorityReranker.rerank ({AGENT_RESULTS} results)"
AGENT_MIDDLEWARE = f"LangChain AuthorityMiddleware ({AGENT_RESULTS} results)"
AGENT_HOOK = f"Haystack AuthorityToolHook ({AGENT_RESULTS} results)"
AGENT_TOOL = f"LlamaIndex trusted_search_tool ({AGENT_RESULTS} results)"
AGENT_SURFACES = (AGENT_MIDDLEWARE, AGENT_HOOK, AGENT_TOOL)
SPAN_ALONE = "LlamaIndex span alone (empty postprocessor)"
WITHOUT_SPAN = "LlamaIndex AuthorityPostprocessor without the span"
FRAMEWORK = (SPAN_ALONE, WITHOUT_SPAN)  # timed with the surfaces; not adapters: no overhead, no target


def _docs(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` (url, text) pairs: half known domains, half unknown, ~60 words of text each."""
    rng = random.Random(seed)
    known = ["www.nih.gov", "www.cdc.gov", "www.bbc.co.uk", "en.wikipedia.org", "www.nytimes.com",
             "someone.blogspot.com", "www.mayoclinic.org", "medium.com", "www.who.int", "www.reuters.com"]
    words = ["vitamin", "cold", "flu", "study", "trial", "dose", "evidence", "risk", "health", "people"]
    out = []
    for i in range(n):
        host = known[i % len(known)] if i % 2 == 0 else f"site-{rng.randrange(10**6)}.example-health.net"
        out.append((f"https://{host}/page/{i}", " ".join(rng.choice(words) for _ in range(60))))
    return out


def best_ms_interleaved(fns: dict[str, Callable[[], object]], calls: int, rounds: int) -> dict[str, float]:
    """Best (minimum) mean milliseconds of this thread's CPU time per call over ``rounds`` rounds
    of ``calls`` calls, for every function, the rounds interleaved (round 1 of each, then round 2
    of each, ...), so a slower spell of the machine falls on every surface alike instead of on
    whichever was being timed then."""
    for fn in fns.values():
        fn()
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.thread_time()
            for _ in range(calls):
                fn()
            best[name] = min(best[name], (time.thread_time() - t0) * 1000 / calls)
    return best


def gc_cost(fn: Callable[[], object], calls: int) -> dict[str, Any]:
    """Collections per generation and milliseconds of wall time in the collector per call, over ``calls`` calls."""
    import gc

    counts = [0, 0, 0]
    spent = [0.0]
    started = [0.0]

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            counts[info["generation"]] += 1
            spent[0] += time.perf_counter() - started[0]

    gc.collect()
    gc.callbacks.append(watch)
    try:
        for _ in range(calls):
            fn()
    finally:
        gc.callbacks.remove(watch)
    return {"ms_per_call": spent[0] * 1000 / calls, "collections": {f"gen{g}": c for g, c in enumerate(counts)},
            "calls": calls}


def measure(n: int, calls: int, rounds: int, gc_calls: int = 1000) -> dict[str, Any]:
    """Time every surface on the same ``n`` documents; returns ms per call and overheads."""
    from haystack import Document as HDocument
    from haystack.components.rankers import MetaFieldRanker
    from langchain_core.documents import Document as LDocument
    from llama_index.core.postprocessor.types import BaseNodePostprocessor
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

    from authorag import adapters
    from authorag.compose import load_scorer
    from authorag.integrations.haystack import AuthorityRanker
    from authorag.integrations.langchain import AuthorityCompressor
    from authorag.integrations.llamaindex import AuthorityPostprocessor
    from authorag.server.config import ServerConfig
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import RerankService

    query = "does vitamin C prevent colds?"
    pairs = _docs(n)
    scorer = load_scorer()
    reranker, mode = adapters.build_reranker(scorer, "rank")
    cands, _ = adapters.candidates([(u, t, None) for u, t in pairs], mode)
    ldocs = [LDocument(page_content=t, metadata={"source": u}) for u, t in pairs]
    hdocs = [HDocument(content=t, meta={"url": u, "authority_score": (i * 7919) % 100 / 100})
             for i, (u, t) in enumerate(pairs)]
    # Every surface on the incoming order (the core above): the conversion cost, not a relevance model's.
    compressor = AuthorityCompressor(scorer=scorer, relevance="auto")
    ranker = AuthorityRanker(relevance="auto")
    ranker.warm_up()
    meta_ranker = MetaFieldRanker(meta_field="authority_score")
    service = RerankService(ServerConfig(relevance="rank"), scorer=scorer)
    service.warm_up()
    request = RerankRequest(query=query, documents=[f"url: {u}\ntext: {t}" for u, t in pairs])
    nodes = [NodeWithScore(node=TextNode(text=t, metadata={"source": u})) for u, t in pairs]
    postprocessor = AuthorityPostprocessor(scorer=scorer, relevance="auto")
    bundle = QueryBundle(query)

    class EmptyPostprocessor(BaseNodePostprocessor):
        """Returns the nodes it is given: LlamaIndex's span around nothing."""

        def _postprocess_nodes(self, nodes: list[NodeWithScore],
                               query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
            return nodes

    empty = EmptyPostprocessor()
    unwrapped = AuthorityPostprocessor._postprocess_nodes.__wrapped__  # what the span wraps

    surfaces: dict[str, Callable[[], object]] = {
        "core AuthorityReranker.rerank": lambda: reranker.rerank(query, cands),
        "LangChain AuthorityCompressor": lambda: compressor.compress_documents(ldocs, query),
        "Haystack AuthorityRanker": lambda: ranker.run(query=query, documents=hdocs),
        "Haystack MetaFieldRanker": lambda: meta_ranker.run(documents=hdocs),
        "server RerankService.rerank": lambda: service.rerank(request, "v2"),
        "LlamaIndex AuthorityPostprocessor": lambda: postprocessor.postprocess_nodes(nodes, bundle),
        SPAN_ALONE: lambda: empty.postprocess_nodes(nodes, bundle),
        WITHOUT_SPAN: lambda: unwrapped(postprocessor, nodes, bundle),
    }
    surfaces.update(_agent_surfaces(scorer, query))
    ms = best_ms_interleaved(surfaces, calls, rounds)
    collector = {name: gc_cost(fn, gc_calls) for name, fn in surfaces.items()}
    core = ms[CORE]
    over = {k: v - core for k, v in ms.items()
            if k not in (CORE, "Haystack MetaFieldRanker", AGENT_CORE, *AGENT_SURFACES, *FRAMEWORK)}
    over.update({k: ms[k] - ms[AGENT_CORE] for k in AGENT_SURFACES})
    llama = over["LlamaIndex AuthorityPostprocessor"]
    span = {"span_alone_ms": ms[SPAN_ALONE], "span_in_context_ms": ms["LlamaIndex AuthorityPostprocessor"] - ms[WITHOUT_SPAN],
            "overhead_net_of_span_alone_ms": llama - ms[SPAN_ALONE], "overhead_without_span_ms": ms[WITHOUT_SPAN] - core}
    ratio = ms["Haystack AuthorityRanker"] / ms["Haystack MetaFieldRanker"]
    met = {f"{k} <= +{target_ms(k)} ms": v <= target_ms(k) for k, v in over.items()}
    met["Haystack AuthorityRanker / MetaFieldRanker < 1"] = ratio < 1.0
    return {"documents": n, "agent_results": AGENT_RESULTS, "calls": calls, "rounds": rounds, "gc": "enabled (as in a user's process)",
            "clock": "CPU time of the calling thread (time.thread_time)",
            "ms_per_call": ms, "overhead_ms": over, "ratio_to_core": {k: v / core for k, v in ms.items()},
            "collector": collector, "llamaindex_span": span,
            "haystack_vs_metafield": ratio, "targets": met, "targets_met": all(met.values())}


def target_ms(surface: str) -> float:
    """The overhead target of ``surface`` over its core."""
    return LLAMAINDEX_TARGET_MS if surface == "LlamaIndex AuthorityPostprocessor" else \
        AGENT_TARGET_MS if surface in AGENT_SURFACES else TARGET_MS


def _agent_surfaces(scorer: Any, query: str) -> dict[str, Callable[[], object]]:
    """The core and the LangChain agent middleware on one web-search tool answer of ``AGENT_RESULTS`` results."""
    from langchain.agents.middleware.types import ToolCallRequest
    from langchain_core.messages import ToolMessage

    from authorag import adapters
    from authorag.integrations.langchain_agents import AuthorityMiddleware

    pairs = _docs(AGENT_RESULTS, seed=1)
    results = [{"url": u, "title": t[:40], "content": t} for u, t in pairs]
    message = ToolMessage(json.dumps({"query": query, "results": results}), tool_call_id="call-1", name="web_search")
    call = {"name": "web_search", "args": {"query": query}, "id": "call-1", "type": "tool_call"}
    request = ToolCallRequest(tool_call=call, tool=None, state={}, runtime=None)  # type: ignore[arg-type]
    middleware = AuthorityMiddleware(scorer=scorer)
    reranker, mode = adapters.build_reranker(scorer, "rank")
    cands, _ = adapters.candidates([(u, f"{t[:40]}\n{t}", None) for u, t in pairs], mode)
    hook, state = _haystack_hook(str(message.content), query)
    tool = _llamaindex_tool(str(message.content), scorer)
    return {AGENT_CORE: lambda: reranker.rerank(query, cands),
            AGENT_MIDDLEWARE: lambda: middleware.wrap_tool_call(request, lambda _r: message),
            AGENT_HOOK: lambda: hook.run(state),  # type: ignore[arg-type]
            AGENT_TOOL: lambda: tool.call(query=query)}


class _State:
    """The two methods of a Haystack agent ``State`` the hook uses; ``get`` always gives the step's messages."""

    def __init__(self, messages: list[Any]) -> None:
        self.messages, self.written = messages, messages

    def get(self, key: str, default: Any = None) -> Any:
        return self.messages

    def set(self, key: str, value: Any, handler_override: Any = None) -> None:
        self.written = value


def _haystack_hook(answer: str, query: str) -> tuple[Any, _State]:
    from haystack.dataclasses import ChatMessage, ToolCall

    from authorag.integrations.haystack_agents import AuthorityToolHook

    origin = ToolCall(tool_name="web_search", arguments={"query": query})
    messages = [ChatMessage.from_user(query), ChatMessage.from_assistant(tool_calls=[origin]),
                ChatMessage.from_tool(tool_result=answer, origin=origin)]
    return AuthorityToolHook(), _State(messages)


def _llamaindex_tool(answer: str, scorer: Any) -> Any:
    from authorag.integrations.llamaindex_tools import trusted_search_tool

    def web_search(query: str) -> str:
        """Search the web."""
        return answer

    return trusted_search_tool(web_search, scorer=scorer)


def main(argv: list[str] | None = None) -> int:
    """Print the table (or JSON); exit 0 either way (this is a measurement, not a test)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--documents", type=int, default=100)
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--gc-calls", type=int, default=1000, help="calls per surface for the collector's figures")
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    out = measure(args.documents, args.calls, args.rounds, args.gc_calls)
    if args.out:
        write_result(args.out, out, argv)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{out['documents']} documents, prior-only; best of {args.rounds} rounds x {args.calls} calls")
    width = max(map(len, out["ms_per_call"]))
    print(f"{'surface':<{width}} {'ms/call':>8} {'x core':>7} {'+ms over core':>14} {'gc ms/call':>11}  "
          f"collections per {args.gc_calls} calls (gen0/1/2)")
    for name, value in out["ms_per_call"].items():
        extra = out["overhead_ms"].get(name)
        gc_row = out["collector"][name]
        print(f"{name:<{width}} {value:8.3f} {out['ratio_to_core'][name]:7.2f} "
              f"{'' if extra is None else f'{extra:+.3f}':>14} {gc_row['ms_per_call']:11.3f}  "
              + "/".join(str(c) for c in gc_row["collections"].values()))
    print(f"Haystack AuthorityRanker / MetaFieldRanker: {out['haystack_vs_metafield']:.2f}; "
          f"targets (adapters <= +{TARGET_MS} ms, LlamaIndex <= +{LLAMAINDEX_TARGET_MS} ms, agent middleware and hooks "
          f"<= +{AGENT_TARGET_MS} ms over the core on {AGENT_RESULTS} results, AuthorityRanker faster than MetaFieldRanker): "
          f"{'met' if out['targets_met'] else 'NOT met'}")
    for target, ok in out["targets"].items():
        print(f"  {'met    ' if ok else 'NOT met'}  {target}")
    span = out["llamaindex_span"]
    print(f"LlamaIndex's own instrumentation span (any postprocessor pays it; the target above counts it): "
          f"{span['span_alone_ms']:.3f} ms alone, {span['span_in_context_ms']:.3f} ms around the postprocessor's work; "
          f"the postprocessor's overhead net of it: {span['overhead_net_of_span_alone_ms']:+.3f} ms (minus the span "
          f"alone), {span['overhead_without_span_ms']:+.3f} ms (without the span)")
    return 0


def write_result(path: str, out: dict[str, Any], argv: list[str] | None, script: str = "bench_adapters.py") -> None:
    """The figures plus what reproduces them: the command (``python scripts/<script> <args>``), the
    adapters' package versions, CPUs, Python. ``scripts/bench_llamaindex_output.py`` writes with it too."""
    import os
    import platform
    from importlib.metadata import version

    args = sys.argv[1:] if argv is None else argv
    record = {"command": " ".join([f"python scripts/{script}", *args]),
              "python": platform.python_version(), "cpus": os.cpu_count(),
              "versions": {pkg: version(pkg) for pkg in ("authorag", "haystack-ai", "langchain", "langchain-core", "llama-index-core",
                                                         "pydantic")},
              **out}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
