"""The LLM backend protocol. Judges build :class:`ChatRequest`s; backends answer them.

Judges never know which backend runs them: the embedded xllamacpp model and any
OpenAI-compatible server both return a :class:`Completion` with text and, where available,
per-token top logprobs.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable


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
        temperature: sampling temperature (0 = greedy).
        seed: sampling seed.
        prompt_version: the judge prompt's version; part of the cache key, never sent to a server.
        constrained_probs: with ``logprobs``, ask llama.cpp servers for the token distribution
            *after* the grammar (``post_sampling_probs``; sampling then runs at temperature 1
            with top-k/top-p/min-p off, so ``top`` covers every allowed token, e.g. all ten
            digits, and the text is a seeded sample). Without it llama.cpp reports the raw
            distribution, whose top entries may be words the grammar forbids. Servers that
            reject it get the plain request (see ``Completion.dropped_features``).
        accept: the judge's check that an answer is usable (it can read a score from it). The
            judge cache stores and answers only completions it accepts, so an answer the judge
            could not use is asked again next time. Never sent; not part of the cache key.
    """

    messages: Sequence[Mapping[str, str]]
    max_tokens: int = 16
    grammar: str | None = None
    json_schema: Mapping[str, Any] | None = None
    logprobs: bool = False
    top_logprobs: int = 20
    temperature: float = 0.0
    seed: int = 0
    prompt_version: str = ""
    constrained_probs: bool = False
    accept: Callable[[Completion], bool] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TokenLogprob:
    """One generated token, its logprob, and the top alternatives at that position."""

    token: str
    logprob: float
    top: Mapping[str, float] = field(default_factory=dict)


#: Optional request features a server may reject; backends drop them and say so.
Feature = Literal["constrained_probs", "grammar", "json_schema", "logprobs"]
#: In the order a backend drops them when a server refuses a request.
FEATURES: tuple[Feature, ...] = ("constrained_probs", "json_schema", "grammar", "logprobs")


@dataclass(frozen=True, slots=True)
class Completion:
    """A backend's answer plus its cost.

    Attributes:
        text: the generated text.
        logprobs: one entry per generated token when logprobs were asked for and returned.
        prompt_tokens, completion_tokens: usage reported by the backend.
        latency_s: wall time of the call (of the cache lookup when ``cached``).
        model: the model that answered.
        cached: True when the answer came from the judge cache.
        dropped_features: request features the server rejected and the backend left out
            (e.g. ``("json_schema",)``); judges should then parse the text greedily.
        finish_reason: ``"stop"``, ``"length"`` ... as reported by the server ("" if unknown).
    """

    text: str
    logprobs: tuple[TokenLogprob, ...] | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    model: str = ""
    cached: bool = False
    dropped_features: tuple[Feature, ...] = ()
    finish_reason: str = ""


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
