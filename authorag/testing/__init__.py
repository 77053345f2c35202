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
  :mod:`authorag.testing._faults`).

Example:
    >>> from authorag.judges.backends.base import ChatRequest
    >>> fake = FakeBackend(["7"])
    >>> fake.complete(ChatRequest(messages=[{"role": "user", "content": "x"}])).text
    '7'
"""
from __future__ import annotations

from authorag.testing._fake import FakeAnswer, FakeBackend, FakeScript, fake_completion
from authorag.testing._faults import FAULT_MODES, FaultMode, FaultServer, serve_faulty_openai
from authorag.testing._script import hash_opinion, judge_script
from authorag.testing._servers import free_port, serve_openai_compatible, wait_until_ready

__all__ = ["FAULT_MODES", "FakeAnswer", "FakeBackend", "FakeScript", "FaultMode", "FaultServer", "fake_completion",
           "free_port", "hash_opinion", "judge_script", "serve_faulty_openai", "serve_openai_compatible",
           "wait_until_ready"]
