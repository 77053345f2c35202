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


def test_pair_judge_point_score_prefers_nih_in_both_orders(backend) -> None:
    # PointScore, not PairRank: the 1.5B model's A/B preference stays near 0.5 (docs/judges.md).
    judge = PairJudge(backend, variant="point_score")
    a, b = judge.items(["nih.gov", "free-cash-prizes-4u.biz"])
    outcome = judge.compare(a, b)
    assert outcome.mode == "logprob"
    assert outcome.score_a is not None and outcome.score_b is not None
    assert outcome.score_a > outcome.score_b and outcome.p_a == 1.0


def test_list_judge_puts_spam_last(backend) -> None:
    run = ListJudge(backend).judge(["free-cash-prizes-4u.biz", "nih.gov", "harvard.edu"])
    assert run.ranking()[-1] == 0
