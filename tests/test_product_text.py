"""Product text (code, CLI help, docs, scripts, benchmark files) never names an issue number."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ISSUE = re.compile(r"\bissues?[ _-]?#?\d+\b", re.IGNORECASE)
PRODUCT = ("authorag", "docs", "scripts", "benchmarks", "data", "README.md", "CHANGELOG.md", "DATA_LICENSES.md")


def _text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", *PRODUCT],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / name for name in listed if not name.endswith((".gz", ".png", ".bin", ".npz", ".store"))]


def test_no_issue_numbers_in_product_text() -> None:
    found = []
    for path in _text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        found += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                  for m in ISSUE.finditer(text)]
    assert not found, "say what the work is instead of its issue number:\n" + "\n".join(found)


def test_the_pattern_catches_the_usual_spellings() -> None:
    hits = [s for s in ("issue 11", "issue-16 target", "Issue 12's", "issues 13", "issue #4", "issue_9")
            if ISSUE.search(s)]
    assert len(hits) == 6 and not ISSUE.search("tissue 3") and not ISSUE.search("an issue of 2 kinds")
