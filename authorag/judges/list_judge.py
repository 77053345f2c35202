"""ListJudge: a list of items → a ranking (ListRank) or a score per item (PointScore).

PointScore asks for one ``[i]: d`` line per item under a grammar and reads the expected digit
at each score position from the logprobs (greedy parse as fallback). ListRank asks for a
permutation ``[3] > [0] > ...``, repaired where ids are missing or repeated. Lists longer than
``window`` are scored in consecutive chunks (PointScore) or ranked with a back-to-front sliding
window (ListRank), as in RankGPT-style listwise reranking.

Example:
    >>> from authorag.testing import FakeBackend
    >>> judge = ListJudge(FakeBackend(["[1] > [0]"]), output="rank")
    >>> judge.judge(["spam-pills.biz", "nih.gov"]).order
    (1, 0)
"""
from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, get_args

from authorag.errors import ConfigError, JudgeError, JudgeResponseError
from authorag.judges.backends.base import ChatRequest, LLMBackend
from authorag.judges.base import ItemScore, JudgeBase, JudgeOutput, JudgeRun, RunLog
from authorag.judges.items import JudgeItem
from authorag.judges.parsing import clean, parse_permutation, parse_scores
from authorag.judges.prompts import prompt_id, render
from authorag.judges.scoring import expected_scores, list_grammar, normalize
from authorag.progress import report
from authorag.types import Candidate
from authorag.validation import check_choice

logger = logging.getLogger(__name__)

SCORE_PROMPT = "authority_list_score"
RANK_PROMPT = "authority_list_rank"


def score_lines(judge: JudgeBase, log: RunLog, messages: list[dict[str, str]], n: int, pid: str,
                base: str = "authority_list_score") -> list[tuple[float | None, str]]:
    """(0–9 score or None, mode) per item for a ``[i]: d`` answer of ``n`` lines (or, under the
    paper prompt set, the JSON answer to base template ``base``).

    Raises:
        JudgeError: the backend failed or no score at all could be read.
    """
    ids = [str(i) for i in range(n)]
    paper_budget = 90 * n + 16 if base == "utility_list_score" else 8 * n + 8
    completion = judge.call(log, messages, pid, **judge.constraint(base, list_grammar(ids), ids),
                            max_tokens=judge.tokens(7 * n + 4, paper_budget))
    log.attempts += 1
    expected = expected_scores(completion.logprobs, n)
    if expected is not None and all(v is not None for v in expected):
        return [(v, "logprob") for v in expected]
    try:
        parsed = parse_scores(json_part(completion.text, "scores"), ids)
    except JudgeResponseError:
        log.parse_failures += 1
        raise
    log.repairs += parsed.repairs
    return [(v, "greedy") for v in parsed.values]


def json_part(text: str, key: str) -> str:
    """``text``'s JSON object member ``key`` re-serialized (the utility answer keeps its scores
    under ``"scores"``); ``text`` itself when it is not such an object."""
    try:
        data: Any = json.loads(clean(text))
    except ValueError:
        return text
    if isinstance(data, dict) and key in data:
        return json.dumps(data[key])
    return text


def sliding_windows(n: int, window: int, step: int) -> list[tuple[int, int]]:
    """Back-to-front ``(start, end)`` windows covering ``range(n)`` (one window if n <= window).

    Example:
        >>> sliding_windows(12, 10, 5)
        [(2, 12), (0, 7)]
    """
    if n <= window:
        return [(0, n)]
    spans: list[tuple[int, int]] = []
    end = n
    while True:
        start = max(0, end - window)
        spans.append((start, end))
        if start == 0:
            return spans
        end -= step


class ListJudge(JudgeBase):
    """Judges a whole list at once (AuthorityBench's ListJudge).

    Args:
        backend: any LLMBackend.
        output: ``"score"`` (PointScore: a 0–9 score per item) or ``"rank"`` (ListRank).
        window: most items shown in one prompt; longer lists are chunked / slid.
        step: how far the ListRank window moves (``step < window`` so windows overlap).
        with_text, text_budget, on_failure, use_logprobs: see :class:`~authorag.judges.base.JudgeBase`.

    Example:
        >>> from authorag.testing import FakeBackend
        >>> j = ListJudge(FakeBackend(["[0]: 3\\n[1]: 9\\n"]), use_logprobs=False)
        >>> [s.raw for s in j.judge(["a.biz", "nih.gov"]).scores]
        [3.0, 9.0]
    """

    method = "list"

    def __init__(
        self,
        backend: LLMBackend,
        *,
        output: JudgeOutput = "score",
        window: int = 10,
        step: int = 5,
        **kw: Any,
    ) -> None:
        check_choice("output", output, get_args(JudgeOutput))
        if window < 2 or not 0 < step < window:
            raise ConfigError(f"need window >= 2 and 0 < step < window, got window={window}, step={step}")
        super().__init__(backend, **kw)
        self.output: JudgeOutput = output
        self.window = window
        self.step = step

    def judge(self, values: Sequence[JudgeItem | Candidate | str]) -> JudgeRun:
        """Score or rank ``values`` (input order is the initial order for ListRank)."""
        items = self.items(values)
        log = RunLog()
        if self.output == "rank":
            order = self._rank(items, log)
            pid = prompt_id(self.prompt_name(RANK_PROMPT), items=items)
            scores = rank_scores(items, order, pid)
            return self.finish(log, items, scores, "rank", pid, order=tuple(order))
        pid = prompt_id(self.prompt_name(SCORE_PROMPT), items=items)
        scores: list[ItemScore] = []
        for start in range(0, len(items), self.window):
            scores.extend(self._score_chunk(items[start : start + self.window], log, pid))
        log.stats["windows"] = -(-len(items) // self.window)
        return self.finish(log, items, scores, "score", pid)

    def _score_chunk(self, chunk: list[JudgeItem], log: RunLog, pid: str) -> list[ItemScore]:
        try:
            lines = score_lines(self, log, render(self.prompt_name(SCORE_PROMPT), items=chunk), len(chunk), pid)
        except JudgeError as exc:
            self.fail(log, f"list of {len(chunk)}: {exc}", exc)
            return [ItemScore(it.key, None, None, None, pid, error=str(exc)) for it in chunk]
        out: list[ItemScore] = []
        for item, (raw, mode) in zip(chunk, lines, strict=True):
            if raw is None:
                out.append(ItemScore(item.key, None, None, None, pid, error="no score for this item in the output"))
            else:
                out.append(ItemScore(item.key, raw, normalize(raw), mode, pid))
        return out

    def _rank(self, items: list[JudgeItem], log: RunLog) -> list[int]:
        order = list(range(len(items)))
        if len(items) <= 1:
            return order
        spans = sliding_windows(len(items), self.window, self.step)
        log.stats["windows"] = len(spans)
        for start, end in spans:
            part = order[start:end]
            try:
                perm = self._rank_window([items[i] for i in part], log)
            except JudgeError as exc:
                self.fail(log, f"window {start}-{end}: {exc}", exc)
                continue
            order[start:end] = [part[i] for i in perm]
        return order

    def _rank_window(self, window: list[JudgeItem], log: RunLog) -> tuple[int, ...]:
        pid = prompt_id(self.prompt_name(RANK_PROMPT), items=window)
        ids = [str(i) for i in range(len(window))]
        request = ChatRequest(
            messages=render(self.prompt_name(RANK_PROMPT), items=window), prompt_version=pid,
            max_tokens=self.tokens(6 * len(window) + 8, 4 * len(window) + 16),
            **self.constraint(RANK_PROMPT, None, ids),
        )
        completion = self.backend.complete(request)
        log.cost = log.cost.add(completion)
        self.calls_made += 1
        report(self.name, self.calls_made, unit="calls")
        log.attempts += 1
        try:
            parsed = parse_permutation(completion.text, len(window))
        except JudgeResponseError:
            log.parse_failures += 1
            raise
        log.repairs += parsed.repairs
        log.bump("missing_ids", parsed.missing)
        log.bump("duplicate_ids", parsed.duplicates)
        log.bump("invalid_ids", parsed.invalid)
        return parsed.order


def rank_scores(items: Sequence[JudgeItem], order: Sequence[int], pid: str, mode: str = "rank") -> list[ItemScore]:
    """Scores from rank positions: best → 9, worst → 0, linear in between (one item → 9)."""
    n = len(items)
    position = {idx: pos for pos, idx in enumerate(order)}
    out: list[ItemScore] = []
    for i, item in enumerate(items):
        frac = 1.0 if n == 1 else 1.0 - position[i] / (n - 1)
        out.append(ItemScore(item.key, 9.0 * frac, frac, mode, pid))
    return out


__all__ = ["ListJudge", "rank_scores", "score_lines", "sliding_windows"]
