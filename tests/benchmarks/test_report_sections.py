"""The benchmark report leaves out sections that would be empty."""
from __future__ import annotations

from pathlib import Path

from authorag.benchmarks.report import write_report


def test_no_rag_runs_no_per_run_heading(tmp_path: Path) -> None:
    (tmp_path / "results").mkdir()
    text = write_report(tmp_path / "results", tmp_path / "out").read_text(encoding="utf-8")
    assert "## RAGAuth-open (filter × top-k)" in text
    assert "### Per run" not in text
