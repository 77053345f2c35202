"""The CiteTrace suitability hook against the real ``authorag.suitability`` package, when installed."""
from __future__ import annotations

import sys

import pytest

from authorag.audit import audit, suitability
from authorag.audit.suitability import MISSING_NOTE


def test_missing_package_gives_null_and_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "authorag.suitability", None)  # as if not installed
    suitability._scorer.cache_clear()
    out = audit({"question": "q", "answer": "A [1].", "sources": [{"id": "1", "url": "https://nih.gov"}]}).to_dict()
    suitability._scorer.cache_clear()
    assert out["citations"][0]["source_suitability"] is None and MISSING_NOTE in out["notes"]


def test_real_suitability_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "authorag.suitability", raising=False)
    suitability._scorer.cache_clear()
    pytest.importorskip("authorag.suitability")
    out = audit({"question": "Can vitamin C cure the common cold?", "answer": "No [1]. A user says yes [2].",
                 "sources": [{"id": "1", "url": "https://www.nih.gov/news/x"},
                             {"id": "2", "url": "https://www.reddit.com/r/health/comments/abc/vitamin_c"}]}).to_dict()
    got = [(c["source_type"], c["source_suitability"]) for c in out["citations"]]
    assert got == [("government", True), ("forum", False)]
    assert MISSING_NOTE not in out["notes"]
