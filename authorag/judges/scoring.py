"""Scores from token logprobs: the expected value over digit tokens, and p(A) vs p(B).

With a one-digit grammar (:data:`DIGIT_GRAMMAR`) the model's top logprobs at the digit position
give a distribution over 0–9; the expected value carries much more signal than the greedy digit,
which on small models collapses to a constant (see docs/judges.md). Where a backend returns no
logprobs, judges fall back to parsing the greedy text; every score records its
:data:`ScoreMode`.

Example:
    >>> import math
    >>> expected_digit({"7": math.log(0.5), "9": math.log(0.5)})
    8.0
    >>> preference({"A": math.log(0.75), "B": math.log(0.25)})
    0.75
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

from authorag.judges.backends.base import TokenLogprob

ScoreMode = Literal["logprob", "greedy"]
"""How a score was produced: expected value over token logprobs, or the parsed greedy text."""

DIGIT_GRAMMAR = "root ::= [0-9]"
"""GBNF grammar for a single digit 0–9."""

CHOICE_GRAMMAR = 'root ::= "A" | "B"'
"""GBNF grammar for a PairRank answer."""

MIN_ANSWER_MASS = 0.02
"""Below this share of the probability on the answer tokens (the digits 0–9, or ``A``/``B``) at the
answer position, the logprobs hold no answer and the judgement fails (docs/judges.md, "Failed
judgements", has the masses real models put there)."""

DIGITS: tuple[str, ...] = tuple(str(d) for d in range(10))
"""The answer tokens of a 0–9 score."""


def _token_probs(top: Mapping[str, float], wanted: Sequence[str]) -> dict[str, float]:
    """Probability per wanted symbol, merging tokens that differ only by surrounding spaces."""
    probs = dict.fromkeys(wanted, 0.0)
    for token, logprob in top.items():
        key = token.strip()
        if key in probs and math.isfinite(logprob):
            probs[key] += math.exp(logprob)
    return probs


def answer_mass(top: Mapping[str, float], wanted: Sequence[str] = DIGITS) -> float:
    """The probability ``top`` puts on the ``wanted`` tokens (spaces around a token ignored).

    Example:
        >>> round(answer_mass({"[": 0.0, "7": math.log(1e-3)}), 4)
        0.001
    """
    return sum(_token_probs(top, wanted).values())


def digit_distribution(top: Mapping[str, float]) -> list[float] | None:
    """Normalized probabilities of the digits 0–9 among ``top``, or None when the digits carry
    less than :data:`MIN_ANSWER_MASS`."""
    probs = _token_probs(top, DIGITS)
    mass = sum(probs.values())
    if mass < MIN_ANSWER_MASS:
        return None
    return [probs[d] / mass for d in DIGITS]


def expected_digit(top: Mapping[str, float]) -> float | None:
    """Expected digit ``sum(d * p(d))`` over the digit tokens in ``top`` (renormalized).

    Returns None when the digit tokens carry less than :data:`MIN_ANSWER_MASS` of the alternatives.
    """
    dist = digit_distribution(top)
    if dist is None:
        return None
    return sum(d * p for d, p in enumerate(dist))


def preference(top: Mapping[str, float], first: str = "A", second: str = "B") -> float | None:
    """``p(first) / (p(first) + p(second))`` from the top logprobs, or None when the two carry less
    than :data:`MIN_ANSWER_MASS`."""
    probs = _token_probs(top, [first, second])
    mass = probs[first] + probs[second]
    if mass < MIN_ANSWER_MASS:
        return None
    return probs[first] / mass


def _alternatives(position: TokenLogprob) -> dict[str, float]:
    """Top alternatives at a position, always including the generated token itself."""
    top = dict(position.top)
    top.setdefault(position.token, position.logprob)
    return top


def digit_positions(logprobs: Sequence[TokenLogprob]) -> list[dict[str, float]]:
    """Alternatives at every generated digit that follows a colon (``A: 7``, ``[0]: 5``), in order.

    Used for outputs with several scores: the k-th such position carries the k-th score. Digits
    inside identifiers (the ``0`` of ``[0]``) are skipped because no colon precedes them.
    """
    out: list[dict[str, float]] = []
    text = ""
    for position in logprobs:
        token = position.token.strip()
        if len(token) == 1 and token.isdigit() and text.rstrip().endswith(":"):
            out.append(_alternatives(position))
        text += position.token
    return out


def first_position(logprobs: Sequence[TokenLogprob] | None) -> dict[str, float] | None:
    """Alternatives at the first generated position that is not whitespace, or None."""
    for position in logprobs or ():
        if position.token.strip():
            return _alternatives(position)
    return None


def expected_scores(logprobs: Sequence[TokenLogprob] | None, count: int) -> list[float | None] | None:
    """Expected digit at each of the first ``count`` digit positions, or None if there are fewer."""
    positions = digit_positions(logprobs or ())
    if len(positions) < count:
        return None
    return [expected_digit(top) for top in positions[:count]]


def normalize(raw: float, scale_max: float = 9.0) -> float:
    """A 0–9 score mapped to 0–1 (clamped)."""
    return min(1.0, max(0.0, raw / scale_max))


def list_grammar(ids: Sequence[str]) -> str:
    """GBNF grammar for ``[id]: d`` lines, one per id in order (ListJudge-PointScore)."""
    lines = " ".join(f'"[{ident}]: " [0-9] "\\n"' for ident in ids)
    return f"root ::= {lines}"


PAIR_SCORE_GRAMMAR = 'root ::= "A: " [0-9] "\\n" "B: " [0-9]'
"""GBNF grammar for the PairJudge-PointScore answer."""


__all__ = [
    "CHOICE_GRAMMAR",
    "DIGITS",
    "DIGIT_GRAMMAR",
    "MIN_ANSWER_MASS",
    "PAIR_SCORE_GRAMMAR",
    "ScoreMode",
    "answer_mass",
    "digit_distribution",
    "digit_positions",
    "expected_digit",
    "expected_scores",
    "first_position",
    "list_grammar",
    "normalize",
    "preference",
]
