"""load_backend registry and the backend modules' docstring examples."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.judges.backends import BACKENDS, ChatRequest, load_backend
from authorag.judges.backends.openai_compat import OpenAIBackend
from authorag.testing import hash_opinion


def test_registry_names() -> None:
    assert sorted(BACKENDS) == ["fake", "local", "openai"]
    assert [BACKENDS[n].load().__name__ for n in ("fake", "local", "openai")] == [
        "FakeBackend", "LocalBackend", "OpenAIBackend"]


def test_fake_backend_from_factory_answers_judge_prompts() -> None:
    backend = load_backend("fake", model="scripted-hash")
    prompt = "Answer with a single letter A or B.\n[A] Domain: b.example\n[B] Domain: a.example"
    answer = backend.complete(ChatRequest(messages=[{"role": "user", "content": prompt}]))
    expected = "A" if hash_opinion("Domain: b.example") >= hash_opinion("Domain: a.example") else "B"
    assert (answer.text, answer.model, backend.name) == (expected, "scripted-hash", "fake")


def test_openai_backend_from_factory() -> None:
    backend = load_backend("openai", base_url="http://127.0.0.1:1/v1", model="m", timeout=5)
    assert isinstance(backend, OpenAIBackend) and backend.model == "m"


def test_unknown_backend() -> None:
    with pytest.raises(ConfigError, match=r"unknown backend 'vllm'; choose one of \['fake', 'local', 'openai'\]"):
        load_backend("vllm")  # type: ignore[arg-type]


def test_unknown_argument_lists_the_parameters() -> None:
    with pytest.raises(ConfigError, match=r"bad arguments \['modle'\] for backend 'openai'.*'model'"):
        load_backend("openai", modle="m")
    with pytest.raises(ConfigError, match=r"bad arguments \[\] for backend 'openai': missing"):
        load_backend("openai")
