"""The HTML audit page in a real headless Chromium (Debian's, driven by Playwright).

Not skipped when Chromium or Playwright is missing: the fixture fails with the fix
(``scripts/setup.sh`` installs both). Screenshots go to the test's tmp folder, or to
``$AUTHORAG_TEST_ARTEFACTS`` when it is set (CI keeps that folder).
"""
from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _scripts import load_script

from authorag.cli import main

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps opening connections a closed network refuses.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "docs" / "results" / "audit" / "ragauth-demo"
EXAMPLE = ROOT / "docs" / "examples" / "audit_answer.json"  # the example docs/audit.md shows


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A persistent Chromium context on a fresh profile folder."""
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError as exc:
        pytest.fail(f"{exc}: the browser tests need Playwright (pip install 'authorag[dev]'; scripts/setup.sh does it)")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: install Debian's chromium and chromium-driver "
                    "(apt-get install chromium chromium-driver; scripts/setup.sh does it)")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 900})
        yield context
        context.close()


class Opened:
    """A page opened from a file, with what it logged, requested and popped up."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page: Any = browser.new_page()
        self.console: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.console.append(f"dialog: {d.message}"), d.dismiss()))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url, wait_until="load")

    def errors(self) -> list[str]:
        return [m for m in self.console if not m.startswith(("log:", "info:", "debug:"))]

    def column(self, table: str, col: int, *, shown: bool = False) -> list[str]:
        """The column's sort keys (or, ``shown``, its text) from top to bottom."""
        what = "textContent" if shown else "getAttribute('data-sort')"
        return self.page.eval_on_selector_all(f"{table} tbody tr", f"rows => rows.map(r => r.cells[{col}].{what})")

    def sort(self, table: str, header: str) -> None:
        self.page.locator(f"{table} thead button", has_text=header).click()

    def screenshot(self, tmp_path: Path, name: str) -> Path:
        target = tmp_path / name
        self.page.screenshot(path=str(target), full_page=True)
        folder = os.environ.get("AUTHORAG_TEST_ARTEFACTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            shutil.copy(target, Path(folder) / name)
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and target.stat().st_size > 10_000
        return target


def test_one_answer_renders_sorts_and_fetches_nothing(browser: Any, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(EXAMPLE), "--html", str(tmp_path / "audit.html")]) == 0
    capsys.readouterr()
    opened = Opened(browser, tmp_path / "audit.html")
    assert opened.errors() == [] and opened.requests == [opened.url]
    page = opened.page
    assert page.locator("svg.matrix-citation rect.cell").count() == 4 * 4
    assert page.locator("svg.matrix-support rect.cell").count() == 4 * 4
    # statements 0 and 3 repeat sources 2 and 1 (lexical rule); the other two rows are not judged
    assert page.locator("svg.matrix-support rect.cell.supported").count() == 2
    assert page.locator("svg.matrix-support text.lex").count() == 2
    assert page.locator("svg.matrix-support rect.cell.unknown").count() == 2 * 4
    domains = ["nih.gov", "cranberrycure.blogspot.com", "riverside-family-clinic.net", "dailymail.co.uk"]
    assert opened.column("#sources-0", 1) == domains
    opened.sort("#sources-0", "authority")  # ascending; no value last
    assert opened.column("#sources-0", 1) == ["cranberrycure.blogspot.com", "dailymail.co.uk", "nih.gov",
                                               "riverside-family-clinic.net"]
    assert opened.column("#sources-0", 3, shown=True) == ["0.400", "0.972", "0.979", "–"]
    opened.sort("#sources-0", "authority")  # descending; no value still last
    assert opened.column("#sources-0", 1) == ["nih.gov", "dailymail.co.uk", "cranberrycure.blogspot.com",
                                               "riverside-family-clinic.net"]
    opened.sort("#sources-0", "tier")
    assert opened.column("#sources-0", 2) == ["hosted", "table", "table", "unknown"]
    assert page.locator("#sources-0 th[aria-sort=ascending]").inner_text().startswith("tier")
    assert page.locator("ol.statements .why").first.inner_text() == (
        "supported by [2]: 100 % of the statement's words are in the source's text (lexical rule); "
        "the other sources were not judged")
    opened.screenshot(tmp_path, "audit-one-answer.png")
    assert opened.errors() == []


def test_bundled_example_batch_renders_with_no_console_errors(browser: Any, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    answers = [json.loads(line) for line in (DEMO / "answers.jsonl").read_text(encoding="utf-8").splitlines()]
    assert main(["audit", str(DEMO / "answers.jsonl"), "--html", str(tmp_path / "demo.html")]) == 0
    capsys.readouterr()
    opened = Opened(browser, tmp_path / "demo.html")
    assert opened.errors() == [] and opened.requests == [opened.url]
    page = opened.page
    assert page.locator("table.aggregate").count() == 1
    assert page.locator("#answers tbody tr").count() == len(answers) == 10
    for k in (0, 2, 9):
        n = page.locator(f"#answer-{k} ol.statements li").count()
        assert page.locator(f"#answer-{k} svg.matrix-citation rect.cell").count() == n * len(answers[k]["sources"])
    opened.sort("#answers", "statements")
    counts = [int(v) for v in opened.column("#answers", 4)]
    assert counts == sorted(counts) and counts[-1] == 7
    page.locator("a.open-answer").nth(9).click()  # the answer with 7 statements, after sorting
    assert page.locator("details.answer[open]").count() == 1
    opened.screenshot(tmp_path, "audit-demo-batch.png")
    assert opened.errors() == []


def test_committed_judged_reports_render(browser: Any, tmp_path: Path) -> None:
    """The committed LLM-judged run as a page, written by ``scripts/audit_demo.py --html`` (no LLM call)."""
    demo = load_script("audit_demo")
    assert demo.main(["--out", str(DEMO), "--html", str(tmp_path / "judged.html")]) == 0
    reports = [json.loads(line) for line in (DEMO / "reports.jsonl").read_text(encoding="utf-8").splitlines()]
    opened = Opened(browser, tmp_path / "judged.html")
    assert opened.errors() == []
    supported = sum(c * s for r in reports for crow, srow in zip(r["citation_matrix"], r["support_matrix"])
                    if srow is not None for c, s in zip(crow, srow))
    links = sum(s for r in reports for srow in r["support_matrix"] if srow is not None for s in srow)
    assert opened.page.locator("svg.matrix-support rect.cell.supported").count() == supported
    assert opened.page.locator("svg.matrix-support rect.cell.uncited-support").count() == links - supported
    assert links == 4  # docs/audit.md: "4 of 91 support cells are 1"
    assert opened.page.locator("svg.matrix-support rect.cell").count() == 91
    opened.page.locator("a.open-answer").first.click()
    opened.screenshot(tmp_path, "audit-demo-judged.png")
