"""PointJudge: one item at a time → a 0–9 authority score.

With logprobs (the default), the request carries a one-digit grammar and the score is the
expected digit under the model's top logprobs; otherwise the greedy text is parsed. An answer
whose digits carry less than :data:`~authorag.judges.scoring.MIN_ANSWER_MASS` of the
probability is a failed judgement, and the judge cache does not keep it. Repeated items in one
run are judged once.

Example:
    >>> from authorag.testing import FakeBackend, fake_completion
    >>> judge = PointJudge(FakeBackend(lambda req: fake_completion("8", {"8": 0.5, "6": 0.5})))
    >>> run = judge.judge(["https://www.nih.gov/", "spam-pills.biz"])
    >>> [s.raw for s in run.scores], run.scores[0].mode
    ([7.0, 7.0], 'logprob')
"""
from __future__ import annotations

import logging
from collections.abc import Sequence

from authorag.errors import JudgeError, JudgeResponseError
from authorag.judges.backends.base import Completion
from authorag.judges.base import ItemScore, JudgeBase, JudgeRun, RunLog
from authorag.judges.items import JudgeItem
from authorag.judges.parsing import parse_score
from authorag.judges.prompts import prompt_id, render
from authorag.judges.scoring import (
    DIGIT_GRAMMAR,
    MIN_ANSWER_MASS,
    ScoreMode,
    answer_mass,
    expected_digit,
    first_position,
    normalize,
)
from authorag.types import Candidate

logger = logging.getLogger(__name__)

PROMPT = "authority_point"


def read_digit(completion: Completion) -> tuple[float, ScoreMode, bool]:
    """(0–9 score, mode, repaired) of a one-digit answer: the logprob expectation, else the greedy text.

    Raises:
        JudgeResponseError: the digits carry less than :data:`MIN_ANSWER_MASS` of the probability
            at the answer position (unless the server dropped the grammar, when the text is read),
            or the text holds no score.
    """
    top = first_position(completion.logprobs)
    value = None if top is None else expected_digit(top)
    if value is not None:
        return value, "logprob", False
    if top is not None and "grammar" not in completion.dropped_features:
        mass = answer_mass(top)
        raise JudgeResponseError(f"the digits carry {mass:.2%} of the probability at the answer position, "
                                 f"below the minimum {MIN_ANSWER_MASS:.0%}: the model did not answer with a "
                                 "score", completion.text)
    parsed = parse_score(completion.text)
    return parsed.value, "greedy", parsed.repaired


def usable_digit(completion: Completion) -> bool:
    """True when :func:`read_digit` reads a score from ``completion`` (what the judge cache keeps)."""
    try:
        read_digit(completion)
    except JudgeResponseError:
        return False
    return True


def score_digit(completion: Completion, log: RunLog) -> tuple[float, str]:
    """:func:`read_digit`, counted in ``log`` (attempts, parse failures, repairs).

    Raises:
        JudgeResponseError: as :func:`read_digit`.
    """
    log.attempts += 1
    try:
        value, mode, repaired = read_digit(completion)
    except JudgeResponseError:
        log.parse_failures += 1
        raise
    log.repairs += int(repaired)
    return value, mode


class PointJudge(JudgeBase):
    """Scores each item alone on the 0–9 authority scale (AuthorityBench's PointJudge).

    Args:
        backend: any :class:`~authorag.judges.backends.base.LLMBackend`.
        with_text: show the page URL and a text snippet instead of the bare domain.
        text_budget: characters of page text shown.
        on_failure: ``"raise"`` or ``"skip"`` (leave the score absent and record why).
        use_logprobs: ask for logprobs and use the expected digit.

    Example:
        >>> from authorag.testing import FakeBackend
        >>> PointJudge(FakeBackend(["9"]), use_logprobs=False).judge(["nih.gov"]).scores[0].score
        1.0
    """

    method = "point"

    def judge(self, values: Sequence[JudgeItem | Candidate | str]) -> JudgeRun:
        """Score every item; returns scores in input order."""
        items = self.items(values)
        log = RunLog()
        done: dict[str, ItemScore] = {}
        scores = [done.get(it.key) or done.setdefault(it.key, self._one(it, log)) for it in items]
        return self.finish(log, items, scores, "score", prompt_id(self.prompt_name(PROMPT), items=items))

    def _one(self, item: JudgeItem, log: RunLog) -> ItemScore:
        pid = prompt_id(self.prompt_name(PROMPT), items=[item])
        messages = render(self.prompt_name(PROMPT), items=[item])
        try:
            completion = self.call(log, messages, pid, **self.constraint(PROMPT, DIGIT_GRAMMAR),
                                   max_tokens=self.tokens(4, 16), accept=usable_digit)
            raw, mode = score_digit(completion, log)
        except JudgeError as exc:
            self.fail(log, f"{item.key}: {exc}", exc)
            return ItemScore(item.key, None, None, None, pid, error=str(exc))
        return ItemScore(item.key, raw, normalize(raw), mode, pid)


__all__ = ["PointJudge", "read_digit", "score_digit", "usable_digit"]
