"""docs/audit.md's example prints what the page shows (run from the repository root)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from authorag.cli import main

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r"<!-- output of: python -m (authorag [^(]+?) \(tests/audit/test_audit_docs.py runs it\) -->\n"
                  r"```text\n(.*?)```", re.S)


def test_shown_outputs_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = MARK.findall((ROOT / "docs" / "audit.md").read_text(encoding="utf-8"))
    assert [cmd for cmd, _ in blocks] == ["authorag audit docs/examples/audit_answer.json"]
    monkeypatch.chdir(ROOT)
    for cmd, shown in blocks:
        assert main(shlex.split(cmd)[1:]) == 0
        assert capsys.readouterr().out == shown
