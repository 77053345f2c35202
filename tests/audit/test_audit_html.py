"""The HTML audit page as text: exact matrix cells, escaping, nothing to fetch, the CLI flag."""
from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from authorag.audit import audit
from authorag.audit.html_page import render_html
from authorag.cli import main

GIVEN: dict[str, Any] = {
    "question": "Do flu vaccines work?",
    "sources": [{"id": "1", "url": "https://www.cdc.gov/flu"}, {"id": "2", "url": "https://www.webmd.com/flu"}],
    "statements": [{"text": "Vaccines cut the risk.", "citations": ["1"]},
                   {"text": "They are mostly mild.", "citations": ["2"]}],
    "support": [[1, 1], [0, 0]],
}


def _states(page: str, kind: str) -> list[tuple[int, int, str]]:
    svg = re.search(rf'<svg class="matrix matrix-{kind}".*?</svg>', page, re.S)
    assert svg is not None
    return [(int(r), int(c), s) for r, c, s in
            re.findall(r'data-row="(\d+)" data-col="(\d+)" data-state="([a-z-]+)"', svg.group(0))]


def test_matrix_cells_are_statements_times_sources_with_their_state() -> None:
    page = render_html([audit(GIVEN).to_dict()])
    assert _states(page, "citation") == [(0, 0, "cited"), (0, 1, "none"), (1, 0, "none"), (1, 1, "cited")]
    assert _states(page, "support") == [(0, 0, "supported"), (0, 1, "uncited-support"),
                                        (1, 0, "none"), (1, 1, "unsupported")]
    assert 'data-rows="2" data-cols="2"' in page
    assert "<title>[1] × source 2 webmd.com: cited but does not support it</title>" in page


def test_unknown_rows_and_lexical_cells() -> None:
    item = {"question": "q", "answer": "Flu shots cut the risk of flu in adults [1]. Hello there [2].",
            "sources": [{"id": "1", "url": "https://www.cdc.gov/flu", "text": "Flu shots cut the risk of flu in adults."},
                        {"id": "2", "url": "https://a.org"}]}
    page = render_html([audit(item).to_dict()])
    assert _states(page, "support") == [(0, 0, "supported"), (0, 1, "none"), (1, 0, "unknown"), (1, 1, "unknown")]
    assert page.count('<text class="lex"') == 1
    assert "(lexical rule: 100 % of the statement&#x27;s words in the source)" in page


def test_untrusted_text_is_escaped_and_only_web_links_are_links() -> None:
    item = {"question": "<b>bold</b>?", "answer": "Look [1]. Also [2].",
            "sources": [{"id": "1", "url": "javascript:alert(1)", "title": "<script>alert(1)</script>"},
                        {"id": "2", "url": "https://example.org/\"><img src=x>"}]}
    page = render_html([audit(item).to_dict()])
    assert page.count("<script") == 1 and "<b>bold" not in page and "&lt;b&gt;bold&lt;/b&gt;?" in page
    assert 'href="javascript' not in page and "<img" not in page
    assert 'href="https://example.org/&quot;&gt;&lt;img src=x&gt;"' in page


def test_page_loads_nothing_and_pins_its_script() -> None:
    page = render_html([audit(GIVEN).to_dict()])
    script = re.search(r"<script>(.*?)</script>", page, re.S)
    assert script is not None
    digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest()).decode()
    assert (f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; img-src data:"
            in page)
    assert not re.search(r"\s(src|srcset)=|@import|url\(", page)


def test_batch_page_has_aggregates_and_an_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{**GIVEN, "system": "A", "id": "a1"}, {**GIVEN, "system": "A", "id": "a2"}, {**GIVEN, "system": "B", "id": "b1"}]
    path = tmp_path / "b.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert main(["audit", str(path), "--html", str(tmp_path / "audit.html")]) == 0
    capsys.readouterr()
    page = (tmp_path / "audit.html").read_text(encoding="utf-8")
    assert re.findall(r'<table class="aggregate" data-system="([^"]+)"', page) == ["A", "B"]
    assert "<h3>A (2 answers)</h3>" in page
    # groundedness: every answer's 2 cited statements, 1 supported -> 0.50; pooled over A's 4: 0.50
    assert re.search(r'data-metric="groundedness"><th scope="row">groundedness</th><td class="num">0.50</td>', page)
    assert len(re.findall(r'<details class="answer" id="answer-\d"', page)) == 3
    assert page.count('<a class="open-answer"') == 3


def test_html_flag_reports_an_unwritable_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(GIVEN))
    target = tmp_path / "missing" / "a.html"
    assert main(["audit", str(path), "--html", str(target)]) == 1
    assert f"cannot write --html '{target}': its folder does not exist" in capsys.readouterr().err
    (tmp_path / "dir.html").mkdir()
    assert main(["audit", str(path), "--html", str(tmp_path / "dir.html")]) == 1
    assert f"cannot write --html '{tmp_path / 'dir.html'}': Is a directory" in capsys.readouterr().err


@pytest.mark.parametrize("item", [
    {"question": "q", "answer": ""},
    {"question": "q", "answer": "No citations here.", "sources": [{"id": "1", "url": "https://a.org"}]},
    {"question": "q", "answer": "Cited [1].", "sources": [{"id": "1", "url": ""}]},
])
def test_edge_reports_render(item: dict[str, Any]) -> None:
    report = audit(item).to_dict()
    page = render_html([report])
    n, m = len(report["statements"]), len(report["sources"])
    assert page.count('<rect class="cell ') == (n * m if n and m else 0)
    if not n or not m:
        assert "no matrix: the answer has no statements or no sources" in page
