"""scripts/fuzz_server.py, briefly: hostile and schema-generated requests against a real
``authorag serve`` give no 500, no server traceback and only documented JSON errors.

The full run (10,000 hostile cases per endpoint) is committed in docs/results/server/fuzz.json.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("schemathesis")


def test_fuzz_script_finds_nothing(tmp_path: Path) -> None:
    out = tmp_path / "fuzz.json"
    cmd = [sys.executable, str(ROOT / "scripts" / "fuzz_server.py"), "--cases", "40", "--schema-cases", "5",
           "--seed", "5", "--json", str(out)]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=600, cwd=ROOT)
    report = json.loads(out.read_text())
    assert proc.returncode == 0 and report["failed"] == 0 and report["server_tracebacks"] == 0, report["failures"]
    for path in ("/v1/rerank", "/v2/rerank", "/rerank", "/v1/authority", "/v1/audit", "/healthz", "/readyz"):
        assert sum(report["statuses"][path].values()) == 40
    assert report["error_codes"]["/v1/rerank"]["invalid_request"] > 0  # hostile bodies reached validation
    assert sum(report["statuses"]["raw"].values()) >= 8
