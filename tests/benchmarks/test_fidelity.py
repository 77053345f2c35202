"""Issue 14: every bench method does what its name says; runs leave the repo untouched."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from authorag.benchmarks.methods import MethodContext
from authorag.benchmarks.registry import RAG_TASKS, build_method, method_specs, task_names
from authorag.benchmarks.runner import RunConfig, run_condition
from authorag.benchmarks.tasks import BenchItem
from authorag.cli import main
from authorag.judges.backends.base import ChatRequest
from authorag.judges.registry import load_judge
from authorag.judges.scoring import CHOICE_GRAMMAR
from authorag.testing import FakeBackend

PAIR_RANK_USER = (
    "Source authority means how established, widely referenced and trusted a source is as a publisher of "
    "information. Signals of high authority include: being a well-known institution, government body, major "
    "news organization, university, reference work or widely used platform; being cited and linked to by many "
    "other independent sites; and having a long public track record. Signals of low authority include: being "
    "obscure or unknown, having a name that looks auto-generated, spammy or deceptive, imitating a better-known "
    "brand, or existing mainly to sell, advertise or attract clicks. Judge the source itself (the site or "
    "publisher), not whether one particular page is correct.\n\n"
    "Which of the two sources below has higher authority?\n\n"
    "Answer with the single letter A or B and nothing else.\n\n"
    "Items:\n[A] Domain: nih.gov\n[B] Domain: spam.biz"
)
NIH, SPAM = BenchItem("nih.gov", "nih.gov", 1), BenchItem("spam.biz", "spam.biz", 0)


def _ctx(**kw: object) -> MethodContext:
    return MethodContext(task_family="domainauth", label_source=None, backend="fake", **kw)  # type: ignore[arg-type]


def test_judge_pair_rank_sends_the_pair_rank_prompt() -> None:
    method = build_method("judge-pair-rank", _ctx())
    method.score([NIH, SPAM])
    requests = method.judge.backend.requests  # type: ignore[attr-defined]
    assert [r.messages[1]["content"] for r in requests[:1]] == [PAIR_RANK_USER]
    assert {r.grammar for r in requests} == {CHOICE_GRAMMAR}
    assert method.info()["prompt_version"] == "authority_pair_rank_v1"
    score = build_method("judge-pair-score", _ctx())
    score.score([NIH, SPAM])
    assert score.info()["prompt_version"] == "authority_pair_score_v1"
    assert "Rate the authority of each of the two" in score.judge.backend.requests[0].messages[1]["content"]  # type: ignore[attr-defined]


def test_pair_output_picks_the_prompt_and_an_explicit_variant_wins() -> None:
    assert load_judge("pair", FakeBackend([]), output="rank").prompt == "authority_pair_rank_v1"  # type: ignore[attr-defined]
    assert load_judge("pair", FakeBackend([]), output="score").prompt == "authority_pair_score_v1"  # type: ignore[attr-defined]
    assert load_judge("pair", FakeBackend([]), output="rank",  # type: ignore[attr-defined]
                      variant="point_score").prompt == "authority_pair_score_v1"


def test_bubble_sort_is_a_bench_method() -> None:
    assert {"judge-pair-rank-bubble", "judge-pair-rank-bubble-text"} <= set(method_specs())
    method = build_method("judge-pair-rank-bubble-greedy", _ctx())
    # the model boundary: always "A" (the first-shown item); asked in both orders that is a tie,
    # so BubbleSort never swaps: one pass of n - 1 comparisons, two calls each, input order kept
    method.judge.backend = FakeBackend(lambda _r: "A")  # type: ignore[attr-defined]
    third = BenchItem("c.org", "c.org", 2)
    assert method.score([NIH, SPAM, third]) == [3.0, 2.0, 1.0]
    assert method.info()["calls"] == 4


def test_judge_cli_reaches_bubble_sort(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the model boundary: prefers the alphabetically later domain, so BubbleSort reverses the input
    def later(request: ChatRequest) -> str:
        a, b = re.findall(r"Domain: (\S+)", request.messages[1]["content"])
        return "A" if a > b else "B"

    fake = FakeBackend(later, name="local", model="scripted")
    monkeypatch.setattr("authorag.judges.backends.load_backend", lambda *_a, **_k: fake)
    code = main(["judge", "--method", "pair", "--output", "rank", "--aggregate", "bubble", "--greedy", "--json",
                 "a.com", "b.com", "c.com"])
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["input"] for r in sorted(rows, key=lambda r: r["rank"])] == ["c.com", "b.com", "a.com"]
    assert {r["prompt_version"] for r in rows} == {"authority_pair_rank_v1"}
    assert all("Which of the two sources" in r.messages[1]["content"] for r in fake.requests)


def test_hybrid_judge_cost_counts_the_judge_calls() -> None:
    result = run_condition(RunConfig(task="credauth-baly", method="hybrid-judge", backend="fake",
                                     n_lists=3, n_pairs=2, options={"cache": "off"}))
    info = result["method_info"]
    assert info["calls"] > 0
    assert result["cost"]["calls"] == info["calls"]
    assert info["tiers"]["judge"] > 0


TRACKS = ("tail-trec2019", "hosted-urls")  # issue-11 tracks: their own headline metrics, no committed random run


@pytest.mark.parametrize("task", [t for t in task_names() if t not in RAG_TASKS and t not in TRACKS])
def test_random_sits_within_its_ci_of_zero(task: str) -> None:
    # the committed configuration (500 lists, seed 0); a 95 % CI, so another seed may miss on 1 of 20
    le = run_condition(RunConfig(task=task, method="random", n_lists=500, n_pairs=1))["metrics"]["le"]
    low, high = le["spearman_ci"]
    assert low <= 0.0 <= high, (task, le["spearman"], le["spearman_ci"])


@pytest.mark.parametrize(("task", "metric"), [("tail-trec2019", "pairs"), ("hosted-urls", "overall")])
def test_random_sits_within_its_ci_of_chance_on_the_tracks(task: str, metric: str) -> None:
    # the tracks' headline metric is a pair accuracy (chance = 0.5); seed 0 as in bench compare
    got = run_condition(RunConfig(task=task, method="random", n_lists=500, n_pairs=1))["metrics"][metric]
    low, high = got["accuracy_ci"]
    assert low <= 0.5 <= high, (task, got["accuracy"], got["accuracy_ci"])


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def test_bench_run_leaves_the_checkout_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    (repo / "benchmarks" / "results" / "runs").mkdir(parents=True)
    (repo / "benchmarks" / "results" / "runs" / "README").write_text("committed results\n")
    _git(repo, "init", "-q")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    monkeypatch.chdir(repo)
    monkeypatch.delenv("AUTHORAG_RESULTS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    argv = ["bench", "run", "--task", "credauth-baly", "--method", "oracle", "--lists", "3", "--pairs", "2", "--quiet"]
    assert main(argv) == 0
    assert _git(repo, "status", "--porcelain") == ""
    folder = tmp_path / "data" / "authorag" / "bench" / "credauth-baly__oracle"
    assert json.loads(capsys.readouterr().out)["folder"] == str(folder)
    assert main(argv) == 1  # a second run does not silently replace the first
    assert "already holds a result; pass --overwrite" in capsys.readouterr().err
    assert main([*argv, "--overwrite"]) == 0
    assert sorted(os.listdir(folder)) == ["config.json", "result.json"]
    assert _git(repo, "status", "--porcelain") == ""
