"""PointJudge: one item at a time → a 0–9 authority score.

With logprobs (the default), the request carries a one-digit grammar and the score is the
expected digit under the model's top logprobs; otherwise the greedy text is parsed. Repeated
items in one run are judged once.

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
from authorag.judges.scoring import DIGIT_GRAMMAR, expected_digit, first_position, normalize
from authorag.types import Candidate

logger = logging.getLogger(__name__)

PROMPT = "authority_point"


def score_digit(completion: Completion, log: RunLog) -> tuple[float, str]:
    """(0–9 score, mode) from a one-digit answer: logprob expectation, else greedy parse.

    Raises:
        JudgeResponseError: neither the logprobs nor the text hold a digit.
    """
    log.attempts += 1
    top = first_position(completion.logprobs)
    value = expected_digit(top) if top is not None else None
    if value is not None:
        return value, "logprob"
    try:
        parsed = parse_score(completion.text)
    except JudgeResponseError:
        log.parse_failures += 1
        raise
    log.repairs += int(parsed.repaired)
    return parsed.value, "greedy"


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
                                   max_tokens=self.tokens(4, 16))
            raw, mode = score_digit(completion, log)
        except JudgeError as exc:
            self.fail(log, f"{item.key}: {exc}", exc)
            return ItemScore(item.key, None, None, None, pid, error=str(exc))
        return ItemScore(item.key, raw, normalize(raw), mode, pid)


__all__ = ["PointJudge", "score_digit"]
