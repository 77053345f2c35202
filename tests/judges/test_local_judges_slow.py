"""The real embedded 1.5B model orders obvious cases correctly (slow: loads ~1.1 GB)."""
from __future__ import annotations

import pytest

from authorag.judges import ListJudge, PairJudge, PointJudge

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def backend():
    from authorag.judges.backends.local import LocalBackend

    return LocalBackend()


def test_point_judge_prefers_nih_over_spam(backend) -> None:
    run = PointJudge(backend).judge(["nih.gov", "free-cash-prizes-4u.biz"])
    nih, spam = (s.raw for s in run.scores)
    assert run.scores[0].mode == "logprob"
    assert nih is not None and spam is not None and nih > spam + 1.0


def test_pair_judge_prefers_nih_in_both_orders(backend) -> None:
    judge = PairJudge(backend, variant="pair_rank")
    a, b = judge.items(["nih.gov", "free-cash-prizes-4u.biz"])
    outcome = judge.compare(a, b)
    assert outcome.p_a > 0.6 and outcome.mode == "logprob"


def test_list_judge_puts_spam_last(backend) -> None:
    run = ListJudge(backend).judge(["free-cash-prizes-4u.biz", "nih.gov", "harvard.edu"])
    assert run.ranking()[-1] == 0
