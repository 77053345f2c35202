"""The CLI and the server write one JSON version: the same int everywhere."""
from __future__ import annotations

import json

import httpx
import pytest

from authorag.cli import main

API_KEY = "test-key"  # as in conftest


def test_cli_and_server_json_versions_are_one_int(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "nih.gov", "--json"]) == 0
    cli_row = json.loads(capsys.readouterr().out)[0]
    auth = {"Authorization": f"Bearer {API_KEY}"}
    authority = httpx.post(f"{server_url}/v1/authority", json={"urls": ["nih.gov"]}, headers=auth).json()
    rerank = httpx.post(f"{server_url}/v2/rerank", headers=auth,
                        json={"query": "q", "documents": ["url: https://www.nih.gov/x\ntext: t"]}).json()
    error = httpx.post(f"{server_url}/v1/authority", json={"urls": ["nih.gov"]}).json()  # no key: 401
    health = httpx.get(f"{server_url}/healthz").json()
    versions = [cli_row["version"], authority["version"], rerank["meta"]["authorag"]["version"],
                error["version"], health["version"]]
    assert versions == [1, 1, 1, 1, 1] and all(type(v) is int for v in versions)
    assert error["error"]["code"] == "unauthorized"
