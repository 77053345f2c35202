"""The CLI through its entry point: JSON shapes, exit codes, error text."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from authorag.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_json_in_input_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "urls.txt"
    f.write_text("# comment\nhttps://someone.blogspot.com/x\n\nnot a url\n", encoding="utf-8")
    code, out, _ = run(capsys, "score", "https://www.nih.gov/a", "--input", str(f), "--json", "--no-learned")
    rows = json.loads(out)
    assert code == 0
    assert [r["input"] for r in rows] == ["https://www.nih.gov/a", "https://someone.blogspot.com/x", "not a url"]
    assert [r["domain"] for r in rows] == ["nih.gov", "someone.blogspot.com", None]
    assert rows[0]["authority"] > 0.9 and rows[0]["tier"] == "table" and rows[0]["version"] == 1
    assert set(rows[0]["sources"]) == {"ccnews_pagerank", "majestic", "moz"}
    assert rows[1]["authority"] == 0.4 and rows[1]["tier"] == "hosted" and rows[1]["matched"] == "someone.blogspot.com"
    assert "invalid URL" in rows[2]["note"]


def test_score_leave_source_out(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "score", "nih.gov", "--json", "--no-learned", "--exclude", "majestic")
    assert set(json.loads(out)[0]["sources"]) == {"ccnews_pagerank", "moz"}


def test_score_needs_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", "--no-learned")
    assert code == 2 and "give URLs or domains as arguments or with --input FILE" in err


def test_rerank_jsonl(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    rows = [{"id": "blog", "url": "https://cure.blogspot.com/x", "text": "t", "score": 0.9, "extra": [1]},
            {"id": "nih", "url": "https://www.nih.gov/y", "text": "t", "score": 0.8}]
    f.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    code, out, err = run(capsys, "rerank", "-q", "q", "-i", str(f), "--weight", "0.8", "--no-learned",
                         "--relevance", "auto")
    lines = [json.loads(ln) for ln in out.splitlines()]
    assert code == 0 and err == ""
    assert [(ln["id"], ln["rank"]) for ln in lines] == [("nih", 1), ("blog", 2)]
    assert lines[1]["extra"] == [1]
    assert lines[0]["authority"]["domain"] == "nih.gov" and lines[0]["authority"]["tier"] == "table"
    assert lines[0]["score"] == pytest.approx(lines[0]["authority"]["fused"])
    assert lines[0]["authority"]["relevance"] == 0.8 and lines[0]["authority"]["relevance_source"] == "upstream"


def test_rerank_computes_relevance_from_the_text_by_default(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    """The default relevance is the server's, cascade-or-bm25: the query is read against each text,
    and a 'score' on every line is not fused but kept (a note on stderr says how to fuse it)."""
    from authorag.relevance.registry import cascade_or_bm25

    f = tmp_path / "c.jsonl"
    rows = [{"id": "off", "url": "https://www.irs.gov/a", "text": "File your federal tax return online.", "score": 0.9},
            {"id": "on", "url": "https://www.cdc.gov/b", "text": "Cranberry juice does not prevent urinary tract "
             "infections, trials found.", "score": 0.1}]
    f.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    code, out, err = run(capsys, "rerank", "-q", "does cranberry juice prevent urinary tract infections",
                         "-i", str(f), "--no-learned")
    lines = [json.loads(ln) for ln in out.splitlines()]
    assert code == 0 and [ln["id"] for ln in lines] == ["on", "off"]
    assert {ln["authority"]["relevance_source"] for ln in lines} == {f"relevance.{cascade_or_bm25()}"}
    assert [ln["authority"]["upstream_score"] for ln in lines] == [0.1, 0.9]  # each line's score, kept
    assert err == ("authorag rerank: note: every line has a 'score', which relevance 'cascade-or-bm25' does not fuse "
                   "(it scores the text against --query; each score is kept as authority.upstream_score); pass "
                   "--relevance auto to fuse the scores instead\n")


def test_rerank_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text('{"url": "a.com", "text": "t"}\nnot json\n', encoding="utf-8")
    code, _, err = run(capsys, "rerank", "-q", "q", "-i", str(f), "--no-learned")
    assert code == 1 and f"{f}:2: not valid JSON" in err
    code, _, err = run(capsys, "rerank", "-q", "q", "-i", str(f), "--weight", "2", "--no-learned")
    assert code == 1 and "weight must be in [0, 1], got 2.0" in err


def test_demo_prior_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--judge", "none", "--no-learned", "--relevance", "none")
    assert code == 0
    assert "relevance only     top 3: 1/3 credible" in out
    # no relevance scorer: query-term coverage alone is the window; trust orders the on-topic pages
    assert "fusion             top 3: 2/3 credible" in out
    assert "authority filter   top 3: 2/3 credible" in out
    # what moved, in plain words, with the evidence; the policy in one line; the column legend
    assert "- umn.edu rose from 5 to 2: on topic (relevance 0.82 of the best), trust 0.70 (credible: universities, the " \
           "institutional suffix .edu)" in out
    assert ("policy: window fusion: pages from 0.55 of the best relevance are on topic and come first, ordered by "
            "0.5 x relevance + 0.5 x trust; the rest follow in relevance order") in " ".join(out.split())
    assert "Columns: relevance = " in out and "0.30 = nothing known" in out


def test_priors_info_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "priors", "info", "--json")
    info = json.loads(out)
    assert code == 0 and info["version"] == 1
    names = {s["name"]: s for s in info["sources"]}
    assert names["majestic"]["entries"] == 14985 and names["averitec_misinfo"]["default"] is False
    assert any(r["suffix"] == "gov" for r in info["rules"])


def test_console_script_entry_point() -> None:
    out = subprocess.run([sys.executable, "-m", "authorag", "--version"], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.startswith("authorag 0.1.0")


def test_score_names_the_domain_a_lookalike_imitates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "https://dvla-uk.vehicle-tax-refund.com/renew", "--no-learned")
    row = out.splitlines()[1].split("\t")
    assert code == 0
    assert row[:4] == ["https://dvla-uk.vehicle-tax-refund.com/renew", "vehicle-tax-refund.com", "0.039",
                       "low credibility: look-alike of dvla.gov.uk (brand claim: 'dvla' beside 'uk')"]
    _, out, _ = run(capsys, "score", "https://dvla-uk.vehicle-tax-refund.com/renew", "--no-learned", "--json")
    got = json.loads(out)[0]
    assert (got["matched"], got["trust_reason"]) == ("dvla.gov.uk", "low credibility")
    assert got["trust"] == pytest.approx(0.0386, abs=1e-3)
