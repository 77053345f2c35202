"""Expected values from given logprobs, worked out by hand."""
from __future__ import annotations

import math

import pytest

from authorag.judges.backends.base import TokenLogprob
from authorag.judges.scoring import (
    digit_distribution,
    digit_positions,
    expected_digit,
    expected_scores,
    first_position,
    list_grammar,
    normalize,
    preference,
)
from authorag.testing import fake_completion


def lp(probs: dict[str, float]) -> dict[str, float]:
    return {k: math.log(v) for k, v in probs.items()}


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        ({"7": 1.0}, 7.0),
        ({"7": 0.5, "9": 0.5}, 8.0),
        ({"0": 0.25, "4": 0.25, "8": 0.5}, 5.0),  # 0*.25 + 4*.25 + 8*.5
        ({"2": 0.3, "6": 0.1}, 3.0),  # renormalized: (2*.3 + 6*.1) / .4
        ({"3": 0.2, " 3": 0.2, "9": 0.1, "hello": 0.5}, 4.2),  # " 3" merges with "3"; (3*.4 + 9*.1)/.5
        ({"10": 0.6, "5": 0.4}, 5.0),  # "10" is not a digit token
    ],
)
def test_expected_digit(top: dict[str, float], expected: float) -> None:
    assert expected_digit(lp(top)) == pytest.approx(expected)


def test_expected_digit_without_digits_is_none() -> None:
    assert expected_digit(lp({"A": 0.9, "B": 0.1})) is None
    assert expected_digit({"5": -math.inf}) is None


def test_digit_distribution_sums_to_one() -> None:
    dist = digit_distribution(lp({"1": 0.2, "2": 0.2}))
    assert dist is not None and sum(dist) == pytest.approx(1.0)
    assert dist[1] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("top", "p_a"),
    [({"A": 0.75, "B": 0.25}, 0.75), ({"A": 0.3, " B": 0.1, "C": 0.6}, 0.75), ({"B": 1.0}, 0.0)],
)
def test_preference(top: dict[str, float], p_a: float) -> None:
    assert preference(lp(top)) == pytest.approx(p_a)


def test_preference_without_choice_is_none() -> None:
    assert preference(lp({"C": 1.0})) is None


def test_first_position_skips_whitespace_and_includes_generated_token() -> None:
    steps = (TokenLogprob(" ", -0.1, {}), TokenLogprob("6", math.log(0.4), lp({"5": 0.6})))
    top = first_position(steps)
    assert top is not None and expected_digit(top) == pytest.approx(5.4)  # 6*.4 + 5*.6
    assert first_position(None) is None


def test_expected_scores_reads_digits_after_colons_only() -> None:
    text = "[0]: 3\n[1]: 9\n"
    steps: list[dict[str, float]] = [{c: 1.0} for c in text]
    steps[5] = {"3": 0.5, "5": 0.5}  # the digit after "[0]: "
    completion = fake_completion(text, steps)
    assert completion.logprobs is not None
    assert len(digit_positions(completion.logprobs)) == 2  # the "0" and "1" of the ids are skipped
    assert expected_scores(completion.logprobs, 2) == pytest.approx([4.0, 9.0])
    assert expected_scores(completion.logprobs, 3) is None


def test_normalize_and_grammar() -> None:
    assert normalize(4.5) == pytest.approx(0.5)
    assert normalize(12.0) == 1.0
    assert list_grammar(["0", "1"]) == 'root ::= "[0]: " [0-9] "\\n" "[1]: " [0-9] "\\n"'
