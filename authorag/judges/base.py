"""Shared judge machinery: result types, failure policy, cost accounting, the AuthorityScorer glue.

Every judge returns a :class:`JudgeRun`: one :class:`ItemScore` per item in input order (raw
0–9 and normalized 0–1, the mode that produced it, the prompt version), an optional ranking,
the run's cost and its parse-failure rate. Judges also implement
:class:`~authorag.priors.base.AuthorityScorer` (tier ``"judge"``) so they plug into
:class:`~authorag.rerankers.authority.AuthorityReranker`.
"""
from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends.base import ChatRequest, Completion, LLMBackend
from authorag.judges.items import DEFAULT_TEXT_BUDGET, JudgeItem, as_items
from authorag.judges.prompt_sets import PROMPT_SETS, PromptSet, json_schema, template_name
from authorag.progress import report
from authorag.types import AuthorityDetail, Candidate, SourceValue
from authorag.validation import check_choice

logger = logging.getLogger(__name__)

FailurePolicy = Literal["raise", "skip"]
JudgeOutput = Literal["score", "rank"]

JUDGE_CONFIDENCE = 0.5
"""Confidence attached to judge scores: below a table hit, above an unknown source."""


@dataclass(frozen=True, slots=True)
class JudgeCost:
    """Calls, tokens, latency and cache hits of a run (sums over completions)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cache_hits: int = 0

    def add(self, completion: Completion) -> JudgeCost:
        """A new total including ``completion``."""
        return JudgeCost(
            self.calls + 1,
            self.prompt_tokens + completion.prompt_tokens,
            self.completion_tokens + completion.completion_tokens,
            self.latency_s + completion.latency_s,
            self.cache_hits + int(completion.cached),
        )

    def __add__(self, other: JudgeCost) -> JudgeCost:
        return JudgeCost(
            self.calls + other.calls,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.latency_s + other.latency_s,
            self.cache_hits + other.cache_hits,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "latency_s": round(self.latency_s, 4),
            "cache_hits": self.cache_hits,
        }


@dataclass(frozen=True, slots=True)
class ItemScore:
    """A judge's score for one item.

    Attributes:
        key: the item's identity (domain, URL or ``type:entity``).
        raw: score on the 0–9 scale (None when skipped).
        score: ``raw`` normalized to 0–1.
        mode: how it was produced (``logprob``, ``greedy``, ``pair-average``, ``rank``...).
        prompt_version: the versioned template id(s) used.
        error: why no score was produced (failure policy ``skip``).
    """

    key: str
    raw: float | None
    score: float | None
    mode: str | None
    prompt_version: str
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {
            "key": self.key,
            "raw": self.raw,
            "score": self.score,
            "mode": self.mode,
            "prompt_version": self.prompt_version,
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class JudgeRun:
    """The result of one judge run over a list of items.

    Attributes:
        method: judge name (``point``, ``pair``, ``list``, ``relevance``, ``utility``).
        output: ``score`` or ``rank``.
        items: the items judged, in input order.
        scores: one ItemScore per item, in input order.
        order: indices into ``items`` from best to worst (ranking output), else None.
        cost: calls, tokens, latency, cache hits.
        attempts: model answers that had to be parsed; ``parse_failures`` of them failed.
        repairs: fixes applied while parsing (clamped numbers, missing/duplicate ids).
        failures: reasons recorded under the ``skip`` policy.
        stats: method-specific counts (comparisons, position-bias flips, windows).
    """

    method: str
    output: JudgeOutput
    items: tuple[JudgeItem, ...]
    scores: tuple[ItemScore, ...]
    order: tuple[int, ...] | None = None
    cost: JudgeCost = JudgeCost()
    attempts: int = 0
    parse_failures: int = 0
    repairs: int = 0
    failures: tuple[str, ...] = ()
    prompt_version: str = ""
    backend: str = ""
    model: str = ""
    stats: Mapping[str, Any] = field(default_factory=dict[str, Any])

    @property
    def parse_failure_rate(self) -> float:
        """Failed parses / attempted parses (0.0 when nothing was parsed)."""
        return self.parse_failures / self.attempts if self.attempts else 0.0

    def ranking(self) -> tuple[int, ...]:
        """Indices best first: ``order`` if present, else by score (unscored items last, stable)."""
        if self.order is not None:
            return self.order
        keyed = [(-(s.score if s.score is not None else -1.0), i) for i, s in enumerate(self.scores)]
        return tuple(i for _, i in sorted(keyed))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view (stable shape)."""
        return {
            "method": self.method,
            "output": self.output,
            "backend": self.backend,
            "model": self.model,
            "prompt_version": self.prompt_version,
            "scores": [s.to_dict() for s in self.scores],
            "order": list(self.ranking()),
            "cost": self.cost.to_dict(),
            "attempts": self.attempts,
            "parse_failures": self.parse_failures,
            "parse_failure_rate": self.parse_failure_rate,
            "repairs": self.repairs,
            "failures": list(self.failures),
            "stats": dict(self.stats),
        }


class RunLog:
    """Mutable counters for one run (cost, parse attempts/failures, repairs, skip reasons)."""

    def __init__(self) -> None:
        self.cost = JudgeCost()
        self.attempts = 0
        self.parse_failures = 0
        self.repairs = 0
        self.failures: list[str] = []
        self.stats: dict[str, Any] = {}

    def bump(self, key: str, by: int = 1) -> None:
        """Increase the method-specific counter ``key``."""
        self.stats[key] = int(self.stats.get(key, 0)) + by


class JudgeBase:
    """Common constructor, backend calls, failure handling and AuthorityScorer glue.

    Subclasses implement :meth:`judge` and set ``method``.
    """

    method: str = "judge"

    def __init__(
        self,
        backend: LLMBackend,
        *,
        with_text: bool = False,
        text_budget: int = DEFAULT_TEXT_BUDGET,
        on_failure: FailurePolicy = "raise",
        use_logprobs: bool = True,
        max_tokens: int | None = None,
        prompt_set: PromptSet = "authorag",
    ) -> None:
        check_choice("on_failure", on_failure, get_args(FailurePolicy))
        check_choice("prompt_set", prompt_set, PROMPT_SETS)
        if text_budget < 0:
            raise ConfigError(f"text_budget must be >= 0, got {text_budget}")
        self.backend = backend
        self.with_text = with_text
        self.text_budget = text_budget
        self.on_failure: FailurePolicy = on_failure
        # the paper's protocol decodes greedily: no logprobs are asked for under it
        self.use_logprobs = use_logprobs and prompt_set == "authorag"
        self.max_tokens = max_tokens
        self.prompt_set: PromptSet = prompt_set
        self.calls_made = 0
        """Backend calls this judge has sent since it was made (what its progress reports count)."""
        self.name = f"judge.{self.method}"

    def prompt_name(self, name: str) -> str:
        """The template this judge's prompt set renders for base template ``name``."""
        return template_name(name, self.prompt_set)

    def constraint(self, name: str, grammar: str | None, ids: Sequence[str] = ()) -> dict[str, Any]:
        """Request fields that constrain the answer: the GBNF ``grammar`` (authorag prompt set) or
        the paper protocol's JSON schema for base template ``name`` over item ``ids``."""
        if self.prompt_set == "paper":
            return {"json_schema": json_schema(name, ids)}
        return {} if grammar is None else {"grammar": grammar}

    def tokens(self, authorag: int, paper: int) -> int:
        """Completion budget: ``max_tokens`` when set, else the prompt set's default."""
        if self.max_tokens is not None:
            return self.max_tokens
        return paper if self.prompt_set == "paper" else authorag

    def items(self, values: Sequence[JudgeItem | Candidate | str]) -> list[JudgeItem]:
        """Normalize input to JudgeItems using this judge's text settings."""
        return as_items(list(values), with_text=self.with_text, text_budget=self.text_budget)

    def call(self, log: RunLog, messages: list[dict[str, str]], prompt: str, **kw: Any) -> Completion:
        """Send one request (logprobs per ``use_logprobs``) and account for its cost."""
        request = ChatRequest(
            messages=messages, logprobs=self.use_logprobs, prompt_version=prompt, **kw
        )
        completion = self.backend.complete(request)
        log.cost = log.cost.add(completion)
        self.calls_made += 1
        report(self.name, self.calls_made, unit="calls")
        return completion

    def fail(self, log: RunLog, reason: str, exc: JudgeError) -> None:
        """Apply the failure policy: re-raise, or record the reason and go on."""
        if self.on_failure == "raise":
            raise exc
        logger.warning("%s skipped: %s", self.name, reason)
        log.failures.append(reason)

    def finish(
        self,
        log: RunLog,
        items: Sequence[JudgeItem],
        scores: Sequence[ItemScore],
        output: JudgeOutput,
        prompt: str,
        order: tuple[int, ...] | None = None,
    ) -> JudgeRun:
        """Freeze the run log into a JudgeRun."""
        return JudgeRun(
            method=self.method, output=output, items=tuple(items), scores=tuple(scores),
            order=order, cost=log.cost, attempts=log.attempts, parse_failures=log.parse_failures,
            repairs=log.repairs, failures=tuple(log.failures), prompt_version=prompt,
            backend=self.backend.name, model=self.backend.model, stats=dict(log.stats),
        )

    def judge(self, values: Sequence[JudgeItem | Candidate | str]) -> JudgeRun:
        """Judge ``values``; implemented by each judge."""
        raise NotImplementedError

    async def ajudge(self, values: Sequence[JudgeItem | Candidate | str]) -> JudgeRun:
        """Async twin of :meth:`judge` (runs it in a worker thread; the calls stay sequential)."""
        return await asyncio.to_thread(self.judge, values)

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """AuthorityScorer: one tier-``judge`` detail per candidate (unknown where skipped)."""
        if not candidates:
            return []
        run = self.judge(list(candidates))
        return [to_detail(self.name, s) for s in run.scores]


_PUBLIC_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"judge cache"), "the judge cache is unavailable"),
    (re.compile(r"not JSON|not a chat completion|without a list of choices|model output was|could not be parsed"),
     "the judge's answer could not be read"),
    (re.compile(r"answered HTTP (\d{3})"), r"the judge answered HTTP \1"),
    (re.compile(r"timed out|no answer within"), "the judge timed out"),
    (re.compile(r"cannot connect"), "the judge could not be reached"),
)


def public_reason(error: str | None) -> str:
    """A short reason for a judge failure that names no endpoint, host, path or upstream text
    (what breakdowns and an unauthenticated ``/readyz`` show; the whole error goes to the log).

    Example:
        >>> public_reason("OpenAI-compatible server at http://10.0.0.5:8080/v1 answered HTTP 503 after 2 attempt(s)")
        'the judge answered HTTP 503'
        >>> public_reason("judge cache at redis://***@cache:6379/0 failed to read (Connection refused)")
        'the judge cache is unavailable'
    """
    for pattern, reason in _PUBLIC_REASONS:
        found = pattern.search(error or "")
        if found is not None:
            return found.expand(reason)
    return "the judge call failed"


def to_detail(name: str, item: ItemScore) -> AuthorityDetail:
    """An AuthorityDetail for one judge score (tier ``judge``; ``unknown`` when skipped).

    A skipped item's note gives :func:`public_reason` of its error (the error itself was logged).
    """
    note = f"mode={item.mode} prompt={item.prompt_version}"
    if item.score is None:
        return AuthorityDetail(
            authority=None, confidence=0.0, tier="unknown", matched=item.key,
            note=f"{name} gave no score: {public_reason(item.error)}; details in the log",
        )
    return AuthorityDetail(
        authority=item.score, confidence=JUDGE_CONFIDENCE, tier="judge",
        sources=(SourceValue(name, item.score, item.raw),), matched=item.key, note=note,
    )


__all__ = [
    "JUDGE_CONFIDENCE",
    "FailurePolicy",
    "ItemScore",
    "JudgeBase",
    "JudgeCost",
    "JudgeOutput",
    "JudgeRun",
    "RunLog",
    "public_reason",
    "to_detail",
]
