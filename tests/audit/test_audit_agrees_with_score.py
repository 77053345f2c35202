"""The audit rates sources as ``authorag score`` does, marks word-for-word support, says why,
reports progress while it judges and prints rounded numbers."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from authorag.audit import audit
from authorag.audit.batch import PROGRESS_TASK as ANSWERS_TASK
from authorag.audit.batch import audit_many
from authorag.audit.llm import PROGRESS_TASK as CALLS_TASK
from authorag.audit.llm import AuditJudge
from authorag.cli import main
from authorag.errors import JudgeError
from authorag.judges.backends.base import ChatRequest
from authorag.progress import ProgressEvent, listen
from authorag.testing import FakeBackend

BLOG = "https://cranberrycure.blogspot.com/2010/05/uti.html"
COPIED = "Cranberry juice can reduce the number of urinary tract infections in women."
ITEM: dict[str, Any] = {
    "question": "Can cranberries prevent urinary tract infections?",
    "answer": f"{COPIED} [2] Drink water too [1].",
    "sources": [{"id": "1", "url": "https://www.nih.gov/health/uti", "text": "Urinary tract infections are common."},
                {"id": "2", "url": BLOG, "text": f"Good news! {COPIED} My aunt swears by it."}],
}


def _score(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["score", *args, "--json"]) == 0
    return {r["input"]: r for r in json.loads(capsys.readouterr().out)}


def _audit(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(ITEM))
    assert main(["audit", str(path), "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("flags", [(), ("--no-hosted",), ("--hosted-authority", "0.25")])
def test_audit_tiers_equal_score(tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: tuple[str, ...]) -> None:
    scored = _score(capsys, BLOG, "https://www.nih.gov/health/uti", *flags)
    audited = {s["url"]: s for s in _audit(tmp_path, capsys, *flags)["sources"]}
    for url in (BLOG, "https://www.nih.gov/health/uti"):
        assert (audited[url]["tier"], audited[url]["authority"]) == (scored[url]["tier"], scored[url]["authority"])
    # without the hosted tier the blog is unknown (page evidence is opt-in)
    expected = {(): ("hosted", 0.4), ("--no-hosted",): ("unknown", None), ("--hosted-authority", "0.25"): ("hosted", 0.25)}
    assert (audited[BLOG]["tier"], audited[BLOG]["authority"]) == expected[flags]


def test_audit_reads_the_scorer_settings_from_the_environment(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTHORAG_HOSTED_AUTHORITY", "0.2")
    assert audit(ITEM).sources[1].authority == 0.2  # the library default is the one composition too
    blog = _audit(tmp_path, capsys)["sources"][1]
    assert (blog["tier"], blog["authority"]) == ("hosted", 0.2)


def test_word_for_word_statement_is_supported_without_a_judge() -> None:
    out = audit(ITEM).to_dict()
    assert out["support_matrix"] == [[0, 1], None]
    first, second = out["statements"]
    assert first["lexical_support"] == {"2": 1.0}
    assert first["support_reason"] == ("supported by [2]: 100 % of the statement's words are in the source's text "
                                       "(lexical rule); the other sources were not judged")
    assert second["support_reason"] == "unknown: no judge (--judge local|openai) and no source repeats the statement"
    assert out["metrics"]["groundedness"] == 1.0 and out["counts"]["support_known_statements"] == 1
    assert any(n.startswith("the lexical rule (a source repeats the statement) found support for 1 of 2 statements")
               for n in out["notes"])


def _judge_says_no(request: ChatRequest) -> str:
    user = request.messages[-1]["content"]
    n = len([ln for ln in user.splitlines() if re.match(r"\[\d+\] ", ln)])
    if request.prompt_version in ("audit_support_v1", "audit_relevance_v1"):
        return "".join(f"[{i}]: {'yes' if request.prompt_version == 'audit_relevance_v1' else 'no'}\n" for i in range(n))
    return {"audit_intent_v1": "yes", "audit_fidelity_v1": "yes"}[request.prompt_version]


def test_lexical_rule_overrides_a_judge_no_and_says_so() -> None:
    out = audit(ITEM, judge=FakeBackend(_judge_says_no)).to_dict()
    assert out["support_matrix"] == [[0, 1], [0, 0]]
    assert [s["support_reason"] for s in out["statements"]] == [
        "supported by [2]: 100 % of the statement's words are in the source's text (lexical rule)",
        "supported by no source (judge)"]


def test_failed_support_call_keeps_the_lexical_row() -> None:
    def script(request: ChatRequest) -> str:
        if request.prompt_version == "audit_support_v1":
            raise JudgeError("server down")
        return _judge_says_no(request)

    out = audit(ITEM, judge=FakeBackend(script)).to_dict()
    assert out["support_matrix"] == [[0, 1], None]
    assert out["statements"][1]["support_reason"] == "unknown: the judge call failed (see notes)"


def test_progress_counts_every_call_against_the_plan() -> None:
    seen: list[ProgressEvent] = []
    fake = FakeBackend(_judge_says_no)
    judge = AuditJudge(fake)
    with listen(seen.append):
        reports = audit_many([("a", ITEM), ("b", ITEM)], lambda obj: audit(obj, judge=judge))
    calls = [(e.done, e.total) for e in seen if e.task == CALLS_TASK]
    # per answer: relevance 1 + support 2 + intent 2 + fidelity 2 = 7; the second answer's 7 are
    # announced when it starts
    assert calls == [(i, 7) for i in range(1, 8)] + [(i, 14) for i in range(8, 15)]
    assert len(fake.requests) == 14 and sum(r.cost["totals"]["calls"] for r in reports) == 14
    assert [(e.done, e.total, e.unit) for e in seen if e.task == ANSWERS_TASK] == [(1, 2, "answers"), (2, 2, "answers")]


def test_text_report_is_rounded_and_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({**ITEM, "sources": [*ITEM["sources"],
                                                    {"id": "3", "url": "https://www.bbc.co.uk/news/health"}],
                                "answer": ITEM["answer"] + " It is in the news [3]."}))
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("  [0] cites 2; supported by 2; relevant None: " + COPIED + "\n"
            "      why: supported by [2]: 100 % of the statement's words are in the source's text (lexical rule); "
            "the other sources were not judged\n") in out
    assert "  1: nih.gov tier table authority 0.979 credibility 0.87 trust 0.86 credible True\n" in out
    assert "  2: cranberrycure.blogspot.com tier hosted authority 0.400 credibility - trust 0.35 credible None\n" in out
    assert "  3: bbc.co.uk tier table authority 0.979 credibility 0.90 trust 0.89 credible True\n" in out
    assert "  groundedness: 1.0 (95 % CI 0.167-1.000)\n" in out
    assert "  credibility_rate: 1.0 (95 % CI 0.290-1.000)\n" in out  # nih.gov and bbc.co.uk credible


def test_credibility_rate_reads_the_trust_rule() -> None:
    report = audit(ITEM)  # nih.gov: .gov credibility evidence; the hosted blog: recognition only
    assert [(s.domain, s.trust_reason, s.credible) for s in report.sources] == [
        ("nih.gov", "credible", True), ("cranberrycure.blogspot.com", "recognition only", None)]
    assert report.metrics["credibility_rate"] == 1.0
    bad = {**ITEM, "sources": [*ITEM["sources"], {"id": "3", "url": "https://www.infowars.com/posts/x"}],
           "answer": ITEM["answer"] + " Cranberries cure everything [3]."}
    report = audit(bad)
    assert [(s.domain, s.trust_reason, s.credible) for s in report.sources][2] == (
        "infowars.com", "low credibility", False)
    assert report.metrics["credibility_rate"] == 0.5
