"""scripts/eval_words_veto.py: the rule that picks a cell, and the committed dev table the
words_veto README quotes."""
from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "relevance_cost" / "words_veto" / "dev" / "words_veto.json"


def _script() -> ModuleType:
    return load_script("eval_words_veto")


def test_a_cell_qualifies_only_when_no_row_is_worse_and_one_is_better() -> None:
    table = {"a | x": {"t": 0.5, "up": 0.75, "mixed": 1.0, "same": 0.5},
             "b | y": {"t": 1.0, "up": 1.0, "mixed": 0.9, "same": 1.0}}
    cases = {"a:c1": {"t": 0.0, "up": 1.0, "mixed": 1.0, "same": 0.0}}
    got = _script().verdicts(table, cases, ["t", "up", "mixed", "same"], "t")
    assert got["up"] == {"worse": [], "better": ["a | x"], "qualifies": True, "cases_moved": {"a:c1": [0.0, 1.0]}}
    assert got["mixed"]["worse"] == ["b | y"] and got["mixed"]["qualifies"] is False
    assert got["same"] == {"worse": [], "better": [], "qualifies": False, "cases_moved": {}}


def test_the_committed_dev_grid_has_no_qualifying_cell() -> None:
    result = json.loads(RESULT.read_text(encoding="utf-8"))
    assert result["split"] == "dev" and result["today"] == "p1.5-f0.3"
    assert [c for c, v in result["verdicts"].items() if v["qualifies"]] == []
    assert result["verdicts"]["p2-f0.3"]["worse"] == ["no-harm-pairs | on-topic first"]
    assert result["rows"]["trust-pairs-v2 | trusted first"]["p1.5-f0.3"] == pytest.approx(0.75)
