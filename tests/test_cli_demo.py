"""`authorag demo` and scripts/demo.sh: no judge by default, one scoring per run, the tier that set the trust."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from authorag.cli import main
from authorag.cli.demo import compute_demo, print_demo
from authorag.judges.point_judge import PointJudge
from authorag.priors.table import load_prior
from authorag.relevance.registry import load_relevance
from authorag.rerankers.authority import AuthorityReranker
from authorag.testing import FakeBackend
from authorag.tiers.hybrid import HybridAuthority
from authorag.tiers.tiered import TieredAuthority
from authorag.types import AuthorityDetail, Candidate

ROOT = Path(__file__).resolve().parents[1]


class CountingScorer:
    """Wraps a scorer and counts its calls."""

    def __init__(self, inner: TieredAuthority) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls: list[int] = []

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        self.calls.append(len(candidates))
        return self.inner.score(candidates)


def _judged(answer: str = "6") -> tuple[TieredAuthority, FakeBackend]:
    """The composition with a point judge behind the table (the model faked at its boundary)."""
    fake = FakeBackend(lambda req: answer)
    judge = PointJudge(fake, use_logprobs=False, on_failure="skip")
    hybrid = HybridAuthority(load_prior(), None, judge, calibration=None)
    return TieredAuthority(hybrid, name="table>judge.point:fake"), fake


def test_demo_runs_without_a_judge_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["demo", "--no-learned"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "scorer: reserved>hosted>table; relevance: relevance.bm25" in out
    assert "building the scorer (without an LLM judge)" in err
    assert "LLM judge:" not in out


def test_demo_scores_each_page_once_and_labels_the_tier_that_set_the_trust() -> None:
    scorer, fake = _judged()
    counting = CountingScorer(scorer)
    reranker = AuthorityReranker(counting, relevance=load_relevance("bm25"))  # type: ignore[arg-type]
    result = compute_demo(reranker)
    assert counting.calls == [10]  # one scoring for the three orders
    assert len(fake.requests) == 7  # the seven pages no table knows, each judged once
    out = io.StringIO()
    print_demo(reranker, result, out)
    text = out.getvalue()
    rows = [ln for ln in text.splitlines() if "│" in ln]
    tiers = {ln.split("│")[2].strip(): ln.split("│")[7].strip() for ln in rows}
    # no table knows the page and page evidence is off (the default): the judge set its trust, and the
    # column says so in every table
    assert tiers["healingcancernaturally.com"] == "judge" and tiers["cancer.gov"] == "table"
    assert not any(ln.split("│")[7].strip() == "page" for ln in rows)
    assert "LLM judge: rated 7 of 10 pages; it set the trust of 7: " in " ".join(text.split())


def test_demo_without_page_evidence_shows_the_judge_as_the_trust_setter() -> None:
    fake = FakeBackend(lambda req: "6")
    judge = PointJudge(fake, use_logprobs=False, on_failure="skip")
    scorer = TieredAuthority(HybridAuthority(load_prior(), None, judge, calibration=None), name="table>judge")
    reranker = AuthorityReranker(scorer, relevance=load_relevance("bm25"))
    out = io.StringIO()
    print_demo(reranker, compute_demo(reranker), out)
    text = " ".join(out.getvalue().split())
    assert "LLM judge: rated 7 of 10 pages; it set the trust of 7: " in text
    assert "│ healingcancernaturally.com │ not credible │ yes │ 1.00 │" in text


def _demo_sandbox(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "demo.sh", tmp_path / "scripts" / "demo.sh")
    (tmp_path / "scripts" / "setup.sh").write_text(f'echo "setup $*" >> {tmp_path / "calls.log"}\n')
    bindir = tmp_path / ".venv" / "bin"
    bindir.mkdir(parents=True)
    fake = bindir / "authorag"  # the process boundary: the demo command itself
    fake.write_text(f'#!/bin/sh\necho "authorag $*" >> {tmp_path / "calls.log"}\n')
    fake.chmod(0o755)
    return tmp_path


@pytest.mark.parametrize(("args", "setup"), [((), "setup "), (("--judge", "local"), "setup --model"),
                                             (("--judge=local",), "setup --model"),
                                             (("--judge", "none"), "setup ")])
def test_demo_script_installs_the_model_only_for_the_local_judge(tmp_path: Path, args: tuple[str, ...],
                                                                 setup: str) -> None:
    box = _demo_sandbox(tmp_path)
    proc = subprocess.run(["bash", str(box / "scripts" / "demo.sh"), *args], capture_output=True, text=True,
                          timeout=60, check=False, env={**os.environ, "AUTHORAG_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    calls = (box / "calls.log").read_text().splitlines()
    assert calls == [setup, " ".join(("authorag demo", *args))]
    assert ("'bash scripts/demo.sh --judge local' adds the local LLM judge" in proc.stdout) == (setup == "setup ")
