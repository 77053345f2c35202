"""scripts/bench_mcp.py: one run prints every figure and ratio; the docs quote its committed result."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "docs" / "results" / "perf" / "bench_mcp.json"
STARTS = ["authorag mcp: launch to tools/list", "python -m authorag --version", "python -c 'import mcp'"]
CALLS = ["RerankService.authority (no transport)", "score_sources over stdio", "score_sources over streamable HTTP"]


def test_docs_quote_the_committed_result() -> None:
    r = json.loads(RESULT.read_text(encoding="utf-8"))
    assert r["command"] == "python scripts/bench_mcp.py --starts 7 --calls 50 --out docs/results/perf/bench_mcp.json"
    text = " ".join((ROOT / "docs" / "integrations.md").read_text(encoding="utf-8").split())
    assert r["command"] in text
    start, cpu, calls, calls_cpu = r["start_s"], r["start_cpu_s"], r["call_ms"], r["call_cpu_ms"]
    quoted = [f"answers `tools/list` after {cpu[STARTS[0]]:.2f} s of CPU time ({start[STARTS[0]]:.2f} s of wall time",
              f"`python -m authorag --version` takes {cpu[STARTS[1]]:.2f} s and `python -c 'import mcp'` "
              f"{cpu[STARTS[2]]:.2f} s of CPU time ({r['start_ratio_to_cli_plus_sdk_import']:.2f}× their sum",
              f"{calls_cpu[CALLS[1]]:.1f} ms of CPU time over stdio ({calls[CALLS[1]]:.1f} ms wall)",
              f"{calls_cpu[CALLS[2]]:.1f} ms over streamable HTTP ({calls[CALLS[2]]:.1f} ms wall)",
              f"takes {calls_cpu[CALLS[0]]:.2f} ms"]
    assert [q for q in quoted if q not in text] == []
    assert ("both targets are met" in text) == r["targets_met"]


def test_one_run_prints_every_figure() -> None:
    pytest.importorskip("mcp")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_mcp.py"), "--urls", "5", "--starts", "1",
                          "--calls", "2", "--json"], capture_output=True, text=True, check=True, timeout=300).stdout
    r = json.loads(out)
    assert list(r["start_s"]) == list(r["start_cpu_s"]) == STARTS
    assert list(r["call_cpu_ms"]) == CALLS and list(r["call_ms"]) == CALLS[1:]
    assert list(r["targets"]) == ["tools/list <= 1.0 s after the start (CPU time)",
                                  "score_sources over stdio <= 50.0 ms (CPU time)",
                                  "score_sources over streamable HTTP <= 50.0 ms (CPU time)"]
    assert r["start_ratio_to_cli_plus_sdk_import"] == pytest.approx(
        r["start_cpu_s"][STARTS[0]] / (r["start_cpu_s"][STARTS[1]] + r["start_cpu_s"][STARTS[2]]))
    assert r["call_cpu_ratio_to_in_process"][CALLS[1]] == pytest.approx(
        r["call_cpu_ms"][CALLS[1]] / r["call_cpu_ms"][CALLS[0]])
