"""Issue 13: schema fuzzing of every endpoint from /openapi.json (schemathesis): never a 500, and
every error in the documented shape ``{"version": 1, "error": {"code", "status", "message"}}``.

The default suite runs a quick profile; the slow run sends >= 10,000 cases per operation.
"""
from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("schemathesis")
import schemathesis
from hypothesis import HealthCheck, settings

from authorag.server.app import create_app
from authorag.server.config import ServerConfig

API_KEY = "fuzz-key"
APP = create_app(ServerConfig(relevance="bm25", api_key=API_KEY, max_documents=50, max_urls=50,
                              max_body_bytes=200_000, max_doc_chars=2_000))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP, headers={"Authorization": f"Bearer {API_KEY}"})
# Valid and invalid bodies, parameters, methods and media types.
SCHEMA.config.generation.update(modes=list(schemathesis.GenerationMode))


def check(response: Any) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:500])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"version", "error"} and body["version"] == 1, body
        assert set(body["error"]) == {"code", "status", "message"}, body
        assert body["error"]["status"] == response.status_code and body["error"]["message"], body


QUICK = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
THOROUGH = settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))


@SCHEMA.parametrize()
@QUICK
def test_every_endpoint_quick(case: Any) -> None:
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {API_KEY}"}
    check(case.call())


@pytest.mark.slow
@SCHEMA.parametrize()
@THOROUGH
def test_every_endpoint_thorough(case: Any) -> None:
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {API_KEY}"}
    check(case.call())
