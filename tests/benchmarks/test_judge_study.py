"""The judge study folded into ``authorag bench judges`` reproduces the committed prior-only row."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from authorag.benchmarks.judge_study.report import markdown
from authorag.benchmarks.judge_study.study import UNKNOWN_BELOW, make_judges, run_judge, study_task
from authorag.benchmarks.metrics import bootstrap_ci
from authorag.benchmarks.protocols import sample_distinct_lists
from authorag.benchmarks.registry import load_task
from authorag.cli import main
from authorag.errors import ConfigError
from authorag.testing import FakeBackend, judge_script

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "results" / "judges_domainauth_web.json"


def test_prior_only_run_reproduces_the_committed_lists_and_prior_row(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    code = main(["bench", "judges", "--methods", "prior", "--lists", "20", "--seed", "0", "--out", str(tmp_path / "j")])
    assert code == 0 and "prior rho 0.160 over 20 lists" in capsys.readouterr().out
    result = json.loads((tmp_path / "j.json").read_text(encoding="utf-8"))
    assert result["lists"] == committed["lists"] and result["judges"] == {}
    new, old = result["prior_only"], committed["prior_only"]
    for row_new, row_old in ((new, old), (new["known_only"], old["known_only"])):
        assert row_new["lists"] == row_old["lists"]
        assert row_new["per_list_spearman"] == row_old["per_list_spearman"]
        for key in ("spearman_mean", "spearman_sd", "kendall_mean"):  # scipy vs bench metrics: last bit only
            assert row_new[key] == pytest.approx(row_old[key], rel=1e-12, abs=1e-15), key
    assert (new["sources"], new["coverage"], new["unknown_policy"]) == (old["sources"], old["coverage"], old["unknown_policy"])


def test_distinct_lists_use_every_domain_once_one_per_level() -> None:
    task = study_task()
    lists = sample_distinct_lists(task, 30, seed=3)
    keys = [i.key for lst in lists for i in lst]
    assert len(keys) == len(set(keys)) == 300
    assert all(sorted(i.level for i in lst) == list(range(10)) for lst in lists)
    assert sample_distinct_lists(task, 30, seed=3) == lists
    smallest = min(len(g) for g in task.by_level().values())
    with pytest.raises(ConfigError, match=rf"n_lists must be in \[1, {smallest}\] for distinct lists of "
                                          rf"domainauth-web-study \(its smallest level has {smallest} items\), got 0"):
        sample_distinct_lists(task, 0, seed=0)
    with pytest.raises(ConfigError, match=rf"got {smallest + 1}$"):
        sample_distinct_lists(task, smallest + 1, seed=0)


def test_study_labels_differ_from_the_bench_web_task_as_documented() -> None:
    study = {i.key: i.level for i in study_task().items}
    bench = {i.key: i.level for i in load_task("domainauth-web-fine").items}
    common = study.keys() & bench.keys()
    assert (len(study), len(bench), len(common)) == (14859, 14985, 14857)
    assert sum(study[k] != bench[k] for k in common) == 298
    assert all(abs(study[k] - bench[k]) == 1 for k in common if study[k] != bench[k])
    listed = [k for lst in json.loads(COMMITTED.read_text(encoding="utf-8"))["lists"] for k in lst]
    assert sum(study[k] != bench[k] for k in listed) == 6


def test_point_judge_row_with_an_oracle_model_ranks_every_list_perfectly() -> None:
    task = study_task()
    lists = sample_distinct_lists(task, 2, seed=0)
    level = {i.key: i.level for lst in lists for i in lst}

    def oracle(text: str) -> int:  # the gold level of the (longest) listed domain the prompt line names
        return level[max((k for k in level if k in text), key=len)]

    judge = make_judges(FakeBackend(judge_script(oracle)))["point"]()
    row = run_judge("point", judge, task, lists, time.perf_counter() + 60)
    assert row["per_list_spearman"] == [1.0, 1.0] and row["spearman_mean"] == 1.0
    assert row["calls"] == 20 and row["skipped"] == 0 and sorted(row["item_scores"]) == sorted(level)


def test_report_uses_the_bench_bootstrap() -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    low, high = bootstrap_ci(committed["judges"]["point"]["per_list_spearman"])
    assert f"| PointJudge (logprob) | 20 | 0.272 (0.337) | [{low:.2f}, {high:.2f}] |" in markdown(committed)
    assert UNKNOWN_BELOW < 0.0


def test_unknown_method_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["bench", "judges", "--methods", "prior,rank", "--out", str(tmp_path / "j")]) == 1
    assert ("method must be one of 'prior', 'point', 'list', 'pair', got 'rank'"
            in capsys.readouterr().err)


def test_docstring_examples() -> None:
    import doctest

    from authorag.benchmarks.judge_study import study as judge_study

    assert doctest.testmod(judge_study).failed == 0


def test_a_new_run_never_drops_judge_rows_silently(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "j"
    out.with_suffix(".json").write_text(json.dumps({"judges": {"point": {}, "pair": {}}}), encoding="utf-8")
    assert main(["bench", "judges", "--methods", "prior", "--out", str(out)]) == 1
    assert "holds judge rows (pair, point) that a new run replaces; pass --overwrite" in capsys.readouterr().err
    assert main(["bench", "judges", "--methods", "prior", "--out", str(out), "--overwrite"]) == 0
    assert json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["judges"] == {}
