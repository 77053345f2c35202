"""Composition methods: scorer settings + relevance + policy, written ``NAME[:key=value,...]``.

Three bases, each the default composition (:func:`authorag.compose.load_scorer`) with a policy:

* ``relevance-only``: linear fusion with authority weight 0 (the order relevance alone gives);
* ``today``: the reranker as it shipped before trust fusion (:data:`TODAY_POLICY`; prior sources
  pinned to :data:`TODAY_SOURCES`, so sources added to the default later are left out);
* ``default``: ``RerankPolicy()`` and ``ScorerSettings()`` as they are at run time.

After the colon, ``key=value`` pairs separated by commas. A key is a ScorerSettings field (the
composition; ``exclude_sources`` is set by the task), a RerankPolicy field (passed to
:func:`~authorag.make_policy` as it is, so fields added to the policy later work
without a change here), or ``relevance`` (pin one relevance: ``bm25``, ``rank``, ``dense``,
``upstream``; the tracks then report only it). Tuple values are joined with ``+``
(``default:deny=*.biz+*.info``).

Example:
    >>> spec = parse_method("default:fusion=rrf,weight=0.5,learned=true")
    >>> spec.base, spec.policy, spec.settings
    ('default', {'fusion': 'rrf', 'weight': 0.5}, {'learned': True})
    >>> parse_method("relevance-only").policy
    {'fusion': 'linear', 'weight': 0.0}
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from authorag.benchmarks.methods import (
    BenchMethod,
    MethodContext,
    MethodSpec,
    ScorerMethod,
    split_variant,
)
from authorag.errors import ConfigError
from authorag.policy import RerankPolicy
from authorag.priors.base import AuthorityScorer

COMPOSITIONS = ("relevance-only", "today", "default")
"""The method bases that take ``key=value`` settings."""
RELEVANCE_CHOICES = ("bm25", "rank", "dense", "cascade", "upstream", "similarity")
"""Relevance of the rerank tracks: BM25 over the texts, the input order, MiniLM cosine as the
reranker's dense scorer, the cascade (words for every page, MiniLM for the few the words cannot
place: :mod:`authorag.relevance.cascade`), and MiniLM cosine handed over as each document's upstream score, as
relevance ``upstream`` (scores of unknown kind) and as ``similarity`` (declared to judge meaning)."""
TODAY_POLICY: Mapping[str, Any] = {"signal": "blend", "fusion": "linear", "normalize": "minmax", "weight": 0.3,
                                   "credibility_weight": 0.5, "unknown_level": 0.3}
"""The policy the reranker shipped with before trust fusion (``signal`` is used once the field exists)."""
TODAY_SOURCES = ("ccnews_pagerank", "majestic", "moz", "wikipedia_perennial")
"""The default prior sources of that release."""
RELEVANCE_ONLY_POLICY: Mapping[str, Any] = {"fusion": "linear", "weight": 0.0}


@dataclass(frozen=True, slots=True)
class CompositionSpec:
    """A parsed composition method: base, ScorerSettings and policy overrides, pinned relevance."""

    base: str
    settings: dict[str, object] = field(default_factory=lambda: {})
    policy: dict[str, Any] = field(default_factory=lambda: {})
    relevance: str | None = None


def base_policy(base: str) -> dict[str, Any]:
    """The policy fields a base sets (``today``'s without the fields this release lacks)."""
    if base == "today":
        fields = {f.name for f in dataclasses.fields(RerankPolicy)}
        return {k: v for k, v in TODAY_POLICY.items() if k in fields}
    return dict(RELEVANCE_ONLY_POLICY) if base == "relevance-only" else {}


def parse_method(name: str) -> CompositionSpec:
    """``today:weight=0.5`` → :class:`CompositionSpec` (the variant's policy keys win over the base's).

    Raises:
        ConfigError: an unknown base, key or value, with the known names.
    """
    from authorag.benchmarks.tracks.methods import parse_settings
    from authorag.compose import ScorerSettings
    from authorag.settings import check_setting, field_kinds

    base, variant = split_variant(name)
    if base not in COMPOSITIONS:
        raise ConfigError(f"{name!r} is not a composition method; known: {', '.join(COMPOSITIONS)}")
    policy_kinds = field_kinds(RerankPolicy)
    scorer_parts: list[str] = []
    policy = base_policy(base)
    relevance: str | None = None
    for part in (p for p in variant.split(",") if p):
        key, sep, raw = part.partition("=")
        if sep and key == "relevance":
            if raw not in RELEVANCE_CHOICES:
                raise ConfigError(f"{name}: relevance must be one of {', '.join(RELEVANCE_CHOICES)}, got {raw!r}")
            relevance = raw
        elif sep and key in policy_kinds:
            policy[key] = check_setting(f"{name}: policy field {key}", raw, policy_kinds[key], text=True, sep="+")
        else:
            scorer_parts.append(part)
    try:
        settings = parse_settings(",".join(scorer_parts), ScorerSettings, label=base)
    except ConfigError as exc:
        raise ConfigError(f"{exc}; or a RerankPolicy field: {', '.join(sorted(policy_kinds))}; or relevance") from None
    from authorag.policy import make_policy

    try:
        make_policy(policy)  # a bad value fails here, before any track runs
    except ConfigError as exc:
        raise ConfigError(f"{name}: {exc}") from None
    return CompositionSpec(base, settings, policy, relevance)


def split_methods(raw: str) -> tuple[str, ...]:
    """A comma-separated method list whose compositions hold commas themselves.

    A piece with ``=`` but no ``:`` before its first ``=`` continues the previous method's settings.

    Example:
        >>> split_methods("relevance-only,today,default:fusion=rrf,weight=0.5,default")
        ('relevance-only', 'today', 'default:fusion=rrf,weight=0.5', 'default')
    """
    out: list[str] = []
    for piece in (p.strip() for p in raw.split(",")):
        if not piece or piece == "none":
            continue
        key, sep, _ = piece.partition("=")
        if sep and ":" not in key:
            if not out:
                raise ConfigError(f"method list {raw!r} starts with a setting {piece!r}; put the method first "
                                  "(default:weight=0.5)")
            out[-1] += "," + piece
        else:
            out.append(piece)
    return tuple(out)


def today_exclusions() -> tuple[str, ...]:
    """Default prior sources that were not default in :data:`TODAY_SOURCES`'s release."""
    from authorag.priors.sources import SOURCES

    return tuple(n for n, s in SOURCES.items() if not s.optin and n not in TODAY_SOURCES)


def composition_scorer(spec: CompositionSpec, exclude_sources: Sequence[str],
                       mbfc_derived: bool = False) -> AuthorityScorer:
    """The spec's authority scorer, leave-source-out (:func:`~authorag.benchmarks.tracks.methods.default_scorer`)."""
    from authorag.benchmarks.tracks.methods import default_scorer

    exclude = tuple(exclude_sources)
    if spec.base == "today":
        exclude += tuple(n for n in today_exclusions() if n not in exclude)
    return default_scorer(exclude, spec.settings, mbfc_derived=mbfc_derived)


def composition_method(name: str, ctx: MethodContext) -> BenchMethod:
    """Build composition method ``name`` for ``ctx`` (leave-source-out; the policy's
    ``credibility_weight`` defaults to ``ctx``'s option, as for every other method)."""
    from authorag.benchmarks.methods import MBFC_DERIVED_FAMILIES
    from authorag.benchmarks.tracks.methods import excluded_sources, option_credibility_weight
    from authorag.policy import make_policy

    spec = parse_method(name)
    exclude = excluded_sources(ctx)
    from authorag.benchmarks.page_evidence.crossfit import honest_scorer

    scorer = composition_scorer(spec, exclude, mbfc_derived=ctx.task_family in MBFC_DERIVED_FAMILIES)
    scorer = honest_scorer(scorer, ctx.task_family)  # the page tier never scores pages it was trained on
    policy = make_policy({"credibility_weight": option_credibility_weight(ctx), **spec.policy})
    return ScorerMethod(name, scorer, policy=policy, relevance=spec.relevance, extra_info={
        "excluded_sources": list(exclude), "composition": getattr(scorer, "name", "?"),
        "settings": split_variant(name)[1], "policy": policy.to_dict(), "relevance": spec.relevance,
        "pinned_out_sources": list(today_exclusions()) if spec.base == "today" else []})


def _composition(base: str, ctx: MethodContext) -> BenchMethod:
    """A composition method: ``base`` plus the variant the registry put in ``ctx.options["compose"]``."""
    variant = ctx.option("compose", "")
    return composition_method(base + (f":{variant}" if variant else ""), ctx)


def composition_specs() -> tuple[MethodSpec, ...]:
    """Registry entries of this module: the compositions, which take settings after a colon."""
    return (
        MethodSpec("default", lambda ctx: _composition("default", ctx), ("domain", "document"), False,
                   "the default composition authorag.compose.load_scorer with RerankPolicy() (leave-source-out)"),
        MethodSpec("today", lambda ctx: _composition("today", ctx), ("domain", "document"), False,
                   "the reranker as shipped before trust fusion: its policy and prior sources"),
        MethodSpec("relevance-only", lambda ctx: _composition("relevance-only", ctx), ("domain", "document"), False,
                   "the default composition with authority weight 0 (relevance alone)"),
    )


@dataclass(frozen=True, slots=True)
class RerankSetup:
    """What the rerank tracks hand to :func:`authorag.adapters.build_reranker`."""

    name: str
    scorer: AuthorityScorer
    policy: RerankPolicy
    relevance: str | None


def rerank_setup(method: BenchMethod) -> RerankSetup:
    """The scorer, policy and pinned relevance of a pointwise method.

    Raises:
        ConfigError: the method has no AuthorityScorer (oracle, random, reference tables).
    """
    if not isinstance(method, ScorerMethod):
        raise ConfigError(f"method {method.name!r} has no AuthorityScorer to rerank with; the rerank tracks take "
                          f"{', '.join(COMPOSITIONS)} (with settings) or a prior, hybrid or table method")
    return RerankSetup(method.name, method.scorer, method.policy, method.relevance)
