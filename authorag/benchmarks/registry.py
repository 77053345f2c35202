"""The benchmark method registry: every method name -> its :class:`MethodSpec`.

Built-in methods live in :mod:`authorag.benchmarks.methods`, the track methods in
:mod:`authorag.benchmarks.track_methods`, the LLM-judge methods in
:mod:`authorag.benchmarks.judge_methods`; this module joins them, so none imports another
backwards (track and judge methods build on methods, never the reverse).

Example:
    >>> from authorag.benchmarks.methods import MethodContext
    >>> build_method("oracle", MethodContext(task_family="domainauth", label_source=None)).name
    'oracle'
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from authorag.benchmarks.judge_methods import judge_specs
from authorag.benchmarks.methods import (
    BASE_SPECS,
    BenchMethod,
    MethodContext,
    MethodSpec,
    split_variant,
)
from authorag.benchmarks.rerank_methods import COMPOSITIONS
from authorag.benchmarks.track_methods import track_specs
from authorag.errors import ConfigError


def _registry() -> dict[str, MethodSpec]:
    return {s.name: s for s in (*BASE_SPECS, *track_specs(), *judge_specs())}


def method_specs() -> Mapping[str, MethodSpec]:
    """Every registered method (built-ins plus judge entries)."""
    return MappingProxyType(_registry())


def build_method(name: str, ctx: MethodContext) -> BenchMethod:
    """Build method ``name`` for ``ctx``; raises ConfigError listing the known names.

    Only the compositions (``relevance-only``, ``today``, ``default``) take a variant after a
    colon (``default:learned=true,weight=0.7``): ScorerSettings and RerankPolicy fields (see
    :mod:`authorag.benchmarks.rerank_methods`).
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


__all__ = ["build_method", "method_specs"]
