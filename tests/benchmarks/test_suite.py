"""``authorag bench suite paper``: plan, estimate, resumable run, paper-layout report."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from authorag.benchmarks.paper.report import published
from authorag.benchmarks.paper.suite import (
    SuiteSizes,
    estimate,
    paper_plan,
    run_suite,
    select_conditions,
)
from authorag.cli import main
from authorag.errors import ConfigError

TINY = SuiteSizes(lists=2, pairs=3, group_lists=1, instances=1)


def test_plan_covers_the_paper_tables() -> None:
    plan = paper_plan(TINY, backend="fake")
    ids = [c.config.run_id() for c in plan]
    assert len(plan) == 2 * 5 + 6 * 5 + 1
    assert "domainauth-web-fine__judge-pair-rank__paper" in ids
    assert ids[-1] == "ragauth-trec2019__judge-list-score__paper"
    rag = plan[-1].config
    assert (rag.generator, rag.relevance, rag.utility, rag.max_instances) == (True, "llm-relevance", "llm-utility", 1)
    assert {c.config.n_lists for c in plan if c.form == "point"} == {2}
    assert {c.config.n_lists for c in plan if c.form != "point" and c.table != "ragauth"} == {1}


def test_estimate_counts_calls_by_hand() -> None:
    plan = select_conditions(paper_plan(TINY, backend="fake"), ["domainauth-web-fine__judge-pair-score",
                                                                 "domainauth-web-coarse__judge-list-rank",
                                                                 "ragauth"])
    est = estimate(plan, prompt_tps=100.0, gen_tps=10.0)
    calls = {r["run_id"]: r["calls"] for r in est["conditions"]}
    # pair: 1 list of 10 → 5 anchors: 10 + 25 = 35 comparisons, + 3 easy + 3 hard pairs; both orders
    assert calls["domainauth-web-fine__judge-pair-score__paper"] == 2 * (35 + 6)
    # list: 1 list of 5 in one window + 6 pairs as 2-item lists
    assert calls["domainauth-web-coarse__judge-list-rank__paper"] == 1 + 6
    # RAG, 1 instance: authority + relevance + utility (one call each under the paper set) + 10 generator calls
    assert calls["ragauth-trec2019__judge-list-score__paper"] == 3 + 10
    assert est["total"]["calls"] == sum(calls.values()) and est["total"]["hours"] > 0


def test_suite_runs_resumes_and_reports_beside_the_paper(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "suite", "paper", "--backend", "fake", "--lists", "2", "--pairs", "2", "--group-lists", "1",
            "--instances", "1", "--only", "entityauth-movies-coarse__judge-point", "--only", "ragauth",
            "--option", "cache=off", "--out", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr()
    assert json.loads(out.out.split("\n}\n")[0] + "\n}")["conditions"] == 2
    assert "entityauth-movies-coarse__judge-point-score__paper: done" in out.err
    report = (tmp_path / "paper_report.md").read_text()
    assert "| paper: Qwen3-32B | 76.49 | 65.26 | 88.42 |" in report  # table 6, movies, from the paper
    assert "ours: fake:scripted-hash" not in report and "ours: fake:default (paper protocol)" in report
    assert "ours: stance proxy (no model)" in report
    assert main(argv) == 0  # resume: nothing left to run
    assert "skipped (exists)" in capsys.readouterr().err


def test_published_numbers_and_bad_input() -> None:
    assert published("5", "Qwen3-14B", "k=1", "authority", "accuracy") == 76.67
    assert published("5", "Qwen3-14B", "k=1", "none", "accuracy") == 58.33
    assert published("1", "Qwen3-8B", "w/ text", "pair-score", "kendall") == 50.12
    with pytest.raises(ConfigError, match="matches no condition"):
        select_conditions(paper_plan(TINY, backend="fake"), ["nope"])
    with pytest.raises(ConfigError, match="jobs must be >= 1"):
        run_suite([], Path("."), jobs=0)
