"""load_backend registry and the backend modules' docstring examples."""
from __future__ import annotations

import pytest

from authorag.errors import ConfigError
from authorag.judges.backends import BACKENDS, load_backend
from authorag.judges.backends.openai_compat import OpenAIBackend


def test_registry_names() -> None:
    assert sorted(BACKENDS) == ["local", "openai"]


def test_openai_backend_from_factory() -> None:
    backend = load_backend("openai", base_url="http://127.0.0.1:1/v1", model="m", timeout=5)
    assert isinstance(backend, OpenAIBackend) and backend.model == "m"


def test_unknown_backend() -> None:
    with pytest.raises(ConfigError, match=r"unknown backend 'vllm'; choose one of \['local', 'openai'\]"):
        load_backend("vllm")  # type: ignore[arg-type]


def test_unknown_argument_lists_the_parameters() -> None:
    with pytest.raises(ConfigError, match=r"bad arguments \['modle'\] for backend 'openai'.*'model'"):
        load_backend("openai", modle="m")
    with pytest.raises(ConfigError, match=r"bad arguments \[\] for backend 'openai': missing"):
        load_backend("openai")
