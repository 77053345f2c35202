"""`authorag serve` as a real subprocess, and the install hints of the optional extras."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from authorag.errors import MissingDependencyError
from authorag.testing import free_port, wait_until_ready


def _wait_ready(url: str, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    wait_until_ready(f"{url}/readyz", timeout_s=seconds, process=proc, interval_s=0.2)


def test_serve_subprocess_answers_cohere_requests() -> None:
    port = free_port()
    env = {**os.environ, "AUTHORAG_API_KEY": "cli-key"}
    cmd = [sys.executable, "-m", "authorag", "serve", "--port", str(port), "--relevance", "rank",
           "--weight", "0.6", "--max-documents", "3"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_ready(url, proc)
        ready = httpx.get(f"{url}/readyz").json()["config"]
        assert (ready["weight"], ready["max_documents"], ready["relevance"], ready["auth"]) == (0.6, 3, "rank", True)
        body = {"query": "q", "documents": ["url: https://zq-unknown-blog-2931.biz/x", "url: https://www.nih.gov/y"]}
        r = httpx.post(f"{url}/v1/rerank", json=body, headers={"Authorization": "Bearer cli-key"})
        # rank relevance (1, 0) -> 0.4 * 1 + 0.6 * 0.3 = 0.58 vs 0.6 * 0.979 = 0.588
        assert [x["index"] for x in r.json()["results"]] == [1, 0]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_workers_share_the_port_and_stop_together() -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "authorag", "serve", "--port", str(port), "--relevance", "rank", "--workers", "2",
           "--weight", "0.6"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc)
        pids: set[int] = set()
        deadline = time.monotonic() + 60
        while len(pids) < 2 and time.monotonic() < deadline:  # the second worker may still be loading
            for _ in range(16):  # a new connection each time: the kernel spreads them over the workers
                with httpx.Client() as client:
                    pids.add(int(client.get(f"{url}/readyz").json()["pid"]))
            time.sleep(0.2)
        assert len(pids) == 2, f"connections reached {len(pids)} worker(s)"
        body = {"query": "q", "documents": ["url: https://zq-unknown-blog-2931.biz/x", "url: https://www.nih.gov/y"]}
        # as in the single-process test: 0.4 * 1 + 0.6 * 0.3 = 0.58 < 0.6 * 0.979 = 0.588
        assert [x["index"] for x in httpx.post(f"{url}/v1/rerank", json=body).json()["results"]] == [1, 0]
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    for pid in pids:  # SIGTERM to the parent stopped every worker
        status = Path(f"/proc/{pid}/status")
        assert not status.exists() or "zombie" in status.read_text()


def test_serve_workers_failing_at_startup_fail_the_command() -> None:
    cmd = [sys.executable, "-m", "authorag", "serve", "--port", str(free_port()), "--workers", "2",
           "--exclude", "bogus_source"]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "unknown prior source 'bogus_source'" in proc.stderr


def test_serve_on_a_taken_port_says_so() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        cmd = [sys.executable, "-m", "authorag", "serve", "--port", str(port), "--workers", "2"]
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert f"127.0.0.1:{port} is in use" in proc.stderr


@pytest.mark.parametrize("module,package,extra", [
    ("authorag.integrations.langchain", "langchain_core", "langchain"),
    ("authorag.integrations.haystack", "haystack", "haystack"),
    ("authorag.integrations.llamaindex", "llama_index.core", "llamaindex"),
    ("authorag.server.app", "fastapi", "server"),
    ("authorag.server.mcp", "mcp", "mcp"),
])
def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch, module: str, package: str,
                                                 extra: str) -> None:
    import importlib

    monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, package, None)
    with pytest.raises(MissingDependencyError, match=rf"pip install 'authorag\[{extra}\]'"):
        importlib.import_module(module)
