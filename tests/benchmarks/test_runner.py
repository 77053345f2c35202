"""Runner, CLI and manifest checker: results folders, smoke check, failing check."""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml

from authorag.benchmarks.manifest import default_manifest_path, load_manifest, metric_at
from authorag.benchmarks.methods import MethodContext, ScorerMethod
from authorag.benchmarks.rag.protocol import answer_score, keep_top, yes_probability
from authorag.benchmarks.registry import build_method, method_specs
from authorag.benchmarks.runner import RunConfig, run_condition
from authorag.benchmarks.tasks import BenchItem
from authorag.cli import main
from authorag.errors import ConfigError
from authorag.types import AuthorityDetail, Candidate

REQUIRED_KEYS = {"config", "package_version", "seed", "data_checksums", "backend", "cost", "parse_failures",
                 "wall_time_s", "metrics", "method_info", "run_id", "result_version"}


class LengthScorer:
    """Tiny deterministic AuthorityScorer: shorter domains are more authoritative; 'x' unknown."""

    name = "length"

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        return [AuthorityDetail(None, 0.0, "unknown") if (c.domain or "").startswith("x")
                else AuthorityDetail(1.0 / len(c.domain or "a"), 1.0, "table") for c in candidates]


def test_scorer_method_reports_unknown_as_none() -> None:
    method = ScorerMethod("length", LengthScorer())
    items = [BenchItem("ab.com", "ab.com", 1), BenchItem("abcd.com", "abcd.com", 0), BenchItem("xy.com", "xy.com", 0)]
    assert method.score(items) == [pytest.approx(1 / 6), pytest.approx(1 / 8), None]
    assert method.info()["tiers"] == {"table": 2, "unknown": 1}


def test_random_method_draws_anew_per_group_and_is_seeded() -> None:
    ctx = MethodContext(task_family="domainauth", label_source=None, seed=4)
    a, b = BenchItem("a.com", "a.com", 0), BenchItem("b.com", "b.com", 1)
    m, again = build_method("random", ctx), build_method("random", ctx)
    first = m.score([a, b])
    assert m.score([a, b]) != first
    assert again.score([a, b]) == first


def test_unknown_method_and_missing_backend() -> None:
    ctx = MethodContext(task_family="domainauth", label_source=None)
    with pytest.raises(ConfigError, match="unknown method 'nope'; known methods: random, oracle"):
        build_method("nope", ctx)
    with pytest.raises(ConfigError, match="needs --backend"):
        build_method("judge-point-score", ctx)


def test_registry_has_bounds_priors_and_judges() -> None:
    names = set(method_specs())
    assert {"random", "oracle", "prior", "learned", "hybrid", "chatgpt-yang2023", "judge-point-score",
            "judge-point-score-text"} <= names


def test_prior_leaves_label_source_out() -> None:
    result = run_condition(RunConfig(task="domainauth-news-fine", method="prior", n_lists=5, n_pairs=5))
    info = result["method_info"]
    assert info["excluded_sources"] == ["ccnews_pagerank"]
    assert "ccnews_pagerank" not in info["active_sources"] and "ccnews_pagerank" not in info["source_coverage"]
    assert info["items_scored"] == result["metrics"]["n_items"]  # coverage is over every benchmark item


def test_oracle_is_perfect_and_method_kind_is_checked() -> None:
    m = run_condition(RunConfig(task="credauth-baly", method="oracle", n_lists=5, n_pairs=5))["metrics"]
    assert m["le"]["spearman"] == 1.0 and m["pe"]["easy"]["accuracy"] == 1.0
    with pytest.raises(ConfigError, match="cannot score entity items"):
        run_condition(RunConfig(task="entityauth-songs-fine", method="prior", n_lists=2, n_pairs=2))


def test_rag_oracle_authority_beats_none() -> None:
    m = run_condition(RunConfig(task="ragauth-trec2019", method="oracle"))["metrics"]
    assert m["n_instances"] == 33 and m["all_documents"] == 0.5  # stance-balanced instances
    assert m["generator_free"]["authority"]["1"] > m["generator_free"]["none"]["1"]


def test_rag_helpers() -> None:
    assert keep_top([0.2, 0.9, 0.9, 0.1], 2) == [1, 2]
    assert yes_probability({" No": -0.1}, "No") == 0.0
    assert yes_probability({}, "maybe") is None
    assert answer_score(None, 1) == 0.5 and answer_score(0.8, 0) == 0.0 and answer_score(0.8, 1) == 1.0


def test_cli_run_writes_results_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "run", "--task", "credauth-baly", "--method", "judge-point-score", "--backend", "fake",
                 "--lists", "4", "--pairs", "3", "--seed", "7", "--out", str(tmp_path), "--quiet"])
    assert code == 0
    folder = tmp_path / "credauth-baly__judge-point-score"
    result = json.loads((folder / "result.json").read_text())
    assert REQUIRED_KEYS <= set(result)
    assert json.loads((folder / "config.json").read_text())["seed"] == 7
    assert result["data_checksums"]["authorag.benchmarks.data/baly2018.csv.gz"].__len__() == 64
    assert result["cost"]["calls"] > 0 and result["parse_failures"] == 0
    assert json.loads(capsys.readouterr().out)["folder"] == str(folder)


def test_cli_report_renders_tables_and_plots(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    for method in ("oracle", "random"):
        assert main(["bench", "run", "--task", "credauth-baly", "--method", method, "--lists", "3", "--pairs", "3",
                     "--out", str(runs), "--quiet"]) == 0
    assert main(["bench", "run", "--task", "ragauth-trec2019", "--method", "oracle", "--max-instances", "3",
                 "--out", str(runs), "--quiet"]) == 0
    assert main(["bench", "report", "--results", str(runs), "--out", str(tmp_path)]) == 0
    report = (tmp_path / "report.md").read_text()
    assert "| oracle | 1.00 / 1.00 |" in report
    assert "| authority |" in report
    assert {p.name for p in (tmp_path / "plots").iterdir()} == {
        "rho_credauth-baly.png", "confusion_credauth-baly.png", "rag_ragauth-trec2019.png"}


def test_smoke_check_passes() -> None:
    assert main(["bench", "check", "--smoke"]) == 0


def test_wrong_expected_value_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(default_manifest_path().read_text())
    cond = data["conditions"]["smoke-songs-oracle"]
    cond["metrics"]["le.spearman"]["value"] = 0.5
    path = tmp_path / "wrong.yaml"
    path.write_text(yaml.safe_dump({"version": 1, "conditions": {"smoke-songs-oracle": cond}}))
    assert main(["bench", "check", "--manifest", str(path), "--all"]) == 1
    assert "FAIL smoke-songs-oracle" in capsys.readouterr().out


def test_check_list_dry_run_and_unknown_condition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "check", "--dry-run", "--condition", "smoke-songs-oracle"]) == 0
    assert capsys.readouterr().out.startswith("authorag bench run --task entityauth-songs-fine")
    assert main(["bench", "check", "--list"]) == 0
    assert main(["bench", "check", "--condition", "nope"]) == 1


def test_manifest_shape() -> None:
    conds = load_manifest()
    assert any(c.smoke for c in conds)
    assert all(c.command.startswith("authorag bench run ") for c in conds)
    assert metric_at({"a": {"b": {"3": 0.5}}}, "a.b.3") == 0.5 and metric_at({}, "a") is None


def test_hybrid_fills_unknowns_with_the_learned_tier() -> None:
    result = run_condition(RunConfig(task="credauth-baly", method="hybrid", n_lists=5, n_pairs=5))
    tiers = result["method_info"]["tiers"]
    assert set(tiers) <= {"table", "rule", "learned"} and tiers["learned"] > 0
    assert result["metrics"]["le"]["coverage"] == 1.0


def test_chatgpt_reference_row_skips_unrated_domains() -> None:
    m = build_method("chatgpt-yang2023", MethodContext(task_family="credauth", label_source=None))
    scores = m.score([BenchItem("100percentfedup.com", "100percentfedup.com", 0),
                      BenchItem("not-rated-zq.example", "not-rated-zq.example", 0)])
    assert scores == [pytest.approx(0.2), None]
