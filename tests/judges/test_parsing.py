"""Table-driven garbage outputs for the judge parsers."""
from __future__ import annotations

import pytest

from authorag.errors import JudgeResponseError
from authorag.judges.parsing import parse_choice, parse_permutation, parse_score, parse_scores


@pytest.mark.parametrize(
    ("raw", "value", "repaired"),
    [
        ("7", 7.0, False),
        ("  8\n", 8.0, False),
        ("```\n5\n```", 5.0, False),
        ("```json\n{\"score\": 3}\n```", 3.0, False),
        ("Score: 6/9 because it is a blog", 6.0, False),
        ("<think>maybe 2 or 3</think> 9", 9.0, False),
        ("I would rate it 4.5.", 4.5, False),
        ("10", 9.0, True),
        ("0", 0.0, False),
    ],
)
def test_parse_score_reads_and_repairs(raw: str, value: float, repaired: bool) -> None:
    parsed = parse_score(raw)
    assert parsed.value == pytest.approx(value)
    assert parsed.repaired is repaired


@pytest.mark.parametrize(
    ("raw", "message"),
    [("", "found no number"), ("no idea", "found no number"), ("57", "outside the 0-9 scale"), ("-1", "outside the 0-9 scale")],
)
def test_parse_score_failures_are_typed(raw: str, message: str) -> None:
    with pytest.raises(JudgeResponseError, match=message) as info:
        parse_score(raw)
    assert info.value.raw == raw


@pytest.mark.parametrize(
    ("raw", "choice"),
    [("A", "A"), (" B\n", "B"), ("Answer: B.", "B"), ("[A]", "A"), ("**B** is more established", "B"), ("As I see it, A", "A")],
)
def test_parse_choice(raw: str, choice: str) -> None:
    assert parse_choice(raw) == choice


def test_parse_choice_without_option_fails() -> None:
    with pytest.raises(JudgeResponseError, match=r"expected one of \['A', 'B'\]"):
        parse_choice("Both are equally good.")


@pytest.mark.parametrize(
    ("raw", "values", "repairs"),
    [
        ("[0]: 7\n[1]: 3", (7.0, 3.0), 0),
        ("```json\n{\"0\": 7, \"1\": 3}\n```", (7.0, 3.0), 0),
        ('Here you go: {"[0]": 2, "[1]": 8} hope it helps', (2.0, 8.0), 0),
        ("[7, 3]", (7.0, 3.0), 0),
        ('{"0": 7, "1": 12}', (7.0, None), 1),
        ('{"0": 10, "1": "high"}', (9.0, None), 2),
        ("[0]: 5", (5.0, None), 1),
        ("0: 1\n1 - 4\n", (1.0, 4.0), 0),
        ('{"0": 7, "1": 3', (7.0, 3.0), 0),  # truncated JSON: lines are read instead
    ],
)
def test_parse_scores(raw: str, values: tuple[float | None, ...], repairs: int) -> None:
    parsed = parse_scores(raw, ["0", "1"])
    assert parsed.values == values
    assert parsed.repairs == repairs


def test_parse_scores_pair_letters() -> None:
    assert parse_scores("A: 8\nB: 2", ["A", "B"]).values == (8.0, 2.0)


@pytest.mark.parametrize("raw", ["", "I cannot rate these.", "{}", "[0]: high\n[1]: low"])
def test_parse_scores_nothing_readable_fails(raw: str) -> None:
    with pytest.raises(JudgeResponseError, match="expected a 0-9 score for each of the ids"):
        parse_scores(raw, ["0", "1"])


@pytest.mark.parametrize(
    ("raw", "order", "missing", "duplicates", "invalid"),
    [
        ("[2] > [0] > [1]", (2, 0, 1), 0, 0, 0),
        ("```\n[1] > [2] > [0]\n```", (1, 2, 0), 0, 0, 0),
        ("Ranking: [2] > [0] > [2] > [9]", (2, 0, 1), 1, 1, 1),
        ("[1]", (1, 0, 2), 2, 0, 0),
        ("2 > 1 > 0", (2, 1, 0), 0, 0, 0),
        ("[3] > [ 1 ] > [0] > [2]", (3, 1, 0, 2), 0, 0, 0),
    ],
)
def test_parse_permutation_repairs_and_counts(
    raw: str, order: tuple[int, ...], missing: int, duplicates: int, invalid: int
) -> None:
    parsed = parse_permutation(raw, len(order))
    assert parsed.order == order
    assert (parsed.missing, parsed.duplicates, parsed.invalid) == (missing, duplicates, invalid)
    assert parsed.repairs == missing + duplicates + invalid


@pytest.mark.parametrize("raw", ["", "no ranking", "[7] > [8]"])
def test_parse_permutation_without_valid_ids_fails(raw: str) -> None:
    with pytest.raises(JudgeResponseError, match=r"expected a ranking of the ids \[0\]..\[2\]"):
        parse_permutation(raw, 3)
