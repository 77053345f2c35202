"""scripts/bench_llamaindex_output.py: what the postprocessor's copy costs; the docs quote its committed result."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "docs" / "results" / "perf" / "bench_llamaindex_output.json"
STAGES = ["copy (shipped)", "copy, caller's key lists", "in place"]


def test_docs_quote_the_committed_result() -> None:
    r = json.loads(RESULT.read_text(encoding="utf-8"))
    assert r["command"] == "python scripts/bench_llamaindex_output.py --out docs/results/perf/bench_llamaindex_output.json"
    text = " ".join((ROOT / "docs" / "integrations.md").read_text(encoding="utf-8").split())
    ms, implied = r["ms_per_call"], r["overhead_if_output_stage_ms"]
    quoted = [r["command"], f"{ms['output stage: copy (shipped)']:.3f} ms as shipped",
              f"{ms['output stage: ' + STAGES[1]]:.3f} ms if the copies shared",
              f"{ms['output stage: in place']:.3f} ms written in place",
              f"the postprocessor adds {r['overhead_ms']:.3f} ms over the core",
              f"in place it would add {implied['in place']:.3f} ms"]
    assert [q for q in quoted if q not in text] == []


def test_one_run_checks_the_variants_and_prints_the_overheads() -> None:
    pytest.importorskip("llama_index.core")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_llamaindex_output.py"), "--documents", "5",
                          "--calls", "2", "--rounds", "1", "--json"], capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    ms = r["ms_per_call"]
    assert list(ms) == ["core AuthorityReranker.rerank", "LlamaIndex AuthorityPostprocessor",
                        *(f"output stage: {s}" for s in STAGES)]
    assert r["overhead_ms"] == pytest.approx(ms["LlamaIndex AuthorityPostprocessor"] - ms["core AuthorityReranker.rerank"])
    assert r["overhead_if_output_stage_ms"] == pytest.approx(
        {s: r["overhead_ms"] - ms["output stage: copy (shipped)"] + ms[f"output stage: {s}"] for s in STAGES})
