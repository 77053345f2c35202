"""The LLM backend protocol. Judges build :class:`ChatRequest`s; backends answer them.

Judges never know which backend runs them: the embedded xllamacpp model and any
OpenAI-compatible server both return a :class:`Completion` with text and, where available,
per-token top logprobs.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One chat completion request (temperature 0 by default: judges are deterministic).

    Attributes:
        messages: OpenAI-style ``[{"role": ..., "content": ...}]``.
        max_tokens: completion budget.
        grammar: optional GBNF grammar (llama.cpp servers and the embedded backend).
        json_schema: optional JSON schema for structured output.
        logprobs: ask for token logprobs.
        top_logprobs: alternatives per position when ``logprobs`` is set.
    """

    messages: Sequence[Mapping[str, str]]
    max_tokens: int = 16
    grammar: str | None = None
    json_schema: Mapping[str, Any] | None = None
    logprobs: bool = False
    top_logprobs: int = 20
    temperature: float = 0.0
    seed: int = 0


@dataclass(frozen=True, slots=True)
class TokenLogprob:
    """One generated token, its logprob, and the top alternatives at that position."""

    token: str
    logprob: float
    top: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Completion:
    """A backend's answer plus its cost."""

    text: str
    logprobs: tuple[TokenLogprob, ...] | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    model: str = ""
    cached: bool = False


@runtime_checkable
class LLMBackend(Protocol):
    """Runs chat requests. ``name`` and ``model`` go into cache keys and result records."""

    name: str
    model: str

    def complete(self, request: ChatRequest) -> Completion:
        """Answer one request (blocking)."""
        ...

    async def acomplete(self, request: ChatRequest) -> Completion:
        """Answer one request (async)."""
        ...
