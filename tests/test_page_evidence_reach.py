"""scripts/page_evidence_reach.py: what page evidence did for a page, and the committed record the
page-evidence default study's README quotes."""
from __future__ import annotations

import json
from pathlib import Path

from _scripts import load_script

from authorag.compose import ScorerSettings, load_scorer
from authorag.types import Candidate

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "page_evidence" / "default_study" / "reach" / "page_evidence_reach.json"
SPAM = ("Download our fixer tool now! Fix registry errors, speed up your PC, remove every virus and malware today. "
        "Free download, click here, instant results guaranteed")
NEWS = ("The city council approved the budget on Tuesday, a spokeswoman said. According to the finance "
        "department's report, spending rises by three percent, and the mayor told reporters the vote was close. ") * 3
PLAIN = "The library opens at nine on weekdays and at ten on Saturdays; it is closed on Sundays and holidays."
ITALIAN = "Il governo ha annunciato oggi un nuovo programma per le famiglie a basso reddito, secondo il ministro. " * 3


def test_each_page_gets_the_class_of_what_page_evidence_did() -> None:
    cands = [Candidate.create("https://nih.gov/a", PLAIN), Candidate.create("https://zq-fixer.biz/a", SPAM),
             Candidate.create("https://zq-town.biz/budget", NEWS), Candidate.create("https://zq-lib.biz/h", PLAIN),
             Candidate.create("https://zq-shop.biz/c?hop=aff9", ""), Candidate.create("https://zq-it.biz/n", ITALIAN),
             Candidate.create("https://zq-empty.biz/", "")]
    details = load_scorer(ScorerSettings(page_evidence=True)).score(cands)
    assert [load_script("page_evidence_reach").page_class(d) for d in details] == [
        "not asked", "spoke down", "spoke up", "abstained: no known cue", "abstained: low cue too weak",
        "abstained: page language 'it' not read (reads en, de, es, fr, pt)", "abstained: no page text"]


def test_the_committed_record_changes_no_order_on_either_half() -> None:
    record = json.loads(RESULT.read_text(encoding="utf-8"))
    assert {s: r["units_changed"] for s, r in record["v2"].items()} == {"dev": 0, "test": 0}
    assert record["v2"]["dev"]["classes"] == {"abstained: low cue too weak": 5, "abstained: no known cue": 80,
                                              "not asked": 92, "spoke down": 6}
    assert all(s["off_order_right"] for r in record["v2"].values() for s in r["spoke"])
    assert record["real_url"]["coaid-covid"]["moved"] == {"fake down": 3, "fake up": 12}
