"""LocalBackend (xllamacpp in-process) with the tiny SmolLM2-135M: shapes and formats only."""
from __future__ import annotations

import asyncio
import json
import math
import re
import sys
from pathlib import Path

import pytest

from authorag.errors import ConfigError, JudgeError, MissingDependencyError
from authorag.judges.backends import load_backend
from authorag.judges.backends.base import ChatRequest, LLMBackend
from authorag.judges.backends.local import LocalBackend, unload_all
from authorag.judges.backends.models import model_path

MESSAGES = [
    {"role": "system", "content": "Rate how authoritative a web domain is, 0 to 9."},
    {"role": "user", "content": "Domain: cdc.gov"},
]
DIGIT = "root ::= [0-9]"


@pytest.fixture(scope="module")
def smol() -> LocalBackend:
    return LocalBackend("smollm2-135m", n_ctx=1024, n_threads=1).load()


def test_is_an_llm_backend(smol: LocalBackend) -> None:
    assert isinstance(smol, LLMBackend)
    assert (smol.name, smol.model) == ("local", "smollm2-135m")
    assert smol.model_file == model_path("smollm2-135m")


def test_digit_with_logprobs(smol: LocalBackend) -> None:
    request = ChatRequest(messages=MESSAGES, max_tokens=1, grammar=DIGIT, logprobs=True,
                          top_logprobs=5)
    completion = smol.complete(request)
    assert re.fullmatch(r"[0-9]", completion.text)
    assert completion.logprobs is not None and len(completion.logprobs) == 1
    assert completion.logprobs[0].token == completion.text
    assert 2 <= len(completion.logprobs[0].top) <= 5
    assert completion.prompt_tokens > 10 and completion.completion_tokens == 1
    assert completion.model == "smollm2-135m" and completion.finish_reason in {"length", "stop"}


def test_constrained_probs_are_a_digit_distribution(smol: LocalBackend) -> None:
    request = ChatRequest(messages=MESSAGES, max_tokens=1, grammar=DIGIT, logprobs=True,
                          constrained_probs=True)
    first, again = smol.complete(request), smol.complete(request)
    assert first.logprobs is not None and sorted(first.logprobs[0].top) == list("0123456789")
    assert sum(math.exp(v) for v in first.logprobs[0].top.values()) == pytest.approx(1.0, abs=1e-3)
    assert again.text == first.text  # the sample is seeded


def test_json_schema(smol: LocalBackend) -> None:
    schema = {"type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]}
    completion = smol.complete(ChatRequest(messages=MESSAGES, max_tokens=30, json_schema=schema))
    assert isinstance(json.loads(completion.text)["score"], int)


def test_bad_grammar_is_a_judge_error(smol: LocalBackend) -> None:
    with pytest.raises(JudgeError, match=r"refused the request: .*grammar"):
        smol.complete(ChatRequest(messages=MESSAGES, max_tokens=1, grammar="root ::= ["))


async def test_async_calls(smol: LocalBackend) -> None:
    requests = [ChatRequest(messages=[MESSAGES[0], {"role": "user", "content": f"Domain: s{i}.org"}],
                            max_tokens=1, grammar=DIGIT) for i in range(3)]
    answers = await asyncio.gather(*(smol.acomplete(r) for r in requests))
    assert all(re.fullmatch(r"[0-9]", a.text) for a in answers)


def test_gguf_path_and_shared_instance(smol: LocalBackend) -> None:
    unload_all()
    by_path = LocalBackend(model_path("smollm2-135m"), n_ctx=1024, n_threads=1)
    assert by_path.model == "SmolLM2-135M-Instruct.Q4_1"
    request = ChatRequest(messages=MESSAGES, max_tokens=1, grammar=DIGIT)
    assert by_path.complete(request).text == smol.complete(request).text
    # both backends used one loaded model: one instance per (path, n_ctx, threads, slots)
    assert unload_all() == 1


def test_factory_builds_local_backend() -> None:
    backend = load_backend("local", model_path="smollm2-135m", n_ctx=1024, n_threads=1)
    assert isinstance(backend, LocalBackend)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_ctx": 8}, "n_ctx must be >= 64 tokens, got 8"),
        ({"n_threads": 0}, "n_threads must be >= 1, got 0"),
        ({"n_parallel": 0}, "n_parallel must be >= 1, got 0"),
        ({"model_path": "no-such-model"}, r"'no-such-model' is neither a registered model"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"model_path": "smollm2-135m", **kwargs}
    with pytest.raises(ConfigError, match=message):
        LocalBackend(**args)  # type: ignore[arg-type]


def test_not_a_gguf_file(tmp_path: Path) -> None:
    bogus = tmp_path / "model.gguf"
    bogus.write_bytes(b"not a model")
    with pytest.raises(JudgeError, match=r"could not load .*model.gguf"):
        LocalBackend(bogus, n_threads=1).load()


def test_missing_xllamacpp_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    with pytest.raises(MissingDependencyError, match=r"LocalBackend.*pip install 'authorag\[llm\]'"):
        LocalBackend("smollm2-135m")
