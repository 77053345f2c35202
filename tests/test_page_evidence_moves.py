"""scripts/page_evidence_moves.py: which cues move which pages, which way, and the committed dev record."""
from __future__ import annotations

import json
from pathlib import Path

from _scripts import load_script

from authorag.benchmarks.generalisation.shared_sets import LabelledPage

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "page_evidence" / "default_study" / "moves" / "dev" / "page_evidence_moves.json"
NEWS = ("The city council approved the budget on Tuesday, a spokeswoman said. According to the finance "
        "department's report, spending rises by three percent, and the mayor told reporters the vote was close. ") * 3
SPAM = ("Download our fixer tool now! Fix registry errors, speed up your PC, remove every virus and malware today. "
        "Free download, click here, instant results guaranteed")
PLAIN = "The library opens at nine on weekdays and at ten on Saturdays; it is closed on Sundays and holidays."


def test_moves_count_each_page_by_label_direction_and_cue() -> None:
    pages = [LabelledPage("https://zq-fake-news.biz/a", NEWS, 0.0, "zq-fake-news.biz"),
             LabelledPage("https://zq-true-news.biz/b", NEWS, 1.0, "zq-true-news.biz"),
             LabelledPage("https://zq-fixer.biz/c", SPAM, 1.0, "zq-fixer.biz"),
             LabelledPage("https://zq-library.biz/d", PLAIN, 0.0, "zq-library.biz")]
    out = load_script("page_evidence_moves").moves(pages, neutral=True)
    assert (out["pages"], out["true"], out["moved"], out["wrong_way"]) == (4, 2, 3, 2)
    assert out["rows"] == [
        {"label": "fake", "direction": "up", "cues": "attributed statements", "pages": 1},
        {"label": "true", "direction": "down", "cues": "download-and-fix spam", "pages": 1},
        {"label": "true", "direction": "up", "cues": "attributed statements", "pages": 1}]


def test_the_committed_dev_record_is_the_one_the_study_quotes() -> None:
    record = json.loads(RESULT.read_text(encoding="utf-8"))
    assert record["split"] == "dev"
    wrong = {t: {v: r["wrong_way"] for v, r in views.items()} for t, views in record["tracks"].items()}
    assert wrong == {"coaid-covid": {"text on an unknown host": 12, "text with its real URL": 6},
                     "fakebr-pt": {"text on an unknown host": 94, "text with its real URL": 94}}
