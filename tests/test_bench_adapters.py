"""scripts/bench_adapters.py: one run prints every ratio; the docs quote its committed result."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "docs" / "results" / "perf" / "bench_adapters.json"
SURFACES = ["core AuthorityReranker.rerank", "LangChain AuthorityCompressor", "Haystack AuthorityRanker",
            "Haystack MetaFieldRanker", "server RerankService.rerank", "LlamaIndex AuthorityPostprocessor"]
FRAMEWORK = ["LlamaIndex span alone (empty postprocessor)", "LlamaIndex AuthorityPostprocessor without the span"]
AGENTS = ["core AuthorityReranker.rerank (20 results)", "LangChain AuthorityMiddleware (20 results)",
          "Haystack AuthorityToolHook (20 results)", "LlamaIndex trusted_search_tool (20 results)"]


def test_docs_quote_the_committed_result() -> None:
    r = json.loads(RESULT.read_text(encoding="utf-8"))
    assert r["command"] == "python scripts/bench_adapters.py --calls 200 --rounds 15 --out " \
                           "docs/results/perf/bench_adapters.json"
    text = " ".join((ROOT / "docs" / "integrations.md").read_text(encoding="utf-8").split())
    assert r["command"] in text
    ms, over = r["ms_per_call"], r["overhead_ms"]
    quoted = [f"takes {ms[SURFACES[0]]:.3f} ms", f"adds {over[SURFACES[1]]:.3f} ms for the LangChain",
              f"{over[SURFACES[2]]:.3f} ms for the Haystack", f"{over[SURFACES[4]]:.3f} ms for the server",
              f"({ms[SURFACES[2]]:.3f} ms) takes {r['haystack_vs_metafield']:.2f}×",
              f"`MetaFieldRanker` ({ms[SURFACES[3]]:.3f} ms)", f"{over[SURFACES[5]]:.3f} ms for the LlamaIndex"]
    span, gc, llama_gc = r["llamaindex_span"], r["collector"], r["collector"][SURFACES[5]]
    quoted += [f"around an empty postprocessor it takes {span['span_alone_ms']:.3f} ms",
               f"work {span['span_in_context_ms']:.3f} ms", f"adds {span['overhead_without_span_ms']:.3f} ms (without "
               f"the span) or {span['overhead_net_of_span_alone_ms']:.3f} ms (minus the span alone)",
               f"{llama_gc['collections']['gen0']:,} young and {llama_gc['collections']['gen1']} middle collections, "
               f"{llama_gc['ms_per_call']:.3f} ms per call", f"compressor: {gc[SURFACES[1]]['ms_per_call']:.3f} ms"]
    assert [q for q in quoted if q not in text] == []
    met = list(dict.fromkeys(name.split(" ")[0] for name, ok in r["targets"].items() if ok and "<=" in name))
    assert "are met by " + ", ".join(met[:-1]) + " and " + met[-1] in text
    assert (f"`AuthorityMiddleware` adds {over[AGENTS[1]]:.3f} ms, the Haystack `AuthorityToolHook` "
            f"{over[AGENTS[2]]:.3f} ms and the LlamaIndex `trusted_search_tool` {over[AGENTS[3]]:.3f} ms over the "
            f"core's {r['ms_per_call'][AGENTS[0]]:.3f} ms") in text


def test_one_run_prints_every_ratio() -> None:
    pytest.importorskip("haystack")
    pytest.importorskip("langchain_core")
    pytest.importorskip("llama_index.core")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_adapters.py"), "--documents", "5",
                          "--calls", "2", "--rounds", "1", "--gc-calls", "3", "--json"], capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    adapters = (SURFACES[1], SURFACES[2], SURFACES[4], SURFACES[5], *AGENTS[1:])
    assert list(r["ms_per_call"]) == SURFACES + FRAMEWORK + AGENTS and set(r["overhead_ms"]) == set(adapters)
    assert list(r["targets"]) == [f"{s} <= +0.3 ms" for s in adapters[:3]] + [f"{SURFACES[5]} <= +0.4 ms"] + [
        f"{a} <= +0.5 ms" for a in AGENTS[1:]] + ["Haystack AuthorityRanker / MetaFieldRanker < 1"]
    assert list(r["collector"]) == SURFACES + FRAMEWORK + AGENTS
    for agent in AGENTS[1:]:
        assert r["overhead_ms"][agent] == pytest.approx(r["ms_per_call"][agent] - r["ms_per_call"][AGENTS[0]])
    ms, span, llama = r["ms_per_call"], r["llamaindex_span"], r["overhead_ms"][SURFACES[5]]
    assert span == pytest.approx({  # the framework's span beside the adapter's overhead, which still counts it
        "span_alone_ms": ms[FRAMEWORK[0]], "span_in_context_ms": ms[SURFACES[5]] - ms[FRAMEWORK[1]],
        "overhead_net_of_span_alone_ms": llama - ms[FRAMEWORK[0]], "overhead_without_span_ms": ms[FRAMEWORK[1]] - ms[SURFACES[0]]})
    assert all(c["calls"] == 3 and list(c["collections"]) == ["gen0", "gen1", "gen2"] and c["ms_per_call"] >= 0
               for c in r["collector"].values())
    assert r["haystack_vs_metafield"] == pytest.approx(
        r["ms_per_call"][SURFACES[2]] / r["ms_per_call"][SURFACES[3]])
