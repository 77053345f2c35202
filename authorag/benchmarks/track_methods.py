"""Methods for choosing the default composition: table-const, table-learned, default.

All of them score with the reranker's own policy defaults, so a benchmark measures what
:class:`~authorag.rerankers.authority.AuthorityReranker` fuses:

* an unknown source is ``None`` here and every protocol fills it with ``UNKNOWN_FILL`` =
  ``DEFAULT_UNKNOWN_AUTHORITY`` (0.3), the value the reranker uses;
* the signal is :func:`~authorag.rerankers.authority.authority_signal` with the reranker's
  ``DEFAULT_CREDIBILITY_WEIGHT`` (override with ``--option credibility_weight=...``).

Methods (every one leave-source-out: the label source of the task is dropped from the table
and the learned prior is retrained without it):

* ``table-const``: the prior table (with its suffix rules); unknown sources at the constant.
* ``table-learned``: table → learned prior (``HybridAuthority`` without judge, no shrinkage:
  the learned value is used as it comes).
* ``default``: the one composition, ``authorag.compose.load_scorer(ScorerSettings(exclude_sources=...))``
  (see :func:`default_scorer`).
  A variant after a colon sets other ScorerSettings fields, so compositions can be compared in
  one table: ``default:learned=true``, ``default:hosted=false,reserved=false``.

Example:
    >>> from authorag.benchmarks.methods import MethodContext
    >>> from authorag.benchmarks.registry import build_method
    >>> from authorag.benchmarks.tasks import BenchItem
    >>> m = build_method("table-const", MethodContext(task_family="tailauth", label_source=None))
    >>> m.score([BenchItem("q", "https://zq-unknown-site-4412.biz/x", 0)])
    [None]
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, get_args

from authorag.benchmarks.methods import BenchMethod, MethodContext, MethodSpec, ScorerMethod
from authorag.errors import ConfigError
from authorag.priors.base import AuthorityScorer
from authorag.rerankers.authority import DEFAULT_CREDIBILITY_WEIGHT, RerankPolicy, Signal
from authorag.validation import check_choice


def _excluded(ctx: MethodContext) -> tuple[str, ...]:
    from authorag.benchmarks.methods import excluded_sources

    return excluded_sources(ctx)


def _cw(ctx: MethodContext) -> float:
    raw = ctx.option("credibility_weight", str(DEFAULT_CREDIBILITY_WEIGHT))
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"option credibility_weight must be a number, got {raw!r}") from None


def _signal(ctx: MethodContext, default: str = "blend") -> str:
    value = ctx.option("signal", default)
    check_choice("option signal", value, get_args(Signal))
    return value


def _table_const(ctx: MethodContext) -> BenchMethod:
    from authorag.priors import load_prior

    exclude = _excluded(ctx)
    table = load_prior(exclude=exclude)
    return ScorerMethod("table-const", table, credibility_weight=_cw(ctx), signal=_signal(ctx), extra_info={
        "excluded_sources": list(exclude), "active_sources": list(table.source_names),
        "unknown": "constant DEFAULT_UNKNOWN_AUTHORITY"})


def learned_scorer(ctx: MethodContext) -> Any:
    """The learned prior, retrained without the task's label source (and without CRED-1 for
    MBFC-derived tasks): :func:`authorag.benchmarks.methods.learned_for`."""
    from authorag.benchmarks.methods import learned_for

    return learned_for(ctx)


def _table_learned(ctx: MethodContext) -> BenchMethod:
    from authorag.hybrid import HybridAuthority
    from authorag.priors import load_prior

    exclude = _excluded(ctx)
    table = load_prior(exclude=exclude)
    learned = learned_scorer(ctx)
    scorer = HybridAuthority(table, learned, None, calibration=None, shrink_to=None)
    return ScorerMethod("table-learned", scorer, credibility_weight=_cw(ctx), signal=_signal(ctx), extra_info={
        "excluded_sources": list(exclude), "active_sources": list(table.source_names),
        "learned_sources": list(learned.meta.get("sources", [])), "shrink_to": None})


def _kind(annotation: object) -> str:
    """``"float"`` for ``float`` or the string annotation ``"float | None"``."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return text.removesuffix(" | None")


def parse_settings(variant: str, settings_type: Any) -> dict[str, object]:
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
    from authorag.compose import parse_value

    kinds = {f.name: _kind(f.type) for f in dataclasses.fields(settings_type)}
    out: dict[str, object] = {}
    for part in (p for p in variant.split(",") if p):
        key, sep, raw = part.partition("=")
        if not sep or key not in kinds or key == "exclude_sources":
            raise ConfigError(f"default:{variant}: {part!r} is not NAME=VALUE for a ScorerSettings field "
                              f"(exclude_sources is set by the task); fields: {', '.join(sorted(kinds))}")
        out[key] = parse_value(f"default:{variant}: setting {key}", raw, kinds[key], sep="+")
    return out


def default_scorer(exclude_sources: Sequence[str], variant: str = "",
                   mbfc_derived: bool = False) -> AuthorityScorer:
    """THE HOOK for the ``default`` method: the one composition, leave-source-out.

    Calls ``authorag.compose.load_scorer(ScorerSettings(exclude_sources=...), **overrides)``
    (overrides parsed from ``variant``, e.g. ``learned=true``).

    Raises:
        ConfigError: a bad variant.
    """
    from authorag.compose import ScorerSettings, load_scorer

    overrides = parse_settings(variant, ScorerSettings)
    if mbfc_derived and "learned_tail" not in overrides:  # CRED-1 derives from MBFC: never train on it here
        from authorag.priors.tail_data import DEFAULT_TAIL, tail_sources_without

        overrides["learned_tail"] = tail_sources_without(DEFAULT_TAIL, "mbfc")
    return load_scorer(ScorerSettings(exclude_sources=tuple(exclude_sources)), **overrides)


def _default(ctx: MethodContext) -> BenchMethod:
    exclude = _excluded(ctx)
    variant = ctx.option("compose", "")
    from authorag.benchmarks.methods import MBFC_DERIVED_FAMILIES

    from authorag.benchmarks.page_evidence import honest_scorer

    scorer = default_scorer(exclude, variant, mbfc_derived=ctx.task_family in MBFC_DERIVED_FAMILIES)
    scorer = honest_scorer(scorer, ctx.task_family)  # the page tier never scores pages it was trained on
    name = "default" + (f":{variant}" if variant else "")
    return ScorerMethod(name, scorer, credibility_weight=_cw(ctx), signal=_signal(ctx, RerankPolicy().signal),
                        extra_info={"excluded_sources": list(exclude), "composition": getattr(scorer, "name", "?"),
                                    "settings": variant})


def track_specs() -> tuple[MethodSpec, ...]:
    """Registry entries of this module."""
    return (
        MethodSpec("table-const", _table_const, ("domain", "document"), False,
                   "prior table, unknown sources at the reranker's constant (what the reranker fuses)"),
        MethodSpec("table-learned", _table_learned, ("domain", "document"), False,
                   "prior table → learned prior, no shrinkage (both leave-source-out)"),
        MethodSpec("default", _default, ("domain", "document"), False,
                   "the default composition authorag.compose.load_scorer (leave-source-out)"),
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
