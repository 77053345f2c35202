"""Shared fixtures. Keep this file small; put topic fixtures in the topic's folder."""
from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def openai_server() -> Iterator[str]:
    """A real OpenAI-compatible server (xllamacpp + SmolLM2-135M) on loopback; yields its /v1 URL."""
    from authorag.judges.backends.models import model_path
    from authorag.testing import serve_openai_compatible

    with serve_openai_compatible(model_path("smollm2-135m"), n_ctx=2048, n_parallel=2) as url:
        yield url
