"""The scripted fake LLM backend (the ``"fake"`` entry of the judge backend registry) and
:func:`fake_completion`, a Completion with top logprobs built from plain probabilities."""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence

from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends.base import ChatRequest, Completion, TokenLogprob
from authorag.testing._script import judge_script

#: What a script step may be: plain text, a ready Completion, or an exception to raise.
FakeAnswer = str | Completion | BaseException
FakeScript = Sequence[FakeAnswer] | Callable[[ChatRequest], FakeAnswer]


def fake_completion(
    text: str,
    top: Mapping[str, float] | Sequence[Mapping[str, float]] | None = None,
    *,
    model: str = "fake-model",
) -> Completion:
    """Build a Completion whose tokens carry top alternatives given as probabilities.

    ``top`` is one mapping (for a one-token answer) or one mapping per token; each maps a
    token to its probability (converted to natural-log logprobs). The chosen token of each
    position is the character of ``text`` at that position (one-token answers: ``text``).

    Example:
        >>> c = fake_completion("7", {"7": 0.6, "8": 0.4})
        >>> round(c.logprobs[0].top["8"], 3)
        -0.916
    """
    if top is None:
        return Completion(text=text, model=model, completion_tokens=1)
    steps = [top] if isinstance(top, Mapping) else list(top)
    tokens = [text] if len(steps) == 1 else list(text)
    if len(tokens) != len(steps):
        raise ConfigError(
            f"fake_completion got {len(steps)} logprob steps for text {text!r}; give one "
            "mapping per character, or a single mapping for a one-token answer"
        )
    logprobs = tuple(
        TokenLogprob(
            token=tok,
            logprob=_log(step.get(tok, 0.0)),
            top={k: _log(p) for k, p in step.items()},
        )
        for tok, step in zip(tokens, steps, strict=True)
    )
    return Completion(text=text, logprobs=logprobs, completion_tokens=len(tokens), model=model)


def _log(p: float) -> float:
    return math.log(p) if p > 0 else -math.inf


class FakeBackend:
    """A scripted LLM backend that records requests.

    Args:
        script: a list of answers used in order (a str, a Completion, or an exception to
            raise), or a callable ``request -> answer``; None: :func:`judge_script` (every
            judge prompt answered from a hash of each item, as ``load_backend("fake")`` does).
        name: backend name (goes into cache keys).
        model: model name reported in completions.

    Raises:
        JudgeError: when a list script is exhausted.

    Example:
        >>> fake = FakeBackend(lambda req: "A" if "first" in req.messages[-1]["content"] else "B")
        >>> fake.complete(ChatRequest(messages=[{"role": "user", "content": "first?"}])).text
        'A'
        >>> len(fake.requests)
        1
    """

    def __init__(
        self, script: FakeScript | None = None, *, name: str = "fake", model: str = "fake-model"
    ) -> None:
        self.name = name
        self.model = model
        self.requests: list[ChatRequest] = []
        self._script: FakeScript = judge_script() if script is None else script
        self._next = 0
        self._lock = threading.Lock()

    def complete(self, request: ChatRequest) -> Completion:
        """Answer from the script (records the request first)."""
        with self._lock:
            self.requests.append(request)
            answer = self._answer(request)
        if isinstance(answer, BaseException):
            raise answer
        if isinstance(answer, Completion):
            return answer
        return Completion(text=answer, model=self.model, completion_tokens=1)

    async def acomplete(self, request: ChatRequest) -> Completion:
        """Async twin of :meth:`complete`."""
        return self.complete(request)

    def _answer(self, request: ChatRequest) -> FakeAnswer:
        if callable(self._script):
            return self._script(request)
        if self._next >= len(self._script):
            raise JudgeError(
                f"FakeBackend script exhausted after {len(self._script)} answers; "
                "give more answers or a callable script"
            )
        answer = self._script[self._next]
        self._next += 1
        return answer


__all__ = ["FakeAnswer", "FakeBackend", "FakeScript", "fake_completion"]
