"""Progress on a non-terminal stderr: plain lines written as the work happens, totals kept."""
from __future__ import annotations

import pytest

from authorag.cli._util import show_progress
from authorag.progress import report


def test_lines_on_a_pipe_keep_an_announced_total(capsys: pytest.CaptureFixture[str]) -> None:
    with show_progress():  # pytest's captured stderr is not a terminal
        report("judge.point", 0, 3, unit="calls")  # the scorer announces the calls a request may make
        for done in (1, 2, 3):
            report("judge.point", done, unit="calls")  # the judge counts its calls, total unknown to it
    assert capsys.readouterr().err.splitlines() == [
        "judge.point: 0/3 calls", "judge.point: 1/3 calls", "judge.point: 2/3 calls", "judge.point: 3/3 calls"]


def test_lines_for_bytes_every_tenth(capsys: pytest.CaptureFixture[str]) -> None:
    total = 100 << 20
    with show_progress():
        for done in range(0, total + 1, total // 100):
            report("assemble model.gguf", done, total, unit="bytes")
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "assemble model.gguf: 0/100 MiB" and lines[-1] == "assemble model.gguf: 100/100 MiB"
    assert len(lines) == 11  # one per tenth, the last at completion


def test_judge_progress_counts_every_call_of_a_request(capsys: pytest.CaptureFixture[str]) -> None:
    from authorag import candidates_from
    from authorag.judges.point_judge import PointJudge
    from authorag.priors import load_prior
    from authorag.testing import FakeBackend
    from authorag.tiers.hybrid import HybridAuthority

    hybrid = HybridAuthority(load_prior(), judge=PointJudge(FakeBackend(["6", "4"]), use_logprobs=False))
    with show_progress():
        hybrid.score(candidates_from(["zq-a.biz", "zq-b.biz", "nih.gov", "zq-a.biz/other"]))
    # two unknown domains, one call each: was "1/? calls" twice (each call counted on its own)
    assert capsys.readouterr().err.splitlines() == [
        "judge.point: 0/2 calls", "judge.point: 1/2 calls", "judge.point: 2/2 calls"]
