"""The benchmark method registry: every method name -> its :class:`MethodSpec`.

Built-in methods live in :mod:`authorag.benchmarks.methods`, the LLM-judge methods in
:mod:`authorag.benchmarks.judge_methods`; this module joins them, so neither imports the other
backwards (judge_methods builds on methods, never the reverse).

Example:
    >>> from authorag.benchmarks.methods import MethodContext
    >>> build_method("oracle", MethodContext(task_family="domainauth", label_source=None)).name
    'oracle'
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from authorag.benchmarks.judge_methods import judge_specs
from authorag.benchmarks.methods import BASE_SPECS, BenchMethod, MethodContext, MethodSpec
from authorag.errors import ConfigError


def _registry() -> dict[str, MethodSpec]:
    return {s.name: s for s in (*BASE_SPECS, *judge_specs())}


def method_specs() -> Mapping[str, MethodSpec]:
    """Every registered method (built-ins plus judge entries)."""
    return MappingProxyType(_registry())


def build_method(name: str, ctx: MethodContext) -> BenchMethod:
    """Build method ``name`` for ``ctx``; raises ConfigError listing the known names."""
    specs = _registry()
    spec = specs.get(name)
    if spec is None:
        raise ConfigError(f"unknown method {name!r}; known methods: {', '.join(specs)}")
    if spec.needs_backend and ctx.backend is None:
        raise ConfigError(f"method {name!r} is an LLM judge and needs --backend (local, openai or fake)")
    return spec.factory(ctx)


__all__ = ["build_method", "method_specs"]
