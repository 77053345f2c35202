"""The README's numbers on set-up, disk, the demo's judge and the test suite come from committed result files."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "results"


def _readme() -> str:
    return " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def _json(name: str) -> dict[str, Any]:
    return json.loads((RESULTS / name).read_text(encoding="utf-8"))


def _disk_rows() -> dict[str, str]:
    rows = [ln.split("|") for ln in (RESULTS / "disk_use.md").read_text(encoding="utf-8").splitlines()
            if ln.startswith("| ") and not ln.startswith("| what")]
    return {r[1].strip(): r[3].strip() for r in rows}


def test_disk_use_matches_its_result() -> None:
    rows, text = _disk_rows(), _readme()
    without = int(rows["virtual environment without the judge model (`scripts/setup.sh`, what `scripts/demo.sh` "
                       "sets up)"].removesuffix("M"))
    assert f"`.venv` with every extra {without / 1024:.1f} GB ({without:,} MiB)" in text
    assert f"with the judge model {rows['virtual environment (every extra + dev tools)'].removesuffix('G')} GB" in text
    assert f"of which {rows['judge model as installed parts (`authorag[model]`)'].removesuffix('G')} GB are" in text
    assert f"another {rows['assembled judge model'].removesuffix('G')} GB" in text


def test_the_demo_judge_claims_match_their_result() -> None:
    result, text = _json("demo_judge.json"), _readme()
    assert result["same_with_and_without_judge"]["with page evidence"] == {"orders": True, "trust": True}
    assert result["same_with_and_without_judge"]["without page evidence"]["orders"] is False
    runs = result["runs"]
    judged = [p["judge_authority"] for p in runs["local judge"]["pages"].values() if p["judge_authority"] is not None]
    assert f"it rates the {len(judged)} pages no table knows" in text
    assert f"{min(judged):.2f}–{max(judged):.2f} each, credible or not" in " ".join(text.split())
    no_page = runs["local judge, no page evidence"]
    second = no_page["orders"]["after"][1]
    assert no_page["pages"][second]["nist_credible"] is False and "a non-credible page to second place" in text
    assert all(p["trust"] > 0.3 for p in no_page["pages"].values() if p["trust_set_by"] == "judge")


def test_set_up_time_matches_its_result() -> None:
    result, text = _json("setup_time.json"), _readme()
    minutes, seconds = divmod(result["setup_seconds"], 60)
    assert f"took {minutes}:{seconds:02d} (m:s)" in text
    assert f"load average {result['load_average_start']:.0f}" in text


def test_test_suite_time_matches_its_result() -> None:
    result, text = _json("test_suite.json"), _readme()
    wall_min, wall_s = divmod(result["wall_s"], 60)
    cpu_min, cpu_s = divmod(result["cpu_s"], 60)
    assert f"{result['counts']['passed']:,} tests" in text
    assert f"{wall_min}:{wall_s:02d} wall time and {cpu_min}:{cpu_s:02d} CPU time" in text
    assert re.search(rf"load average {result['load_average_start']:.0f}\b", text)
