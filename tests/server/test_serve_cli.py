"""`authorag serve` as a real subprocess, and the install hints of the optional extras."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
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
        body = {"query": "cranberry juice", "documents": ["url: https://zq-unknown-blog-2931.biz/x\ntext: Cranberry juice.",
                                                          "url: https://www.nih.gov/y\ntext: Cranberry juice."]}
        r = httpx.post(f"{url}/v1/rerank", json=body, headers={"Authorization": "Bearer cli-key"})
        # both on topic (same coverage; rank relevance 1 and 0.85 of the best): the fused order is
        # 0.4 * relevance + 0.6 * trust in [0.5, 1]: nih.gov 0.5 + 0.5 * (0.4 * 0.85 + 0.6 * 0.858) = 0.927
        results = r.json()["results"]
        assert [x["index"] for x in results] == [1, 0]
        assert results[0]["relevance_score"] == pytest.approx(0.5 + 0.5 * (0.4 * 0.85 + 0.6 * 0.85794), abs=1e-4)
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
        config = httpx.get(f"{url}/readyz").json()["config"]  # each worker its share of the cores
        assert (config["encode_threads"], config["encode_batch"]) == (max(1, (os.cpu_count() or 1) // 2), 8)
        body = {"query": "cranberry juice", "documents": ["url: https://zq-unknown-blog-2931.biz/x\ntext: Cranberry juice.",
                                                          "url: https://www.nih.gov/y\ntext: Cranberry juice."]}
        # as in the single-process test: both on topic, trust orders them with weight 0.6
        results = httpx.post(f"{url}/v1/rerank", json=body).json()["results"]
        assert [x["index"] for x in results] == [1, 0]
        assert results[0]["relevance_score"] == pytest.approx(0.5 + 0.5 * (0.4 * 0.85 + 0.6 * 0.85794), abs=1e-4)
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


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_names_a_prior_file_it_cannot_read_in_one_line(workers: str) -> None:
    # with several workers the files are read in a short-lived process, not kept by the supervisor
    cmd = [sys.executable, "-m", "authorag", "serve", "--port", str(free_port()), "--workers", workers,
           "--relevance", "rank", "--prior-file", "mine=/nonexistent/x.store"]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == ("authorag: error: cannot open prior store '/nonexistent/x.store' "
                                            "(No such file or directory)")
    assert "Traceback" not in proc.stderr


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


def _worker_pids(url: str, want: int, seconds: float = 60) -> set[int]:
    pids: set[int] = set()
    deadline = time.monotonic() + seconds
    while len(pids) < want and time.monotonic() < deadline:
        for _ in range(16):  # a new connection each time: the kernel spreads them over the workers
            try:
                with httpx.Client() as client:
                    pids.add(int(client.get(f"{url}/readyz", timeout=5).json()["pid"]))
            except httpx.HTTPError:
                pass
        time.sleep(0.2)
    return pids


def test_a_dead_worker_is_replaced_and_the_others_keep_serving() -> None:
    """Was: the death of one worker stopped every other worker and the command."""
    import signal

    port = free_port()
    cmd = [sys.executable, "-m", "authorag", "serve", "--port", str(port), "--relevance", "rank", "--workers", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc)
        first = _worker_pids(url, 2)
        assert len(first) == 2
        victim, survivor = sorted(first)
        os.kill(victim, signal.SIGKILL)
        after = _worker_pids(url, 2)
        assert survivor in after and victim not in after and len(after) == 2, (first, after)
        assert proc.poll() is None
        assert httpx.post(f"{url}/v1/rerank", json={"query": "q", "documents": ["a"]}).status_code == 200
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    assert f"exited with code -{int(signal.SIGKILL)}; starting a new one" in proc.stderr.read().decode()  # type: ignore[union-attr]


def test_sigterm_ends_the_server_while_a_large_audit_runs() -> None:
    """Was: a quadratic audit held the event loop: /healthz got no answer and SIGTERM was
    ignored for 30 s. The audit below (5,000 markers in one sentence) took ~8 s of CPU then."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "authorag", "serve", "--port", str(port), "--relevance", "rank"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    body = {"question": "q", "answer": "a [1]" * 4_999 + ".", "sources": [{"id": "1", "url": "https://www.nih.gov/"}]}
    try:
        _wait_ready(url, proc)
        with httpx.Client(timeout=60) as client:
            sent = [client.build_request("POST", f"{url}/v1/audit", json=body) for _ in range(3)]
            with ThreadPoolExecutor(3) as pool:
                answers = [pool.submit(client.send, r) for r in sent]
                start = time.monotonic()
                assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200
                healthz_s = time.monotonic() - start
                assert all(a.result().status_code == 200 for a in answers)
        assert healthz_s < 1.0, healthz_s
        with httpx.Client(timeout=60) as client, ThreadPoolExecutor(1) as pool:
            pending = pool.submit(client.post, f"{url}/v1/audit", json=body)
            time.sleep(0.05)
            start = time.monotonic()
            proc.terminate()
            code = proc.wait(timeout=30)
            stop_s = time.monotonic() - start
            try:  # answered before the shutdown, or refused: either way not left hanging
                pending.result(timeout=30)
            except httpx.HTTPError:
                pass
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # uvicorn re-raises the SIGTERM it handled once it has shut down, hence -15 (graceful all the same)
    assert code in (0, -15) and stop_s < 10, (code, stop_s)
