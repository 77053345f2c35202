"""Metric fixtures worked out by hand (see the comments for the arithmetic)."""
from __future__ import annotations

import doctest

import pytest

from authorag.benchmarks import metrics
from authorag.benchmarks.metrics import (
    average_ranks,
    bootstrap_ci,
    kendall_tau_b,
    mean,
    pair_accuracy,
    spearman,
    stance_majority_score,
)
from authorag.errors import ConfigError


def test_average_ranks_share_ties() -> None:
    # sorted: 5 (1), 10 (2), 20 20 (3, 4 -> 3.5 each)
    assert average_ranks([10, 20, 20, 5]) == [2.0, 3.5, 3.5, 1.0]


def test_spearman_without_ties() -> None:
    # ranks of pred: [1, 3, 2]; d = 0, 1, 1; rho = 1 - 6*2 / (3*8) = 0.5
    assert spearman([1, 2, 3], [10, 30, 20]) == pytest.approx(0.5)


def test_spearman_with_ties() -> None:
    # pred ranks [1, 2.5, 2.5, 4]; centred gold [-1.5, -.5, .5, 1.5], centred pred [-1.5, 0, 0, 1.5]
    # sxy = 4.5, sxx = 5, syy = 4.5 -> 4.5 / sqrt(22.5)
    assert spearman([1, 2, 3, 4], [1, 2, 2, 4]) == pytest.approx(4.5 / 22.5 ** 0.5)


def test_spearman_reversed_and_constant() -> None:
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 3], [0.3, 0.3, 0.3]) == 0.0


def test_kendall_tau_b_without_ties() -> None:
    # pairs (1,2) C, (1,3) C, (2,3) D -> (2 - 1) / 3
    assert kendall_tau_b([1, 2, 3], [10, 30, 20]) == pytest.approx(1 / 3)


def test_kendall_tau_b_with_ties_in_prediction() -> None:
    # 6 pairs, one tied in pred only; C = 5, D = 0 -> 5 / sqrt(6 * 5)
    assert kendall_tau_b([1, 2, 3, 4], [1, 2, 2, 4]) == pytest.approx(5 / 30 ** 0.5)


def test_kendall_tau_b_with_ties_on_both_sides() -> None:
    # gold [1,1,2,3], pred [1,2,2,3]: pairs (0,1) tie gold, (0,2) C, (0,3) C, (1,2) tie pred,
    # (1,3) C, (2,3) C -> C=4, D=0, n0=6, tx=1, ty=1 -> 4 / sqrt(5*5) = 0.8
    assert kendall_tau_b([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(0.8)


@pytest.mark.parametrize("x,y", [([1, 2], [1]), ([1], [1])])
def test_correlations_reject_bad_input(x: list[float], y: list[float]) -> None:
    with pytest.raises(ConfigError, match="same length|at least 2"):
        spearman(x, y)


def test_pair_accuracy_counts_ties_half() -> None:
    # pair 1: a higher, 0.9 > 0.1 -> 1; pair 2: tie -> ½; pair 3: b higher, 0.2 < 0.3 -> 1;
    # pair 4: b higher, 0.4 > 0.1 -> 0. Total 2.5 / 4
    assert pair_accuracy([1, 1, -1, -1], [0.9, 0.5, 0.2, 0.4], [0.1, 0.5, 0.3, 0.1]) == pytest.approx(2.5 / 4)


def test_pair_accuracy_rejects_zero_sign() -> None:
    with pytest.raises(ConfigError, match=r"\+1 or -1, got 0"):
        pair_accuracy([0], [1.0], [0.0])


def test_bootstrap_ci_constant_and_seeded() -> None:
    assert bootstrap_ci([0.5, 0.5, 0.5]) == (0.5, 0.5)
    values = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0]
    lo, hi = bootstrap_ci(values, seed=3)
    assert bootstrap_ci(values, seed=3) == (lo, hi)
    assert 0.0 <= lo < mean(values) < hi <= 1.0


@pytest.mark.parametrize("stances,gold,expected", [
    ([1, 1, 0], 1, 1.0),   # majority yes, gold yes
    ([1, 1, 0], 0, 0.0),   # majority yes, gold no
    ([1, 0], 0, 0.5),      # tie counts half
    ([], 1, 0.5),          # nothing kept: no answer, half
    ([0], 0, 1.0),
])
def test_stance_majority(stances: list[int], gold: int, expected: float) -> None:
    assert stance_majority_score(stances, gold) == expected


def test_stance_majority_rejects_bad_labels() -> None:
    with pytest.raises(ConfigError, match="stances must be 0 or 1"):
        stance_majority_score([2], 1)


def test_docstring_examples() -> None:
    assert doctest.testmod(metrics).failed == 0
