from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._scripts import load_script

diff_compare = load_script("diff_compare")


def _tracks(path: Path, de: float, en_ci: list[float]) -> Path:
    def cell(value: float, ci: list[float]) -> dict[str, object]:
        return {"default": {"value": value, "ci": ci}}

    path.write_text(json.dumps({"tracks": [{"track": "no-harm-pairs-v2", "rows": [
        {"name": "on-topic first (bm25)", "cells": cell(0.75, [0.5, 1.0])}], "breakdown": [
        {"name": "on-topic first (bm25), lang de", "cells": cell(de, [0.0, 1.0])},
        {"name": "on-topic first (bm25), lang en", "cells": cell(1.0, en_ci)}]}]}), encoding="utf-8")
    return path


def test_moved_rows_are_listed_and_english_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _tracks(tmp_path / "b.json", 0.5, [1.0, 1.0])
    after = _tracks(tmp_path / "a.json", 1.0, [1.0, 1.0])
    assert diff_compare.main([str(before), str(after), "--same", "lang en"]) == 0
    out = capsys.readouterr().out
    assert "| no-harm-pairs-v2 | on-topic first (bm25), lang de | 0.500 | 1.000 | +0.500 |" in out
    assert "on-topic first (bm25) |" not in out  # the summary row did not move
    assert "rows matching 'lang en': 1, identical: 1" in out


def test_a_moved_english_ci_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _tracks(tmp_path / "b.json", 0.5, [1.0, 1.0])
    after = _tracks(tmp_path / "a.json", 0.5, [0.5, 1.0])
    assert diff_compare.main([str(before), str(after), "--same", "lang en"]) == 1
    assert "NOT IDENTICAL: no-harm-pairs-v2 | on-topic first (bm25), lang en" in capsys.readouterr().err
