"""HybridAuthority: prior table → learned prior → LLM judge, chosen per domain by confidence and budget.

A table hit with enough confidence is used as is. Otherwise the learned prior (any
AuthorityScorer of tier ``learned``) is asked. If that is still below ``min_confidence``, a judge
is configured and the request's budget (``max_judge_calls``, ``judge_seconds``) allows, the judge
scores the domain and its score is calibrated onto the prior scale
(:class:`~authorag.judges.calibration.Calibration`). Every detail says which tier produced it;
when the judge is not used, the best lower-confidence value (table, then learned) is returned,
or unknown, with a note saying why.

Example:
    >>> from authorag.priors.table import load_prior
    >>> from authorag.judges.point_judge import PointJudge
    >>> from authorag.testing import FakeBackend
    >>> from authorag.types import candidates_from
    >>> hybrid = HybridAuthority(load_prior(), judge=PointJudge(FakeBackend(["6"]), use_logprobs=False),
    ...                          calibration=None)
    >>> [d.tier for d in hybrid.score(candidates_from(["https://www.bbc.co.uk/news", "zq-unknown-site.biz"]))]
    ['table', 'judge']
"""
from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Sequence
from typing import Any, Literal

from authorag.bounded import BoundedDict
from authorag.errors import ConfigError, JudgeError
from authorag.judges.base import JudgeBase, public_reason, to_detail
from authorag.judges.calibration import Calibration
from authorag.judges.deadline import Skipped, guard_for
from authorag.priors.base import AuthorityScorer, prior_stores_of
from authorag.progress import report
from authorag.types import (
    UNKNOWN_DETAIL,
    UNKNOWN_LEVEL,
    AuthorityDetail,
    Candidate,
    SkipCode,
    SourceValue,
)
from authorag.validation import check_unit

logger = logging.getLogger(__name__)

_DEFAULT = "default"


class HybridAuthority:
    """The prior table, then the learned prior, then an LLM judge, as one AuthorityScorer.

    Opt-in: the default composition (:func:`authorag.compose.load_scorer`) uses it only with
    ``learned=True`` or a ``judge``.

    Args:
        table: the prior table (or any AuthorityScorer) asked first.
        learned: an optional AuthorityScorer asked for what the table does not know confidently.
        judge: an optional AuthorityScorer (usually a PointJudge) for what is still uncertain.
        min_confidence: a tier's value is accepted at or above this confidence.
        max_judge_calls: judge calls allowed per :meth:`score` call (cache hits are free).
        judge_seconds: wall-time budget for judging per :meth:`score` call.
        calibration: ``"default"`` (the shipped fit), a :class:`Calibration`, or None (identity).
        unknown_level: values from the learned and judge tiers are shrunk towards this level by
            their confidence, ``v' = u + c·(v − u)``. Domains the table does not know are, on
            average, less authoritative than those it knows (the tables cover the head of the
            web), and the learned/judge tiers are fitted on table domains only; without shrinkage
            an unknown domain lands inside the table's range and "not in any table" (itself
            evidence) is lost. Default :data:`~authorag.types.UNKNOWN_LEVEL`, the reranker's
            ``unknown_level``. None disables shrinkage.
            A tier already calibrated for unknown domains (a tail-aware learned prior, whose
            ``scale`` is ``"unknown"``; a judge calibration fitted with ``scale="unknown"``) is
            not shrunk again: its value already moves away from 0.3 only as far as its evidence.

    Raises:
        ConfigError: a bound outside its range.
    """

    name = "hybrid"

    def __init__(
        self,
        table: AuthorityScorer,
        learned: AuthorityScorer | None = None,
        judge: AuthorityScorer | None = None,
        *,
        min_confidence: float = 0.5,
        max_judge_calls: int = 20,
        judge_seconds: float = 30.0,
        calibration: Calibration | Literal["default"] | None = _DEFAULT,
        unknown_level: float | None = UNKNOWN_LEVEL,
    ) -> None:
        check_unit("min_confidence", min_confidence)
        check_unit("unknown_level", unknown_level, optional=True)
        if max_judge_calls < 0 or judge_seconds < 0:
            raise ConfigError(f"budgets must be >= 0, got max_judge_calls={max_judge_calls}, judge_seconds={judge_seconds}")
        self.table = table
        self.learned = learned
        self.judge = judge
        self.min_confidence = min_confidence
        self.unknown_level = unknown_level
        self.max_judge_calls = max_judge_calls
        self.judge_seconds = judge_seconds
        # Calibrated judge verdicts per domain, in front of the judge's own (SQLite) cache: a
        # service sees the same unknown domains in request after request, and rebuilding the
        # prompt, hashing it and reading SQLite cost more than the rest of the request.
        self._memo: BoundedDict[str, AuthorityDetail] = BoundedDict(_MEMO_SIZE)
        if calibration == _DEFAULT:
            self.calibration = Calibration.load() if judge is not None else Calibration.identity()
        else:
            self.calibration = calibration if isinstance(calibration, Calibration) else Calibration.identity()

    def host_credibility(self, host: str | None, domain: str | None) -> tuple[SourceValue, ...]:
        """The table's :meth:`~authorag.priors.table.PriorTable.host_credibility` (the hosted tier's)."""
        found = getattr(self.table, "host_credibility", None)
        return () if found is None else found(host, domain)

    @property
    def prior_stores(self) -> dict[str, dict[str, Any]]:
        """The prior stores the table tier reads (:func:`~authorag.priors.base.prior_stores_of`)."""
        return prior_stores_of(self.table)

    def _confident(self, detail: AuthorityDetail) -> bool:
        return detail.authority is not None and detail.confidence >= self.min_confidence

    def score(self, candidates: Sequence[Candidate]) -> list[AuthorityDetail]:
        """One detail per candidate; ``tier`` tells which tier produced it."""
        out = list(self.table.score(candidates))
        todo = [i for i, d in enumerate(out) if not self._confident(d)]
        fallback: dict[int, AuthorityDetail] = {i: out[i] for i in todo if out[i].known}
        if todo and self.learned is not None:
            learned = self.learned.score([candidates[i] for i in todo])
            for i, detail in zip(todo, learned, strict=True):
                if self._confident(detail):
                    out[i] = detail
                elif detail.known and i not in fallback:
                    fallback[i] = detail
            todo = [i for i in todo if not self._confident(out[i])]
        judged = self._judge([candidates[i] for i in todo]) if todo else []
        for i, detail in zip(todo, judged, strict=True):
            out[i] = detail if detail.known else _explain(fallback.get(i, out[i]), detail.note, detail.skipped)
        return [self._shrink(d) for d in out]

    def _shrink(self, detail: AuthorityDetail) -> AuthorityDetail:
        if self.unknown_level is None or detail.authority is None or detail.tier not in ("learned", "judge"):
            return detail
        scale = getattr(self.learned, "scale", "table") if detail.tier == "learned" else self.calibration.scale
        if scale == "unknown":
            return detail
        value = self.unknown_level + detail.confidence * (detail.authority - self.unknown_level)
        note = f"shrunk towards {self.unknown_level:g} by confidence {detail.confidence:.2f}: {detail.authority:.3f} -> {value:.3f}"
        return dataclasses.replace(detail, authority=value, note="; ".join(n for n in (detail.note, note) if n))

    def _judge(self, candidates: list[Candidate]) -> list[AuthorityDetail]:
        """Judge candidates one domain at a time within the budget; unjudged → unknown + note.

        ``judge_seconds`` is a deadline enforced while a call is in flight (see
        :mod:`authorag.judges.deadline`): a call still running then is abandoned.
        """
        if self.judge is None:
            return [dataclasses.replace(UNKNOWN_DETAIL, note="no judge configured")] * len(candidates)
        start, calls = time.monotonic(), 0
        done: dict[str, AuthorityDetail] = {}
        out: list[AuthorityDetail] = []
        memo = self._memo if not getattr(self.judge, "with_text", False) else None
        if isinstance(self.judge, JudgeBase):  # announce how many calls this request may make
            keys = {c.domain or c.url for c in candidates} - (set(memo) if memo is not None else set())
            if keys:
                made = self.judge.calls_made
                report(self.judge.name, made, made + min(len(keys), self.max_judge_calls), unit="calls")
        for cand in candidates:
            key = cand.domain or cand.url
            if key not in done and memo is not None and key in memo:
                done[key] = memo[key]
            if key not in done:
                over = self._over_budget(calls, time.monotonic() - start)
                if over is not None:
                    out.append(over)
                    continue
                detail, used = self._judge_one(cand, start + self.judge_seconds)
                calls += used
                done[key] = detail
                if memo is not None and detail.known:
                    memo.put(key, detail)
            out.append(done[key])
        return out

    def _over_budget(self, calls: int, elapsed: float) -> AuthorityDetail | None:
        if calls >= self.max_judge_calls:
            return dataclasses.replace(UNKNOWN_DETAIL, note=f"judge budget exhausted (max_judge_calls={self.max_judge_calls})")
        if elapsed >= self.judge_seconds:
            return _skipped(Skipped("deadline", f"judge_seconds={self.judge_seconds:g}"))
        return None

    def _judge_one(self, cand: Candidate, deadline: float) -> tuple[AuthorityDetail, int]:
        judge = self.judge
        assert judge is not None

        def run() -> tuple[AuthorityDetail, int, str | None]:
            if isinstance(judge, JudgeBase):
                result = judge.judge([cand])
                detail = to_detail(judge.name, result.scores[0])
                return detail, result.cost.calls - result.cost.cache_hits, "; ".join(result.failures) or None
            detail = judge.score([cand])[0]
            return detail, 1, None if detail.known else detail.note or "no score"

        key = cand.domain or cand.url
        try:
            got = guard_for(judge).call(key, run, timeout_s=deadline - time.monotonic(), failed=lambda r: r[2])
        except JudgeError as exc:  # a judge whose on_failure is "raise"
            logger.warning("%s failed on %s: %s", judge.name, key, exc)
            return dataclasses.replace(UNKNOWN_DETAIL, note=f"{judge.name} failed: {public_reason(str(exc))}; "
                                                               "details in the log"), 1
        if isinstance(got, Skipped):
            return _skipped(got), 0
        detail, used, _ = got
        return self._calibrate(detail), used

    def _calibrate(self, detail: AuthorityDetail) -> AuthorityDetail:
        if detail.authority is None:
            return detail
        value = self.calibration(detail.authority)
        cal = self.calibration
        note = f"{detail.note or ''}; calibrated {cal.kind} ({cal.model or 'no model'}) {detail.authority:.3f} -> {value:.3f}"
        return dataclasses.replace(
            detail, authority=value, tier="judge",
            sources=(*detail.sources, SourceValue("judge.calibrated", value, detail.authority)), note=note.lstrip("; "),
        )


_MEMO_SIZE = 100_000
"""Domains whose judged authority a :class:`HybridAuthority` keeps in memory."""


def _explain(detail: AuthorityDetail, reason: str | None, skipped: SkipCode | None) -> AuthorityDetail:
    note = "; ".join(n for n in (detail.note, reason) if n)
    return dataclasses.replace(detail, note=note or None, skipped=skipped)


def _skipped(skip: Skipped[Any]) -> AuthorityDetail:
    """The unknown detail of a judge call the guard skipped: its code as a field, and in words."""
    return dataclasses.replace(UNKNOWN_DETAIL, note=skip.note, skipped=skip.code)


def build_hybrid(
    judge: str | None,
    *,
    table: AuthorityScorer | None = None,
    learned: bool | AuthorityScorer = True,
    cache: Any = True,
    cache_max_entries: int | None = None,
    judge_method: str = "point",
    hybrid_kw: dict[str, Any] | None = None,
    **backend_kw: Any,
) -> HybridAuthority:
    """A hybrid scorer from the shipped parts: prior table + learned prior + optional judge.

    Args:
        judge: None (no judge), ``"local"`` (embedded model) or ``"openai"`` (``base_url``, ``model``).
        table: prior table (default ``load_prior()``).
        learned: True for the shipped learned prior, False for none, or any AuthorityScorer.
        cache: judge cache for the backend (True: the default sqlite file; False: none).
        cache_max_entries: the cache's bound (None: its default,
            :data:`~authorag.judges.backends.cache.DEFAULT_MAX_ENTRIES`).
        judge_method: registered judge name (``point`` by default: one call per domain).
        hybrid_kw: HybridAuthority options (``min_confidence``, ``max_judge_calls``, ...).
        backend_kw: backend arguments; ``model`` means the GGUF path/name for ``local``.

    Example:
        >>> from authorag.types import candidates_from
        >>> build_hybrid(None, learned=False).score(candidates_from(["nih.gov"]))[0].tier
        'table'
    """
    from authorag.priors.table import load_prior

    prior = load_prior() if table is None else table
    learned_scorer: AuthorityScorer | None
    if learned is True:
        from authorag.priors.learned.model import load_learned_prior

        learned_scorer = load_learned_prior()
    else:
        learned_scorer = None if learned is False else learned
    if judge is not None and cache_max_entries is not None and cache is not False:
        from authorag.judges.backends.cache_redis import open_cache

        cache = open_cache(cache, max_entries=cache_max_entries)
    judge_scorer = None if judge is None else _make_judge(judge, judge_method, cache, backend_kw)
    return HybridAuthority(prior, learned_scorer, judge_scorer, **(hybrid_kw or {}))


def _make_judge(judge: str, method: str, cache: Any, backend_kw: dict[str, Any]) -> JudgeBase:
    from authorag.judges.backends import load_backend
    from authorag.judges.registry import load_judge

    if judge not in ("local", "openai"):
        raise ConfigError(f"judge must be 'local', 'openai' or None, got {judge!r}")
    kw = dict(backend_kw)
    if judge == "local" and "model" in kw:
        kw["model_path"] = kw.pop("model")
    backend = load_backend(judge, cache=cache, **kw)
    return load_judge(method, backend, on_failure="skip")


__all__ = ["HybridAuthority", "build_hybrid"]
