"""Test helpers shipped with authorag: fakes at the process boundary only.

- :class:`FakeBackend`: a scripted :class:`~authorag.judges.backends.base.LLMBackend` that
  records every request (for unit tests of judges; no model, no network).
- :func:`fake_completion`: build a :class:`Completion` with per-token top logprobs from plain
  probabilities.
- :func:`judge_script`: a fake model that reads any judge prompt and answers it in the format
  the prompt asks for, from an opinion of each item shown (:func:`hash_opinion`: a
  deterministic, knowledge-free one used by ``authorag bench --backend fake``).
- :func:`serve_openai_compatible`: start a real OpenAI-compatible HTTP server on loopback
  (xllamacpp's embedded llama.cpp server) for integration tests of the OpenAI backend.
- :func:`free_port` and :func:`wait_until_ready`: start a server on a free loopback port and wait
  for it (tests, soak and speed scripts).
- :func:`serve_faulty_openai`: a small OpenAI-compatible server on loopback that fails on
  purpose (hang, slow, 429 + Retry-After, 500/503, garbage, truncated, wrong ids, huge output,
  missing logprobs, ...) for tests of timeouts, retries and fall-backs (see
  :mod:`authorag._faults`).

Example:
    >>> from authorag.judges.backends.base import ChatRequest
    >>> fake = FakeBackend(["7"])
    >>> fake.complete(ChatRequest(messages=[{"role": "user", "content": "x"}])).text
    '7'
"""
from __future__ import annotations

import gc
import hashlib
import logging
import math
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from authorag._faults import FAULT_MODES, FaultMode, FaultServer, serve_faulty_openai
from authorag._optional import require
from authorag.errors import ConfigError, JudgeError
from authorag.judges.backends.base import ChatRequest, Completion, TokenLogprob

logger = logging.getLogger(__name__)

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
            raise), or a callable ``request -> answer``.
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
        self, script: FakeScript, *, name: str = "fake", model: str = "fake-model"
    ) -> None:
        self.name = name
        self.model = model
        self.requests: list[ChatRequest] = []
        self._script = script
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


@contextmanager
def serve_openai_compatible(
    model_path: str | Path,
    port: int = 0,
    *,
    n_ctx: int = 2048,
    n_threads: int = 1,
    n_parallel: int = 1,
    startup_timeout_s: float = 60.0,
) -> Generator[str]:
    """Run a real OpenAI-compatible server (xllamacpp) on 127.0.0.1; yield its ``/v1`` URL.

    The server runs inside this process and stops when the block exits.

    Args:
        model_path: a GGUF file.
        port: TCP port on 127.0.0.1 (0 picks a free one).
        n_ctx, n_threads, n_parallel: llama.cpp context size, CPU threads and parallel slots
            (one thread by default: on a busy CI machine, more threads spin and run slower).
        startup_timeout_s: how long to wait for ``/v1/models`` to answer.

    Raises:
        MissingDependencyError: xllamacpp is not installed.
        JudgeError: the server does not come up in time.

    Example:
        >>> from authorag.judges.backends.models import model_path
        >>> with serve_openai_compatible(model_path("smollm2-135m")) as base_url:  # doctest: +SKIP
        ...     print(base_url)
        http://127.0.0.1:40123/v1
    """
    xl = require("xllamacpp", extra="llm", feature="serve_openai_compatible")
    params = xl.CommonParams()
    params.model.path = str(model_path)
    params.n_ctx = n_ctx
    params.n_parallel = n_parallel
    params.cpuparams.n_threads = n_threads
    params.cpuparams_batch.n_threads = n_threads
    params.verbosity = 0
    params.port = port
    server = xl.Server(params)
    try:
        base_url = str(server.listening_address).rstrip("/") + "/v1"
        try:
            wait_until_ready(base_url + "/models", timeout_s=startup_timeout_s)
        except RuntimeError as exc:
            raise JudgeError(f"the test server did not come up: {exc}") from None
        logger.info("OpenAI-compatible test server on %s", base_url)
        yield base_url
    finally:
        del server
        gc.collect()  # the native server stops listening when the object is freed


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port on ``host`` that nothing listens on right now (for servers started by tests)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def wait_until_ready(url: str, *, timeout_s: float = 60.0, process: subprocess.Popen[bytes] | None = None,
                     interval_s: float = 0.1) -> None:
    """Poll ``url`` until it answers HTTP 200 (e.g. a server's ``/readyz``).

    Raises:
        RuntimeError: ``process`` exited first (its exit code and piped stderr in the message), or
            ``timeout_s`` passed (with the last error seen).
    """
    deadline = time.monotonic() + timeout_s
    last = "no answer"
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2.0) as resp:
                if resp.status == 200:
                    return
                last = f"HTTP {resp.status}"
        except (urllib.error.URLError, OSError) as exc:
            last = str(exc)
        if process is not None and process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise RuntimeError(f"the server for {url} exited with code {process.returncode} before it was ready: {err}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server at {url} did not answer within {timeout_s} s: {last}")
        time.sleep(interval_s)


_ITEM_LINE = re.compile(r"^\[(\w+)\] (.+)$", re.MULTILINE)


def hash_opinion(text: str) -> int:
    """A digit 0-9 from the SHA-256 of ``text``: the same item always gets the same opinion."""
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 10


def judge_script(opinion: Callable[[str], int] = hash_opinion) -> Callable[[ChatRequest], str]:
    """A scripted model for every judge prompt: point, pair, list, RAG yes/no.

    Items shown as ``[id] ...`` lines get ``opinion(line)``; a point prompt shows one item
    without an id (its last line). The answer follows the format the prompt asks for: a digit,
    ``A``/``B``, ``[i] > [j]``, ``[i]: d`` or ``A: d`` lines, or ``yes``/``no`` (odd opinion of
    the whole prompt) for the RAG generator. Use it as ``FakeBackend(judge_script(...))``.

    Example:
        >>> truth = {"nih.gov": 9, "blog.example": 2}
        >>> model = judge_script(lambda line: truth[line.split("Domain: ")[1].split()[0]])
        >>> prompt = "\\n".join(["Answer with a single letter A or B.",
        ...                      "[A] Domain: blog.example", "[B] Domain: nih.gov"])
        >>> model(ChatRequest(messages=[{"role": "user", "content": prompt}]))
        'B'
    """
    def answer(request: ChatRequest) -> str:
        content = request.messages[-1]["content"]
        if content.rstrip().endswith("Answer yes or no."):
            return "yes" if opinion(content) % 2 else "no"
        items = [(m.group(1), opinion(m.group(2))) for m in _ITEM_LINE.finditer(content)]
        if not items:
            return str(opinion(content.strip().splitlines()[-1]))
        if len(items) == 1:
            return str(items[0][1])
        if "single letter A or B" in content or '{"answer": "A"}' in content:
            return "A" if items[0][1] >= items[1][1] else "B"
        if '" > "' in content or '"ranking"' in content:
            return " > ".join(f"[{i}]" for i, _ in sorted(items, key=lambda t: -t[1]))
        bracket = "[i]:" in content
        return "\n".join(f"[{i}]: {d}" if bracket else f"{i}: {d}" for i, d in items)

    return answer


__all__ = ["FAULT_MODES", "FakeAnswer", "FakeBackend", "FakeScript", "FaultMode", "FaultServer", "fake_completion",
           "free_port", "hash_opinion", "judge_script", "serve_faulty_openai", "serve_openai_compatible",
           "wait_until_ready"]
