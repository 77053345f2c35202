"""Methods for choosing the default composition: table-const, table-learned, default.

All of them score with the reranker's own policy defaults, so a benchmark measures what
:class:`~authorag.rerankers.authority.AuthorityReranker` fuses:

* an unknown source is ``None`` here and every protocol fills it with
  :data:`~authorag.types.UNKNOWN_LEVEL` (0.3), the value the reranker uses;
* the signal is :func:`~authorag.rerankers.authority.blend_signal` with the reranker's
  ``DEFAULT_CREDIBILITY_WEIGHT`` (override with ``--option credibility_weight=...``).

Methods (every one leave-source-out: the label source of the task is dropped from the table
and the learned prior is retrained without it):

* ``table-const``: the prior table (with its suffix rules); unknown sources at the constant.
* ``table-learned``: table → learned prior (``HybridAuthority`` without judge, no shrinkage:
  the learned value is used as it comes).
* ``default``: the one composition, ``authorag.compose.load_scorer(ScorerSettings(exclude_sources=...))``
  (see :func:`default_scorer`), with ``RerankPolicy()``; ``relevance-only`` and ``today`` are the
  same composition with other policies (:mod:`authorag.benchmarks.tracks.rerank_methods`).
  A variant after a colon sets other ScorerSettings or RerankPolicy fields, so compositions can
  be compared in one table: ``default:learned=true``, ``default:hosted=false,reserved=false``,
  ``default:fusion=rrf,weight=0.5``.

Example:
    >>> from authorag.benchmarks.methods import MethodContext
    >>> from authorag.benchmarks.registry import build_method
    >>> from authorag.benchmarks.tasks import BenchItem
    >>> m = build_method("table-const", MethodContext(task_family="tailauth", label_source=None))
    >>> m.score([BenchItem("q", "https://zq-unknown-site-4412.biz/x", 0)])
    [None]
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, get_args

from authorag.benchmarks.methods import BenchMethod, MethodContext, MethodSpec, ScorerMethod
from authorag.errors import ConfigError
from authorag.policy import DEFAULT_CREDIBILITY_WEIGHT, Signal
from authorag.priors.base import AuthorityScorer
from authorag.validation import check_choice


def excluded_sources(ctx: MethodContext) -> tuple[str, ...]:
    """The prior sources a run leaves out: the task's label source and, for MBFC-derived task
    families, every source built from MBFC or OpenSources labels (CRED-1): leave-source-out."""
    from authorag.benchmarks.methods import excluded_sources as excluded

    return excluded(ctx)


def option_credibility_weight(ctx: MethodContext) -> float:
    """``--option credibility_weight`` (default: the reranker's ``DEFAULT_CREDIBILITY_WEIGHT``)."""
    raw = ctx.option("credibility_weight", str(DEFAULT_CREDIBILITY_WEIGHT))
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"option credibility_weight must be a number, got {raw!r}") from None


def _signal(ctx: MethodContext, default: Signal = "blend") -> Signal:
    value = ctx.option("signal", default)
    check_choice("option signal", value, get_args(Signal))
    return value  # type: ignore[return-value]  # checked against the Literal just above


def _table_const(ctx: MethodContext) -> BenchMethod:
    from authorag.priors import load_prior

    exclude = excluded_sources(ctx)
    table = load_prior(exclude=exclude)
    return ScorerMethod("table-const", table, credibility_weight=option_credibility_weight(ctx), signal=_signal(ctx),
                        extra_info={
        "excluded_sources": list(exclude), "active_sources": list(table.source_names),
        "unknown": "constant UNKNOWN_LEVEL"})


def learned_scorer(ctx: MethodContext) -> Any:
    """The learned prior, retrained without the task's label source (and without CRED-1 for
    MBFC-derived tasks): :func:`authorag.benchmarks.methods.learned_for`."""
    from authorag.benchmarks.methods import learned_for

    return learned_for(ctx)


def _table_learned(ctx: MethodContext) -> BenchMethod:
    from authorag.priors import load_prior
    from authorag.tiers.hybrid import HybridAuthority

    exclude = excluded_sources(ctx)
    table = load_prior(exclude=exclude)
    learned = learned_scorer(ctx)
    scorer = HybridAuthority(table, learned, None, calibration=None, unknown_level=None)
    return ScorerMethod("table-learned", scorer, credibility_weight=option_credibility_weight(ctx),
                        signal=_signal(ctx), extra_info={
        "excluded_sources": list(exclude), "active_sources": list(table.source_names),
        "learned_sources": list(learned.meta.get("sources", [])), "unknown_level": None})


def parse_settings(variant: str, settings_type: Any, label: str = "default") -> dict[str, object]:
    """``learned=true,hosted_authority=0.2`` → ScorerSettings overrides (typed; unknown names rejected).

    Example:
        >>> from dataclasses import dataclass
        >>> @dataclass
        ... class S:
        ...     learned: bool = False
        ...     hosted_authority: float = 0.3
        >>> parse_settings("learned=true,hosted_authority=0.2", S)
        {'learned': True, 'hosted_authority': 0.2}
    """
    from authorag.settings import read_variant

    return read_variant(variant, settings_type, where=f"{label}:{variant}", what="ScorerSettings field",
                        exclude=("exclude_sources",), note=" (exclude_sources is set by the task)")


def default_scorer(exclude_sources: Sequence[str], settings: Mapping[str, object] | None = None,
                   mbfc_derived: bool = False) -> AuthorityScorer:
    """THE HOOK for the composition methods: the one composition, leave-source-out.

    Calls ``authorag.compose.load_scorer(ScorerSettings(exclude_sources=...), **settings)``
    (ScorerSettings overrides, e.g. ``{"learned": True}``, as :func:`parse_settings` gives them).

    Raises:
        ConfigError: a bad setting.
    """
    from authorag.compose import ScorerSettings, load_scorer

    overrides = dict(settings or {})
    if mbfc_derived and "learned_tail" not in overrides:  # CRED-1 derives from MBFC: never train on it here
        from authorag.priors.learned.tail_data import DEFAULT_TAIL, tail_sources_without

        overrides["learned_tail"] = tail_sources_without(DEFAULT_TAIL, "mbfc")
    return load_scorer(ScorerSettings(exclude_sources=tuple(exclude_sources)), **overrides)


def track_specs() -> tuple[MethodSpec, ...]:
    """Registry entries of this module."""
    return (
        MethodSpec("table-const", _table_const, ("domain", "document"), False,
                   "prior table, unknown sources at the reranker's constant (what the reranker fuses)"),
        MethodSpec("table-learned", _table_learned, ("domain", "document"), False,
                   "prior table → learned prior, no shrinkage (both leave-source-out)"),
    )


def method_scorer(method: BenchMethod) -> AuthorityScorer:
    """The AuthorityScorer behind a pointwise method (for the rerank-mode evaluation).

    Raises:
        ConfigError: the method is not backed by an AuthorityScorer (oracle, random, tables).
    """
    if not isinstance(method, ScorerMethod):
        raise ConfigError(f"method {method.name!r} has no AuthorityScorer to rerank with; use a prior, hybrid, "
                          "table-const, table-learned or default method")
    return method.scorer
