"""Turn raw model output into scores, choices and permutations. Never crashes.

Every parser either returns a value (repairing what is unambiguous and counting the repairs)
or raises :class:`~authorag.errors.JudgeResponseError` carrying the raw output. Handled: code
fences, ``<think>`` blocks, prose around the answer, malformed JSON, out-of-range numbers,
permutations with missing, duplicate or unknown ids.

Example:
    >>> parse_score("```\\nScore: 7\\n```").value
    7.0
    >>> parse_permutation("[2] > [0] > [2]", 3).order
    (2, 0, 1)
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from authorag.errors import JudgeResponseError

SCALE_MAX = 9.0
_FENCE = re.compile(r"```[a-zA-Z]*")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
_BRACKET_ID = re.compile(r"\[\s*(\d+)\s*\]")
_BARE_ID = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
_KEY_SCORE = re.compile(r"[\"']\[?\s*([A-Za-z]|\d+)\s*\]?[\"']\s*:\s*(-?\d+(?:\.\d+)?)")
_LINE_SCORE = re.compile(r"^\W*\[?\s*([A-Za-z]|\d+)\s*\]?\s*[:=\-)]\s*(-?\d+(?:\.\d+)?)")


@dataclass(frozen=True, slots=True)
class ParsedScore:
    """A single 0–9 score; ``repaired`` says an out-of-range value was clamped."""

    value: float
    repaired: bool = False


@dataclass(frozen=True, slots=True)
class ParsedScores:
    """Scores for ids in order (None where the output had none); ``repairs`` counts fixes."""

    values: tuple[float | None, ...]
    repairs: int = 0

    @property
    def missing(self) -> int:
        """How many ids got no score."""
        return sum(v is None for v in self.values)


@dataclass(frozen=True, slots=True)
class ParsedPermutation:
    """A full permutation of ``range(n)`` plus what had to be repaired."""

    order: tuple[int, ...]
    missing: int = 0
    duplicates: int = 0
    invalid: int = 0

    @property
    def repairs(self) -> int:
        """Total number of fixes applied."""
        return self.missing + self.duplicates + self.invalid


def clean(text: str) -> str:
    """Strip code fences and ``<think>`` blocks, and trim whitespace."""
    return _FENCE.sub("", _THINK.sub("", text)).strip()


def _in_scale(value: float, raw: str) -> ParsedScore:
    if 0.0 <= value <= SCALE_MAX:
        return ParsedScore(value)
    if SCALE_MAX < value <= 10.0:  # "10" on a 0-9 scale means the top
        return ParsedScore(SCALE_MAX, repaired=True)
    raise JudgeResponseError(f"score {value:g} is outside the 0-9 scale", raw)


def parse_score(text: str) -> ParsedScore:
    """The first number in ``text`` as a 0–9 score (``10`` is clamped to 9 and counted).

    Raises:
        JudgeResponseError: no number, or a number outside 0–10.
    """
    body = clean(text)
    match = _NUMBER.search(body)
    if match is None:
        raise JudgeResponseError("expected a score from 0 to 9 but found no number", text)
    return _in_scale(float(match.group()), text)


def parse_choice(text: str, options: Sequence[str] = ("A", "B")) -> str:
    """The first stand-alone option letter in ``text`` (``"B"`` from ``"Answer: B."``).

    Raises:
        JudgeResponseError: none of ``options`` appears as a stand-alone token.
    """
    body = clean(text)
    pattern = re.compile(r"(?<![A-Za-z])(" + "|".join(map(re.escape, options)) + r")(?![A-Za-z])")
    match = pattern.search(body)
    if match is None:
        raise JudgeResponseError(f"expected one of {list(options)}", text)
    return match.group(1)


def _json_scores(body: str) -> dict[str, float] | None:
    start = min((i for i in (body.find("{"), body.find("[")) if i >= 0), default=-1)
    if start < 0:
        return None
    end = max(body.rfind("}"), body.rfind("]"))
    try:
        data = json.loads(body[start : end + 1])
    except ValueError:
        return None
    if isinstance(data, dict):
        pairs = [(str(k).strip("[] "), v) for k, v in data.items()]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    elif isinstance(data, list):
        pairs = [(str(i), v) for i, v in enumerate(data)]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    else:
        return None
    return {k: float(v) for k, v in pairs if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _line_scores(body: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for line in body.splitlines():
        match = _LINE_SCORE.match(line.strip())
        if match and match.group(1) not in found:
            found[match.group(1)] = float(match.group(2))
    return found


def _key_scores(body: str) -> dict[str, float]:
    """``"id": score`` pairs anywhere (broken or truncated JSON)."""
    found: dict[str, float] = {}
    for key, value in _KEY_SCORE.findall(body):
        found.setdefault(key, float(value))
    return found


def parse_scores(text: str, ids: Sequence[str]) -> ParsedScores:
    """One 0–9 score per id from a JSON object/array or ``[id]: score`` lines.

    ``ids`` are the identifiers shown to the model without brackets (``["0", "1"]`` or
    ``["A", "B"]``). Missing or out-of-range entries become None and are counted as repairs.

    Raises:
        JudgeResponseError: no score for any id could be read.
    """
    body = clean(text)
    found = _line_scores(body) or _json_scores(body) or _key_scores(body)
    values: list[float | None] = []
    repairs = 0
    for ident in ids:
        raw = found.get(ident)
        if raw is None:
            values.append(None)
            repairs += 1
            continue
        try:
            parsed = _in_scale(raw, text)
        except JudgeResponseError:
            values.append(None)
            repairs += 1
            continue
        values.append(parsed.value)
        repairs += int(parsed.repaired)
    if all(v is None for v in values):
        raise JudgeResponseError(f"expected a 0-9 score for each of the ids {list(ids)}", text)
    return ParsedScores(tuple(values), repairs)


def parse_permutation(text: str, n: int) -> ParsedPermutation:
    """A ranking like ``[3] > [0] > [1]`` as a full permutation of ``range(n)``.

    Duplicates keep their first position, unknown ids are dropped, and missing ids are appended
    in their original order; each fix is counted. Bare numbers (``3 > 0 > 1``) are read when no
    bracketed ids are present.

    Raises:
        JudgeResponseError: no valid id at all.
    """
    body = clean(text)
    tokens = _BRACKET_ID.findall(body) or _BARE_ID.findall(body)
    seen: list[int] = []
    duplicates = invalid = 0
    for token in tokens:
        ident = int(token)
        if ident >= n:
            invalid += 1
        elif ident in seen:
            duplicates += 1
        else:
            seen.append(ident)
    if not seen:
        raise JudgeResponseError(f"expected a ranking of the ids [0]..[{n - 1}]", text)
    missing = [i for i in range(n) if i not in seen]
    return ParsedPermutation(tuple(seen + missing), len(missing), duplicates, invalid)


__all__ = [
    "ParsedPermutation",
    "ParsedScore",
    "ParsedScores",
    "clean",
    "parse_choice",
    "parse_permutation",
    "parse_score",
    "parse_scores",
]
