"""PairJudge: two items at a time; lists are ranked from the pair outcomes.

Two prompt variants (AuthorityBench): ``pair_rank`` asks which item has higher authority
(A/B; p(A) vs p(B) from logprobs), ``point_score`` asks for a 0–9 score for each. A list is
ranked by ``average`` (AverageScore: mean score, or mean win probability, per item) or by
``bubble`` (BubbleSort driven by pairwise preferences). For long lists the paper's anchor
approximation compares every item only with ``n_anchors`` seeded random anchors (10 items, 5
anchors: 10 + 25 = 35 comparisons instead of 45); short lists are compared exhaustively.
``both_orders`` asks (A, B) and (B, A) and averages, counting answers that follow position.

Example:
    >>> from authorag.testing import FakeBackend
    >>> fake = FakeBackend(lambda r: "A" if r.messages[-1]["content"].index("nih.gov") <
    ...                    r.messages[-1]["content"].index("spam.biz") else "B")
    >>> judge = PairJudge(fake, variant="pair_rank", use_logprobs=False)
    >>> judge.judge(["spam.biz", "nih.gov"]).ranking()
    (1, 0)
"""
from __future__ import annotations

import functools
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal, get_args

from authorag.errors import ConfigError, JudgeError, JudgeResponseError
from authorag.judges.backends.base import LLMBackend
from authorag.judges.base import ItemScore, JudgeBase, JudgeOutput, JudgeRun, RunLog
from authorag.judges.items import JudgeItem
from authorag.judges.list_judge import rank_scores
from authorag.judges.parsing import parse_choice, parse_scores
from authorag.judges.prompts import prompt_id, render
from authorag.judges.scoring import (
    CHOICE_GRAMMAR,
    PAIR_SCORE_GRAMMAR,
    expected_scores,
    first_position,
    normalize,
    preference,
)
from authorag.types import Candidate
from authorag.validation import check_choice

logger = logging.getLogger(__name__)

PairVariant = Literal["pair_rank", "point_score"]
PairAggregate = Literal["average", "bubble"]
PairPlan = Literal["auto", "anchor", "exhaustive"]
_PROMPTS: dict[str, str] = {"pair_rank": "authority_pair_rank", "point_score": "authority_pair_score"}
_IDENTS = ("[A]", "[B]")


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """One comparison of items ``a`` and ``b`` (indices), averaged over the orders asked.

    Attributes:
        p_a: probability that ``a`` has higher authority (0.5 = tie).
        score_a, score_b: 0–9 scores (``point_score`` variant), else None.
        mode: ``logprob`` or ``greedy`` (``greedy`` if any order needed the fallback).
        position_biased: both orders preferred the first-shown item (or both the second).
    """

    a: int
    b: int
    p_a: float
    score_a: float | None
    score_b: float | None
    mode: str
    position_biased: bool = False


def pair_plan(n: int, plan: PairPlan = "auto", *, n_anchors: int = 5, seed: int = 0, exhaustive_max: int = 6) -> list[tuple[int, int]]:
    """Index pairs to compare for ``n`` items.

    ``exhaustive``: all n(n-1)/2 pairs. ``anchor``: ``n_anchors`` seeded random anchors compared
    with each other and with every other item. ``auto``: exhaustive up to ``exhaustive_max`` items.

    Example:
        >>> len(pair_plan(10, "anchor")), len(pair_plan(10, "exhaustive")), len(pair_plan(4))
        (35, 45, 6)
    """
    check_choice("pairs", plan, get_args(PairPlan))
    if plan == "exhaustive" or (plan == "auto" and n <= exhaustive_max) or n_anchors >= n:
        return list(combinations(range(n), 2))
    if n_anchors < 1:
        raise ConfigError(f"n_anchors must be >= 1, got {n_anchors}")
    anchors = sorted(random.Random(seed).sample(range(n), n_anchors))
    pairs = list(combinations(anchors, 2))
    pairs += [(i, a) for i in range(n) if i not in anchors for a in anchors]
    return pairs


class PairJudge(JudgeBase):
    """Ranks or scores items through pairwise comparisons (AuthorityBench's PairJudge).

    Args:
        backend: any LLMBackend.
        variant: ``"pair_rank"`` (A or B) or ``"point_score"`` (a score for each); None (the
            default) follows ``output``: ``"rank"`` → PairRank, ``"score"`` → PointScore, as the
            paper names its two PairJudge output formats.
        aggregate: ``"average"`` (AverageScore) or ``"bubble"`` (BubbleSort).
        output: ``"score"`` or ``"rank"`` (picks the prompt when ``variant`` is None).
        pairs: ``"auto"``, ``"anchor"`` or ``"exhaustive"`` (AverageScore only).
        n_anchors, seed, exhaustive_max: anchor approximation settings.
        both_orders: ask (A, B) and (B, A) and average, counting position bias.

    Example:
        >>> from authorag.testing import FakeBackend
        >>> j = PairJudge(FakeBackend(["A: 9\\nB: 1"] * 2), use_logprobs=False)
        >>> [s.raw for s in j.judge(["nih.gov", "spam.biz"]).scores]
        [5.0, 5.0]
    """

    method = "pair"

    def __init__(
        self,
        backend: LLMBackend,
        *,
        variant: PairVariant | None = None,
        aggregate: PairAggregate = "average",
        output: JudgeOutput = "score",
        pairs: PairPlan = "auto",
        n_anchors: int = 5,
        seed: int = 0,
        exhaustive_max: int = 6,
        both_orders: bool = True,
        **kw: Any,
    ) -> None:
        if variant is None:
            variant = "pair_rank" if output == "rank" else "point_score"
        check_choice("variant", variant, get_args(PairVariant))
        check_choice("aggregate", aggregate, get_args(PairAggregate))
        check_choice("output", output, get_args(JudgeOutput))
        check_choice("pairs", pairs, get_args(PairPlan))
        super().__init__(backend, **kw)
        self.variant: PairVariant = variant
        self.aggregate: PairAggregate = aggregate
        self.output: JudgeOutput = output
        self.pairs: PairPlan = pairs
        self.n_anchors = n_anchors
        self.seed = seed
        self.exhaustive_max = exhaustive_max
        self.both_orders = both_orders

    @property
    def prompt(self) -> str:
        """The versioned template id this judge uses."""
        return prompt_id(self.prompt_name(_PROMPTS[self.variant]), with_text=self.with_text)

    def compare(self, a: JudgeItem, b: JudgeItem, log: RunLog | None = None) -> PairOutcome:
        """Compare two items (both orders when configured). Raises JudgeError on failure."""
        log = RunLog() if log is None else log
        p_ab, sa, sb, mode1 = self._ask(a, b, log)
        if not self.both_orders:
            return PairOutcome(0, 1, p_ab, sa, sb, mode1)
        p_ba, sb2, sa2, mode2 = self._ask(b, a, log)
        biased = (p_ab > 0.5 and p_ba > 0.5) or (p_ab < 0.5 and p_ba < 0.5)
        log.bump("position_biased", int(biased))
        log.bump("first_shown_preferred", int(p_ab > 0.5) + int(p_ba > 0.5))
        mode = mode1 if mode1 == mode2 else "greedy"
        return PairOutcome(0, 1, (p_ab + 1.0 - p_ba) / 2, _mean(sa, sa2), _mean(sb, sb2), mode, biased)

    def judge(self, values: Sequence[JudgeItem | Candidate | str]) -> JudgeRun:
        """Score/rank ``values`` from pairwise comparisons."""
        items = self.items(values)
        log = RunLog()
        if self.aggregate == "bubble":
            order = self._bubble(items, log)
            scores = rank_scores(items, order, self.prompt, mode="bubble")
            return self.finish(log, items, scores, self.output, self.prompt, order=tuple(order))
        outcomes = [o for i, j in self._plan(len(items)) if (o := self._outcome(items, i, j, log))]
        log.stats["comparisons"] = len(outcomes)
        scores = self._average(items, outcomes)
        run = self.finish(log, items, scores, self.output, self.prompt)
        return run

    def _plan(self, n: int) -> list[tuple[int, int]]:
        return pair_plan(n, self.pairs, n_anchors=self.n_anchors, seed=self.seed, exhaustive_max=self.exhaustive_max)

    def _outcome(self, items: list[JudgeItem], i: int, j: int, log: RunLog) -> PairOutcome | None:
        try:
            out = self.compare(items[i], items[j], log)
        except JudgeError as exc:
            self.fail(log, f"{items[i].key} vs {items[j].key}: {exc}", exc)
            return None
        return PairOutcome(i, j, out.p_a, out.score_a, out.score_b, out.mode, out.position_biased)

    def _average(self, items: list[JudgeItem], outcomes: list[PairOutcome]) -> list[ItemScore]:
        got: dict[int, list[float]] = {i: [] for i in range(len(items))}
        modes: dict[int, set[str]] = {i: set() for i in range(len(items))}
        for o in outcomes:
            if self.variant == "point_score" and o.score_a is not None and o.score_b is not None:
                got[o.a].append(o.score_a)
                got[o.b].append(o.score_b)
            elif self.variant == "pair_rank":
                got[o.a].append(9.0 * o.p_a)
                got[o.b].append(9.0 * (1.0 - o.p_a))
            modes[o.a].add(o.mode)
            modes[o.b].add(o.mode)
        out: list[ItemScore] = []
        for i, item in enumerate(items):
            if not got[i]:
                out.append(ItemScore(item.key, None, None, None, self.prompt, error="no successful comparison"))
                continue
            raw = sum(got[i]) / len(got[i])
            mode = "average-" + ("greedy" if "greedy" in modes[i] else "logprob")
            out.append(ItemScore(item.key, raw, normalize(raw), mode, self.prompt))
        return out

    def _bubble(self, items: list[JudgeItem], log: RunLog) -> list[int]:
        @functools.cache
        def prefers(i: int, j: int) -> bool:  # True when item j should come before item i
            outcome = self._outcome(items, i, j, log)
            log.bump("comparisons")
            return outcome is not None and outcome.p_a < 0.5

        order = list(range(len(items)))
        for end in range(len(order) - 1, 0, -1):
            swapped = False
            for k in range(end):
                if prefers(order[k], order[k + 1]):
                    order[k], order[k + 1] = order[k + 1], order[k]
                    swapped = True
            if not swapped:
                break
        return order

    def _ask(self, first: JudgeItem, second: JudgeItem, log: RunLog) -> tuple[float, float | None, float | None, str]:
        """(p(first better), score first, score second, mode) for one order."""
        base = _PROMPTS[self.variant]
        messages = render(self.prompt_name(base), items=[first, second], idents=_IDENTS)
        if self.variant == "pair_rank":
            completion = self.call(log, messages, self.prompt, **self.constraint(base, CHOICE_GRAMMAR),
                                   max_tokens=self.tokens(2, 12))
            log.attempts += 1
            top = first_position(completion.logprobs)
            p = preference(top) if top is not None else None
            if p is not None:
                return p, None, None, "logprob"
            choice = self._parse(log, lambda: parse_choice(completion.text))
            return (1.0 if choice == "A" else 0.0), None, None, "greedy"
        completion = self.call(log, messages, self.prompt, **self.constraint(base, PAIR_SCORE_GRAMMAR),
                               max_tokens=self.tokens(12, 20))
        log.attempts += 1
        values = expected_scores(completion.logprobs, 2)
        mode = "logprob"
        if values is None or values[0] is None or values[1] is None:
            parsed = self._parse(log, lambda: parse_scores(completion.text, ["A", "B"]))
            if parsed.missing:
                log.parse_failures += 1
                raise JudgeResponseError("expected a score for both A and B", completion.text)
            log.repairs += parsed.repairs
            values, mode = list(parsed.values), "greedy"
        sa, sb = float(values[0] or 0.0), float(values[1] or 0.0)
        return (0.5 if sa == sb else float(sa > sb)), sa, sb, mode

    @staticmethod
    def _parse(log: RunLog, parse: Any) -> Any:
        try:
            return parse()
        except JudgeResponseError:
            log.parse_failures += 1
            raise


def _mean(x: float | None, y: float | None) -> float | None:
    return None if x is None or y is None else (x + y) / 2


__all__ = ["PairAggregate", "PairJudge", "PairOutcome", "PairPlan", "PairVariant", "pair_plan"]
