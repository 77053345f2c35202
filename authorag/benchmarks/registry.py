"""The benchmark registries: every method name -> its :class:`MethodSpec`, every task name -> its builder.

Built-in methods live in :mod:`authorag.benchmarks.methods`, the track methods in
:mod:`authorag.benchmarks.tracks.methods`, the compositions in
:mod:`authorag.benchmarks.tracks.rerank_methods`, the LLM-judge methods in
:mod:`authorag.benchmarks.judge_methods`; this module joins them, so none imports another
backwards (track, composition and judge methods build on methods, compositions on track
methods, never the reverse). Likewise the ranking
tasks of :mod:`authorag.benchmarks.tasks` and the comparison tracks of
:mod:`authorag.benchmarks.tracks.tasks` are joined here (:func:`load_task`, :func:`task_names`).

Example:
    >>> from authorag.benchmarks.methods import MethodContext
    >>> build_method("oracle", MethodContext(task_family="domainauth", label_source=None)).name
    'oracle'
    >>> task = load_task("domainauth-news-fine")
    >>> task.n_levels, task.label_source
    (10, 'ccnews_pagerank')
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType

from authorag.benchmarks.judge_methods import judge_specs
from authorag.benchmarks.methods import (
    BASE_SPECS,
    BenchMethod,
    MethodContext,
    MethodSpec,
    split_variant,
)
from authorag.benchmarks.tasks import TASK_BUILDERS, RankTask
from authorag.benchmarks.tracks.methods import track_specs
from authorag.benchmarks.tracks.rerank_methods import COMPOSITIONS, composition_specs
from authorag.benchmarks.tracks.tasks import hosted_task, tail_task
from authorag.benchmarks.tracks.trust_data import MULTI_SETS
from authorag.errors import ConfigError


def _registry() -> dict[str, MethodSpec]:
    return {s.name: s for s in (*BASE_SPECS, *track_specs(), *composition_specs(), *judge_specs())}


def method_specs() -> Mapping[str, MethodSpec]:
    """Every registered method (built-ins plus judge entries)."""
    return MappingProxyType(_registry())


def build_method(name: str, ctx: MethodContext) -> BenchMethod:
    """Build method ``name`` for ``ctx``; raises ConfigError listing the known names.

    Only the compositions (``relevance-only``, ``today``, ``default``) take a variant after a
    colon (``default:learned=true,weight=0.7``): ScorerSettings and RerankPolicy fields (see
    :mod:`authorag.benchmarks.tracks.rerank_methods`).
    """
    specs = _registry()
    base, variant = split_variant(name)
    spec = specs.get(base)
    if spec is None:
        raise ConfigError(f"unknown method {name!r}; known methods: {', '.join(specs)}")
    if variant and base not in COMPOSITIONS:
        raise ConfigError(f"only the compositions ({', '.join(COMPOSITIONS)}) take settings after a colon, "
                          f"got {name!r}")
    if spec.needs_backend and ctx.backend is None:
        raise ConfigError(f"method {name!r} is an LLM judge and needs --backend (local, openai or fake)")
    if variant:
        ctx = dataclasses.replace(ctx, options=MappingProxyType({**ctx.options, "compose": variant}))
    return spec.factory(ctx)


_TASKS: Mapping[str, Callable[[], RankTask]] = MappingProxyType({
    **TASK_BUILDERS, "tail-trec2019": tail_task, "hosted-urls": hosted_task})

RAG_TASKS = ("ragauth-trec2019", "ragauth-trec2019-resampled")
RERANK_TASKS = ("trust-pairs", "no-harm-pairs", "no-harm-hard", "no-harm-lists", "graded-trec2019", *MULTI_SETS)
"""Tasks that rerank with a method's scorer and policy (:mod:`authorag.benchmarks.tracks.rerank`)."""


def task_names() -> list[str]:
    """Every task name: ranking tasks then RAG tasks."""
    return [*_TASKS, *RAG_TASKS]


@cache
def load_task(name: str) -> RankTask:
    """Build (and cache) the ranking task ``name``; raises ConfigError listing the known names."""
    builder = _TASKS.get(name)
    if builder is None:
        raise ConfigError(f"unknown ranking task {name!r}; known tasks: {', '.join(_TASKS)}"
                          + (" (RAG tasks are loaded with load_rag_task)" if name in RAG_TASKS else ""))
    return builder()


__all__ = ["RAG_TASKS", "RERANK_TASKS", "build_method", "load_task", "method_specs", "task_names"]
