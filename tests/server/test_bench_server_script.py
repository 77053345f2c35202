"""scripts/bench_server.py end to end, briefly: it starts a 2-worker server, drives closed- and
open-loop levels with its raw client and writes a JSON report whose numbers add up."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_server_script_reports_levels(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    cmd = [sys.executable, str(ROOT / "scripts" / "bench_server.py"), "--relevance", "rank", "--documents", "20",
           "--concurrency", "1", "4", "--rate", "50", "--duration", "1", "--max-requests", "40",
           "--json", str(out)]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert (report["workers"], report["documents"], report["relevance"]) == (2, 20, "rank")
    closed, opened = report["levels"][:2], report["levels"][2]
    assert [lv["concurrency"] for lv in closed] == [1, 4]
    for lv in [*closed, opened]:
        assert lv["errors"] == 0 and 0 < lv["requests"] <= 40
        assert 0 < lv["p50_ms"] <= lv["p99_ms"]
        assert lv["req_per_s"] == pytest.approx(lv["requests"] / lv["seconds"], rel=0.05)  # seconds has 3 decimals
    assert opened["offered_per_s"] == 50 and opened["requests"] == 40  # 1 s x 50/s, capped at 40
    assert "c=  4" in proc.stdout and "rate=50/s" in proc.stdout
