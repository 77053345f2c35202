"""LLM backends for the judges: one protocol, one registry, one factory.

- ``"local"``: :class:`LocalBackend`, llama.cpp in-process via xllamacpp (default model
  Qwen2.5-Coder-1.5B-Instruct from ``authorag[model]``).
- ``"openai"``: :class:`OpenAIBackend`, any OpenAI-compatible server (vLLM, Ollama,
  llama.cpp server, OpenAI).
- ``"fake"``: :class:`authorag.testing.FakeBackend`, a scripted model for tests and
  ``authorag bench --backend fake`` (no model, no network).

A registry entry names its class by import path (``module:Class``) and imports it when the
backend is built, so the registry lists the test support's fake without importing it.

Example:
    >>> load_backend("local", model_path="smollm2-135m", n_ctx=2048)  # loads on first call
    LocalBackend(model='smollm2-135m', n_ctx=2048)
    >>> load_backend("openai", base_url="http://127.0.0.1:8080/v1", model="qwen")
    OpenAIBackend(base_url='http://127.0.0.1:8080/v1', model='qwen')
"""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from authorag.errors import ConfigError
from authorag.judges.backends.base import (
    FEATURES,
    ChatRequest,
    Completion,
    Feature,
    LLMBackend,
    TokenLogprob,
)
from authorag.judges.backends.cache import CachedBackend, CompletionCache
from authorag.judges.backends.cache_redis import open_cache
from authorag.judges.backends.local import LocalBackend
from authorag.judges.backends.models import DEFAULT_MODEL, MODELS, model_path
from authorag.judges.backends.openai_compat import OpenAIBackend

BackendName = Literal["local", "openai", "fake"]


@dataclass(frozen=True, slots=True)
class BackendInfo:
    """One registered backend: its class (as ``module:Class``), the extra it needs (None: none)
    and what it is for."""

    name: str
    target: str
    extra: str | None
    description: str

    def load(self) -> type[Any]:
        """The backend class (its module is imported on the first call)."""
        module, _, cls = self.target.partition(":")
        loaded: type[Any] = getattr(importlib.import_module(module), cls)
        return loaded


BACKENDS: dict[str, BackendInfo] = {
    "local": BackendInfo("local", "authorag.judges.backends.local:LocalBackend", "llm",
                         "llama.cpp in-process (xllamacpp); GGUF path or registered model"),
    "openai": BackendInfo("openai", "authorag.judges.backends.openai_compat:OpenAIBackend", "llm",
                          "any OpenAI-compatible HTTP server (vLLM, Ollama, llama.cpp, OpenAI)"),
    "fake": BackendInfo("fake", "authorag.testing:FakeBackend", None,
                        "a scripted model for tests: every judge prompt answered from a hash of each item"),
}


def load_backend(
    name: BackendName,
    *,
    cache: CompletionCache | str | Path | bool | None = None,
    **kwargs: Any,
) -> LLMBackend:
    """Build a registered backend, optionally behind a persistent judge cache.

    Args:
        name: ``"local"``, ``"openai"`` or ``"fake"``.
        cache: None/False (no cache), True (the default cache file), a path or ``":memory:"``,
            a Redis URL (``redis://host:6379/0``), or a cache object (see
            :func:`authorag.judges.backends.cache_redis.open_cache`).
        **kwargs: the backend class's arguments.

    Raises:
        ConfigError: unknown name or arguments the backend does not take.
        MissingDependencyError: the backend's extra is not installed.

    Example:
        >>> load_backend("gpt")
        Traceback (most recent call last):
        ...
        authorag.errors.ConfigError: unknown backend 'gpt'; choose one of ['fake', 'local', 'openai']
    """
    info = BACKENDS.get(name)
    if info is None:
        raise ConfigError(f"unknown backend {name!r}; choose one of {sorted(BACKENDS)}")
    cls = info.load()
    try:
        inspect.signature(cls).bind(**kwargs)
    except TypeError as exc:
        allowed = [p for p in inspect.signature(cls).parameters if p != "self"]
        raise ConfigError(
            f"bad arguments {sorted(kwargs)} for backend {name!r}: {exc}; its parameters are "
            f"{allowed}"
        ) from exc
    backend: LLMBackend = cls(**kwargs)
    if cache is None or cache is False:
        return backend
    return CachedBackend(backend, open_cache(cache))


__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL",
    "FEATURES",
    "MODELS",
    "BackendInfo",
    "BackendName",
    "ChatRequest",
    "Completion",
    "Feature",
    "LLMBackend",
    "LocalBackend",
    "OpenAIBackend",
    "TokenLogprob",
    "load_backend",
    "model_path",
]
