"""authorag check and the result shapes it reads: violations reported, kept results in the core's order."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from authorag import adapters
from authorag.cli import main
from authorag.errors import ConfigError
from authorag.websearch import check as check_mod
from authorag.websearch.check import check_responses, parse_responses
from authorag.websearch.results import ResultFilter, find_results

RESULTS = [
    {"url": "https://cranberrycure.blogspot.com/post", "title": "Cranberry cures UTIs", "content": "Cures all."},
    {"url": "https://www.nih.gov/news/cranberry-uti", "title": "Cranberry and UTIs", "content": "A modest effect."},
    {"url": "https://healthy-tips-4u.example.biz/cranberry", "title": "Tips", "content": "Drink it daily."},
    {"url": "https://www.mayoclinic.org/cranberry", "title": "Cranberry juice", "content": "The evidence is mixed."},
]
TAVILY = {"query": "cranberry juice urinary tract infections", "results": RESULTS}


def _filter(**policy: Any) -> ResultFilter:
    return ResultFilter(*adapters.build_reranker(relevance="rank", policy=policy))


@pytest.mark.parametrize("shape", [
    TAVILY,
    RESULTS,
    json.dumps(TAVILY),
    {"web": {"results": [{"url": r["url"], "title": r["title"], "description": r["content"]} for r in RESULTS]}},
    {"search_results": [{"link": r["url"], "title": r["title"], "snippet": r["content"]} for r in RESULTS]},
])
def test_every_shape_gives_the_same_verdict(shape: object) -> None:
    report = check_responses(_filter(deny=["*.biz"], min_authority=0.4), [shape], query=TAVILY["query"])
    (response,) = report["responses"]
    assert [v["reason"] for v in response["violations"]] == ["matches the deny list", "trust 0.35 below min_authority 0.4"]
    kept = [r.get("url") or r.get("link") for r in response["results"]]
    assert kept == ["https://www.mayoclinic.org/cranberry", "https://www.nih.gov/news/cranberry-uti"]


def test_only_allowed_reports_what_an_include_filter_leaked() -> None:
    report = check_responses(_filter(allow=["nih.gov"]), [TAVILY], only_allowed=True)
    (response,) = report["responses"]
    assert sorted(v["domain"] for v in response["violations"]) == [
        "cranberrycure.blogspot.com", "example.biz", "mayoclinic.org"]
    assert {v["reason"] for v in response["violations"]} == {"outside the allow list"}
    assert [r["url"] for r in response["results"]] == ["https://www.nih.gov/news/cranberry-uti"]


def test_non_search_output_is_left_alone_and_refused_by_check() -> None:
    assert find_results({"temperature": 21}) is None
    assert find_results("not json") is None
    with pytest.raises(ConfigError, match=r"response\(s\) \[1\] hold no search results"):
        check_responses(_filter(), [{"temperature": 21}])


def test_jsonl_of_single_results_is_one_response() -> None:
    text = "\n".join(json.dumps(r) for r in RESULTS)
    (response,) = parse_responses(text, "x.jsonl")
    assert [r["url"] for r in response] == [r["url"] for r in RESULTS]


def test_bad_json_line_names_the_line() -> None:
    with pytest.raises(ConfigError, match=r"x.jsonl:2: not JSON"):
        parse_responses('{"url": "https://a.org"}\n{oops\n', "x.jsonl")


def test_result_limit_is_enforced_before_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_mod, "MAX_CHECK_RESULTS", 3)
    with pytest.raises(ConfigError, match="4 results, over the limit of 3 per run"):
        check_responses(_filter(), [TAVILY])


def test_cli_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tavily.json"
    path.write_text(json.dumps(TAVILY), encoding="utf-8")
    assert main(["check", "-i", str(path), "--deny", "*.biz", "--min-authority", "0.4"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["violations"] == 2 and report["results"] == 4
    assert [r["authority"]["domain"] for r in report["responses"][0]["results"]] == ["mayoclinic.org", "nih.gov"]  # the response's own query
    assert err == "authorag check: 2 of 4 results break the policy\n"


def test_only_allowed_needs_an_allow_list() -> None:
    with pytest.raises(ConfigError, match="allow list, which is empty"):
        check_responses(_filter(), [TAVILY], only_allowed=True)
