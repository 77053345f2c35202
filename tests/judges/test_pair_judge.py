"""PairJudge: pair plans, PairRank/PointScore, AverageScore/BubbleSort, position bias."""
from __future__ import annotations

import pytest
from judge_fakes import TRUTH, knowing_model, shown

from authorag.errors import ConfigError
from authorag.judges.pair_judge import PairJudge, pair_plan
from authorag.judges.scoring import CHOICE_GRAMMAR, PAIR_SCORE_GRAMMAR
from authorag.testing import FakeBackend, fake_completion

DOMAINS = ["medium.com", "cheap-pills.biz", "nih.gov", "joes-plumbing.com", "bbc.co.uk", "wikipedia.org"]
BEST_FIRST = (2, 4, 5, 0, 3, 1)


def test_anchor_plan_has_35_pairs_for_10_items() -> None:
    pairs = pair_plan(10, "anchor", n_anchors=5, seed=0)
    assert len(pairs) == 35
    assert len(set(pairs)) == 35
    anchors = {i for pair in pairs for i in pair if sum(i in p for p in pairs) == 9}
    assert len(anchors) == 5  # each anchor meets the 4 other anchors and the 5 non-anchors
    assert pair_plan(10, "anchor", seed=0) == pairs  # seeded
    assert pair_plan(10, "anchor", seed=1) != pairs


@pytest.mark.parametrize(("n", "plan", "count"), [(10, "exhaustive", 45), (6, "auto", 15), (7, "auto", 20), (2, "auto", 1), (1, "auto", 0), (4, "anchor", 6)])
def test_plan_sizes(n: int, plan: str, count: int) -> None:
    assert len(pair_plan(n, plan, n_anchors=5)) == count  # type: ignore[arg-type]


def test_point_score_average_exact_order_and_call_count() -> None:
    fake = FakeBackend(knowing_model)
    run = PairJudge(fake, variant="point_score", use_logprobs=False).judge(DOMAINS)
    assert run.ranking() == BEST_FIRST
    assert [s.raw for s in run.scores] == pytest.approx([TRUTH[d] for d in DOMAINS])
    assert run.stats["comparisons"] == 15 and run.cost.calls == 30  # exhaustive, both orders
    assert run.stats["position_biased"] == 0
    assert fake.requests[0].grammar == PAIR_SCORE_GRAMMAR
    assert all(s.mode == "average-greedy" for s in run.scores)


def test_anchor_approximation_on_10_items_makes_35_comparisons() -> None:
    items = [f"site{i}.com" for i in range(10)]
    fake = FakeBackend(lambda r: "A: 5\nB: 5")
    run = PairJudge(fake, pairs="auto", both_orders=False, use_logprobs=False).judge(items)
    assert run.stats["comparisons"] == 35 and run.cost.calls == 35


def test_pair_rank_logprobs_and_both_orders() -> None:
    def model(request):  # p(first shown better) = 0.8 if it truly is, else 0.4 (a position bias)
        a, b = shown(request)
        p = 0.8 if TRUTH[a] > TRUTH[b] else 0.4
        return fake_completion("A" if p > 0.5 else "B", {"A": p, "B": 1 - p})

    fake = FakeBackend(model)
    judge = PairJudge(fake, variant="pair_rank")
    outcome = judge.compare(*judge.items(["nih.gov", "cheap-pills.biz"]))
    assert outcome.p_a == pytest.approx((0.8 + (1 - 0.4)) / 2)
    assert outcome.mode == "logprob" and not outcome.position_biased
    assert fake.requests[0].grammar == CHOICE_GRAMMAR
    run = judge.judge(["cheap-pills.biz", "nih.gov", "medium.com"])
    assert run.ranking() == (1, 2, 0)
    # nih.gov wins both of its comparisons with p = 0.7 each: 9 * 0.7
    assert run.scores[1].raw == pytest.approx(6.3)


def test_position_bias_is_counted() -> None:
    fake = FakeBackend(lambda r: "A")  # always prefers the first shown item
    run = PairJudge(fake, variant="pair_rank", use_logprobs=False).judge(["nih.gov", "cheap-pills.biz", "medium.com"])
    assert run.stats["position_biased"] == 3
    assert run.stats["first_shown_preferred"] == 6
    assert [s.raw for s in run.scores] == pytest.approx([4.5, 4.5, 4.5])  # the bias cancels out


def test_bubble_sort_orders_exactly() -> None:
    fake = FakeBackend(knowing_model)
    run = PairJudge(fake, variant="pair_rank", aggregate="bubble", output="rank", both_orders=False, use_logprobs=False).judge(DOMAINS)
    assert run.order == BEST_FIRST
    assert run.output == "rank"
    assert run.scores[2].raw == 9.0 and run.scores[1].raw == 0.0
    assert run.stats["comparisons"] <= 15


def test_failed_comparison_is_skipped_and_counted() -> None:
    fake = FakeBackend(["A: 9\nB: 1", "nonsense", "A: 4\nB: 4"])
    run = PairJudge(fake, both_orders=False, on_failure="skip", use_logprobs=False).judge(["a.com", "b.com", "c.com"])
    assert run.parse_failures == 1 and run.attempts == 3 and len(run.failures) == 1
    assert [s.raw for s in run.scores] == pytest.approx([9.0, 2.5, 4.0])


def test_invalid_options() -> None:
    with pytest.raises(ConfigError, match="variant must be one of"):
        PairJudge(FakeBackend([]), variant="duel")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="n_anchors must be >= 1"):
        pair_plan(10, "anchor", n_anchors=0)
