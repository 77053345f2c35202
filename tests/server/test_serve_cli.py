"""`authorag serve` as a real subprocess, and the install hints of the optional extras."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from authorag.errors import MissingDependencyError


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_subprocess_answers_cohere_requests() -> None:
    port = _free_port()
    env = {**os.environ, "AUTHORAG_API_KEY": "cli-key"}
    cmd = [sys.executable, "-m", "authorag", "serve", "--port", str(port), "--relevance", "rank",
           "--weight", "0.6", "--max-documents", "3"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "authorag serve did not become ready in 60 s"
            time.sleep(0.2)
        ready = httpx.get(f"{url}/readyz").json()["config"]
        assert (ready["weight"], ready["max_documents"], ready["relevance"], ready["auth"]) == (0.6, 3, "rank", True)
        body = {"query": "q", "documents": ["url: https://someblog.blogspot.com/x", "url: https://www.nih.gov/y"]}
        r = httpx.post(f"{url}/v1/rerank", json=body, headers={"Authorization": "Bearer cli-key"})
        # rank relevance (1, 0) -> 0.4 * 1 + 0.6 * 0.3 = 0.58 vs 0.6 * 0.979 = 0.588
        assert [x["index"] for x in r.json()["results"]] == [1, 0]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.mark.parametrize("module,package,extra", [
    ("authorag.integrations.langchain", "langchain_core", "langchain"),
    ("authorag.integrations.haystack", "haystack", "haystack"),
    ("authorag.server.app", "fastapi", "server"),
])
def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch, module: str, package: str,
                                                 extra: str) -> None:
    import importlib

    monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, package, None)
    with pytest.raises(MissingDependencyError, match=rf"pip install 'authorag\[{extra}\]'"):
        importlib.import_module(module)
