"""The built-in benchmark methods (:mod:`authorag.benchmarks.registry` maps names to them).

A method scores a group of items (a list in LE, a pair in PE, an instance's documents in RAG);
higher means more authoritative, ``None`` means "unknown". Pointwise methods ignore the group;
list and pair judges use it. Add a method with one :class:`MethodSpec` entry in ``METHODS``
(judge entries are generated in :mod:`authorag.benchmarks.judge_methods`).

Example:
    >>> from authorag.benchmarks.registry import build_method
    >>> from authorag.benchmarks.tasks import BenchItem
    >>> m = build_method("oracle", MethodContext(task_family="domainauth", label_source=None))
    >>> m.score([BenchItem("a.com", "a.com", 3), BenchItem("b.com", "b.com", 1)])
    [3.0, 1.0]
"""
from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from authorag.benchmarks.tasks import BenchItem, ItemKind, normalize_key, read_rows
from authorag.errors import ConfigError
from authorag.policy import RerankPolicy, Signal
from authorag.priors.base import AuthorityScorer
from authorag.rerankers.authority import blend_signal
from authorag.trust import DEFAULT_TRUST_RULE
from authorag.types import AuthorityDetail, Candidate

if TYPE_CHECKING:
    from authorag.judges.backends.base import LLMBackend

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MethodContext:
    """What a method factory may know about the run.

    Attributes:
        task_family: ``domainauth`` | ``credauth`` | ``entityauth`` | ``ragauth``.
        label_source: the prior source the labels come from (left out of priors), or None.
        item_kind: what the items are.
        backend: LLM backend name for judges (``local``, ``openai``, ``fake``), or None.
        model: model path or name for the backend.
        options: free ``key=value`` options (``credibility_weight=0.5``, ``base_url=...``).
        seed: run seed.
        protocol: judge prompt set, ``authorag`` or ``paper`` (the AuthorityBench protocol).
    """

    task_family: str
    label_source: str | None
    item_kind: ItemKind = "domain"
    backend: str | None = None
    model: str | None = None
    options: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    seed: int = 0
    protocol: str = "authorag"

    def option(self, name: str, default: str) -> str:
        """An option's value, or ``default``."""
        return self.options.get(name, default)


@runtime_checkable
class BenchMethod(Protocol):
    """Scores items for the benchmark (higher = more authoritative, None = unknown)."""

    name: str

    def score(self, items: Sequence[BenchItem]) -> list[float | None]:
        """One score per item, same order."""
        ...

    def info(self) -> dict[str, Any]:
        """Run record: active sources, coverage, calls, tokens, cache hits, parse failures."""
        ...


@dataclass(frozen=True, slots=True)
class MethodSpec:
    """A registry entry.

    Attributes:
        name: registry key (``prior``, ``judge-point-logprob``...).
        factory: builds the method for a run context.
        kinds: item kinds the method can score at all (others get all-None scores).
        needs_backend: True for LLM judges (``--backend`` required).
        description: one line for ``authorag bench list``.
    """

    name: str
    factory: Callable[[MethodContext], BenchMethod]
    kinds: tuple[ItemKind, ...]
    needs_backend: bool
    description: str


class OracleMethod:
    """Upper bound: returns the gold level."""

    name = "oracle"

    def score(self, items: Sequence[BenchItem]) -> list[float | None]:
        """The gold level of every item."""
        return [float(i.level) for i in items]

    def info(self) -> dict[str, Any]:
        """Nothing to record."""
        return {}


class RandomMethod:
    """Lower bound: fresh seeded uniform scores for every group (LE list, PE pair, RAG instance).

    Scores come from one stream seeded by ``seed``, so a run is reproducible, but each group is
    an independent draw and the expected ρ is 0 on every task. A fixed score per item is not a
    null on tasks whose top levels hold a handful of items (entityauth-basketball-fine has 3
    items at level 9 and 9 at level 8): every list reuses them, their one draw biases every list
    the same way, and the CI over lists does not see it (at seed 0 its ρ had a CI excluding 0).
    """

    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(f"random-method:{seed}")
        self._groups = 0

    def score(self, items: Sequence[BenchItem]) -> list[float | None]:
        """Uniform [0, 1) scores, drawn anew for this group."""
        self._groups += 1
        return [self._rng.random() for _ in items]

    def info(self) -> dict[str, Any]:
        """The seed and how many groups were drawn."""
        return {"seed": self.seed, "groups": self._groups}


class ScorerMethod:
    """Adapts any :class:`AuthorityScorer` (prior table, learned prior, hybrid, judge) pointwise.

    The score is the signal the reranker fuses under ``policy`` (default: ``signal`` with
    ``credibility_weight``): :func:`blend_signal` for ``signal="blend"``, the trust value
    (:mod:`authorag.trust`) for ``signal="trust"``; None when nothing is known about the source.
    Details are cached per item. The rerank tracks rerank with ``scorer``, ``policy`` and
    ``relevance`` (a pinned relevance, or None for the track's own).
    ``meter`` (a :class:`~authorag.judges.cost.CostMeter` on the LLM backend a scorer such as
    ``hybrid-judge`` uses) adds calls, tokens and cache hits to :meth:`info`.
    """

    def __init__(self, name: str, scorer: AuthorityScorer, *, credibility_weight: float = 0.0,
                 policy: RerankPolicy | None = None, relevance: str | None = None,
                 extra_info: Mapping[str, Any] | None = None, meter: Any = None, signal: Signal = "blend") -> None:
        self.name = name
        self.scorer = scorer
        self.policy = RerankPolicy(credibility_weight=credibility_weight, signal=signal) if policy is None else policy
        self.relevance = relevance
        self._details: dict[str, AuthorityDetail] = {}
        self._extra = dict(extra_info or {})
        self._meter = meter

    def score(self, items: Sequence[BenchItem]) -> list[float | None]:
        """Authority signals for ``items`` (None when the scorer does not know the source)."""
        todo = [i for i in items if i.key not in self._details]
        if todo:
            cands = [Candidate.create(i.url, text=i.text, id=i.key) for i in todo]
            for item, detail in zip(todo, self.scorer.score(cands)):
                self._details[item.key] = detail
        out: list[float | None] = []
        trust = self.policy.signal == "trust"
        for item in items:
            d = self._details[item.key]
            if trust:
                tv = DEFAULT_TRUST_RULE.of(d)
                out.append(None if tv.reason == "unknown" else tv.value)
                continue
            known = d.authority is not None or (self.policy.credibility_weight > 0 and d.credibility is not None)
            out.append(blend_signal(d, self.policy) if known else None)
        return out

    def details(self, items: Sequence[BenchItem]) -> list[AuthorityDetail]:
        """The scorer's authority details for ``items`` (cached per item key)."""
        self.score(items)
        return [self._details[i.key] for i in items]

    def info(self) -> dict[str, Any]:
        """Tiers and per-source coverage of the items scored so far."""
        n = len(self._details)
        tiers: dict[str, int] = {}
        per_source: dict[str, int] = {}
        for d in self._details.values():
            tiers[d.tier] = tiers.get(d.tier, 0) + 1
            for s in (*d.sources, *d.credibility_sources):
                per_source[s.name] = per_source.get(s.name, 0) + 1
        cost: dict[str, Any] = {}
        if self._meter is not None:
            t = self._meter.totals()
            cost = {"calls": t.calls, "prompt_tokens": t.prompt_tokens, "completion_tokens": t.completion_tokens,
                    "cache_hits": t.cache_hits, "latency_s": round(t.latency_s, 3)}
        return {**self._extra, **cost, "items_scored": n, "credibility_weight": self.policy.credibility_weight,
                "tiers": tiers, "source_coverage": {k: v / n for k, v in sorted(per_source.items())} if n else {}}


class TableMethod:
    """A fixed external rating table (e.g. the osome ChatGPT ratings): key → value, else None."""

    def __init__(self, name: str, table: Mapping[str, float], note: str) -> None:
        self.name = name
        self.table = table
        self.note = note
        self._seen = 0
        self._hits = 0

    def score(self, items: Sequence[BenchItem]) -> list[float | None]:
        """Table value of each item's host key."""
        out = [self.table.get(normalize_key(i.url) or i.key) if i.url else None for i in items]
        self._seen += len(out)
        self._hits += sum(v is not None for v in out)
        return out

    def info(self) -> dict[str, Any]:
        """Coverage over scored items (counted per group occurrence)."""
        return {"note": self.note, "coverage": self._hits / self._seen if self._seen else 0.0}


def make_backend(ctx: MethodContext) -> LLMBackend:
    """The LLM backend for ``ctx.backend`` (``local`` | ``openai`` | ``fake``).

    ``local`` takes ``--model`` as a registered model name or GGUF path (default: the judges'
    default 1.5B model); ``openai`` takes ``--model`` and ``--option base_url=...``
    (``--option api_key=...``). Real backends sit behind the judges' persistent cache unless
    ``--option cache=off``.
    """
    from authorag.judges.backends import load_backend

    if ctx.backend == "fake":
        return load_backend("fake", model="scripted-hash")

    cache: bool = ctx.option("cache", "on") != "off"
    if ctx.backend == "local":
        kwargs: dict[str, Any] = {"n_ctx": int(ctx.option("n_ctx", "4096"))}
        if ctx.model is not None:
            kwargs["model_path"] = ctx.model
        return load_backend("local", cache=cache, **kwargs)
    if ctx.backend == "openai":
        kwargs = {k: v for k, v in ctx.options.items() if k in ("base_url", "api_key")}
        if ctx.model is not None:
            kwargs["model"] = ctx.model
        return load_backend("openai", cache=cache, **kwargs)
    raise ConfigError(f"backend must be one of 'local', 'openai', 'fake', got {ctx.backend!r}")


def _float_option(ctx: MethodContext, name: str, default: float) -> float:
    raw = ctx.option(name, str(default))
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"option {name} must be a number, got {raw!r}") from None


def _excluded(ctx: MethodContext) -> tuple[str, ...]:
    return excluded_sources(ctx)


def excluded_sources(ctx: MethodContext) -> tuple[str, ...]:
    """The prior sources a run leaves out: the task's label source and, for MBFC-derived task
    families, every source built from MBFC or OpenSources labels (CRED-1)."""
    from authorag.priors.sources import sources_derived_from

    out = () if ctx.label_source is None else (ctx.label_source,)
    if ctx.task_family in MBFC_DERIVED_FAMILIES:
        out += tuple(s for s in sources_derived_from(MBFC_ORIGINS) if s not in out)
    return out


def _prior(ctx: MethodContext, default_cw: float = 0.0) -> BenchMethod:
    from authorag.priors import load_prior

    exclude = _excluded(ctx)
    table = load_prior(exclude=exclude)
    name = "prior" if default_cw == 0.0 else "prior-cred"
    return ScorerMethod(name, table, credibility_weight=_float_option(ctx, "credibility_weight", default_cw),
                        extra_info={"excluded_sources": list(exclude), "active_sources": list(table.source_names)})


MBFC_ORIGINS = ("mbfc", "opensources")
"""Label origins of the MBFC-derived task families (Iffy.news, CRED-1 build on both)."""
MBFC_DERIVED_FAMILIES = frozenset({"credauth"})
"""Task families whose labels derive from MBFC (MBFC itself, Baly et al. 2018): the learned prior
is trained without the tail sources derived from MBFC (CRED-1) for them."""


def learned_for(ctx: MethodContext) -> Any:
    """The learned prior for a run, leave-source-out: without the task's label source, and
    without CRED-1 (MBFC-derived) for MBFC-derived task families."""
    from authorag.priors.learned.tail_data import DEFAULT_TAIL, tail_sources_without
    from authorag.priors.learned.train import learned_prior_for

    origin = "mbfc" if ctx.task_family in MBFC_DERIVED_FAMILIES else None
    return learned_prior_for(exclude=_excluded(ctx), tail=tail_sources_without(DEFAULT_TAIL, origin))


def _learned(ctx: MethodContext) -> BenchMethod:
    scorer: Any = learned_for(ctx)
    return ScorerMethod("learned", scorer, extra_info={
        "excluded_sources": list(_excluded(ctx)), "active_sources": list(scorer.meta.get("sources", [])),
        "tail_sources": list(scorer.meta.get("tail_sources", []))})


def _hybrid(ctx: MethodContext, with_judge: bool = False) -> BenchMethod:
    """Table → learned → (point judge on ``ctx.backend`` if ``with_judge``), leave-source-out."""
    from authorag.priors import load_prior
    from authorag.tiers.hybrid import HybridAuthority

    exclude = _excluded(ctx)
    table = load_prior(exclude=exclude)
    learned: Any = _learned(ctx)
    judge = meter = None
    if with_judge:
        from authorag.judges.cost import CostMeter, MeteredBackend
        from authorag.judges.registry import load_judge

        meter = CostMeter()  # the hybrid calls its judge internally: count at the backend
        judge = load_judge("point", MeteredBackend(make_backend(ctx), meter), on_failure="skip",
                           prompt_set=ctx.protocol)
    scorer = HybridAuthority(table, learned.scorer, judge, max_judge_calls=10**9, judge_seconds=1e9)
    name = "hybrid" if judge is None else "hybrid-judge"
    return ScorerMethod(name, scorer, credibility_weight=_float_option(ctx, "credibility_weight", 0.0), meter=meter,
                        extra_info={"excluded_sources": list(exclude), "active_sources": list(table.source_names),
                                    "learned_sources": learned.info().get("active_sources", []),
                                    "judge": None if judge is None else f"{judge.backend.name}:{judge.backend.model}"})


def _chatgpt(_ctx: MethodContext) -> BenchMethod:
    table: dict[str, float] = {}
    for row in read_rows("authorag.benchmarks.data", "yang2023_chatgpt.csv.gz"):
        value, key = float(row["chatgpt_rating"]), normalize_key(row["domain"])
        if value >= 0.0 and key is not None:  # -1 marks "no rating" in the origin
            table[key] = value
    return TableMethod("chatgpt-yang2023", table, "Yang & Menczer 2023 ChatGPT ratings (external reference, no LLM call)")


_BASE: tuple[MethodSpec, ...] = (
    MethodSpec("random", lambda ctx: RandomMethod(ctx.seed), ("domain", "entity", "document"), False,
               "seeded uniform scores (lower bound)"),
    MethodSpec("oracle", lambda ctx: OracleMethod(), ("domain", "entity", "document"), False,
               "the gold level (upper bound)"),
    MethodSpec("prior", _prior, ("domain", "document"), False,
               "shipped multi-source prior table, label source left out (leave-source-out)"),
    MethodSpec("prior-cred", lambda ctx: _prior(ctx, 1.0), ("domain", "document"), False,
               "prior table, credibility where known (credibility_weight=1), else authority"),
    MethodSpec("learned", _learned, ("domain", "document"), False,
               "learned domain-name prior, trained without the label source"),
    MethodSpec("hybrid", _hybrid, ("domain", "document"), False,
               "HybridAuthority: prior table → learned prior (both leave-source-out), no judge"),
    MethodSpec("hybrid-judge", lambda ctx: _hybrid(ctx, True), ("domain", "document"), True,
               "HybridAuthority with a point judge (--backend) for what the priors do not know"),
    MethodSpec("chatgpt-yang2023", _chatgpt, ("domain", "document"), False,
               "osome ChatGPT credibility ratings (external reference row, CredAuth)"),
)

def split_variant(name: str) -> tuple[str, str]:
    """``default:learned=true`` → (``default``, ``learned=true``); plain names get ``""``."""
    base, _, variant = name.partition(":")
    return base, variant


BASE_SPECS: tuple[MethodSpec, ...] = _BASE
"""The built-in methods (track and judge methods are added by :mod:`authorag.benchmarks.registry`)."""
