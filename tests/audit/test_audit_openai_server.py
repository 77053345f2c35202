"""``authorag audit --judge openai`` end to end against a real OpenAI-compatible server.

xllamacpp + SmolLM2-135M on loopback (fixture ``openai_server``): its verdicts are noise, so only
the shapes and the bookkeeping are asserted; the grammars make every answer parse.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.cli import main

pytestmark = pytest.mark.integration


def test_audit_cli_with_openai_backend(openai_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    item = {"question": "Do flu vaccines prevent influenza?", "debate": True,
            "answer": "Flu vaccines cut the risk of influenza [1]. Soreness is common [2].",
            "sources": [{"id": "1", "url": "https://www.bbc.co.uk/news/health", "text": "The vaccine cuts flu risk."},
                        {"id": "2", "url": "https://www.dailymail.co.uk/health", "text": "Arms may be sore."}]}
    path = tmp_path / "a.json"
    path.write_text(json.dumps(item))
    assert main(["audit", str(path), "--judge", "openai", "--base-url", openai_server, "--model", "smollm2",
                 "--no-cache", "--rubrics", "--json", "--on-failure", "raise"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert "audit LLM calls" in captured.err and "11/11 calls" in captured.err  # the progress bar, all planned calls
    assert all(isinstance(s["relevant"], bool) and s["stance"] in ("pro", "con", "none") for s in out["statements"])
    assert all(set(row) <= {0, 1} and len(row) == 2 for row in out["support_matrix"])
    assert out["confidence"] in (1, 2, 3, 4, 5)
    assert all(v in (1, 2, 3, 4, 5) for s in out["sources"] for v in s["rubrics"].values())
    totals = out["cost"]["totals"]
    # relevance 1 + stance 1 + confidence 1 + support 2 + intent 2 + fidelity 2 + rubrics 2
    assert totals["calls"] == 11 and totals["parse_failures"] == 0 and totals["prompt_tokens"] > 0
