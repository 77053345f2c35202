"""Real servers on loopback for tests: an OpenAI-compatible model server (xllamacpp), a free
port, and a wait until a server answers."""
from __future__ import annotations

import gc
import logging
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Generator
from contextlib import contextmanager
from pathlib import Path

from authorag._optional import require
from authorag.errors import JudgeError

logger = logging.getLogger(__name__)


@contextmanager
def serve_openai_compatible(
    model_path: str | Path,
    port: int = 0,
    *,
    n_ctx: int = 2048,
    n_threads: int = 1,
    n_parallel: int = 1,
    startup_timeout_s: float = 60.0,
) -> Generator[str]:
    """Run a real OpenAI-compatible server (xllamacpp) on 127.0.0.1; yield its ``/v1`` URL.

    The server runs inside this process and stops when the block exits.

    Args:
        model_path: a GGUF file.
        port: TCP port on 127.0.0.1 (0 picks a free one).
        n_ctx, n_threads, n_parallel: llama.cpp context size, CPU threads and parallel slots
            (one thread by default: on a busy CI machine, more threads spin and run slower).
        startup_timeout_s: how long to wait for ``/v1/models`` to answer.

    Raises:
        MissingDependencyError: xllamacpp is not installed.
        JudgeError: the server does not come up in time.

    Example:
        >>> from authorag.judges.backends.models import model_path
        >>> with serve_openai_compatible(model_path("smollm2-135m")) as base_url:  # doctest: +SKIP
        ...     print(base_url)
        http://127.0.0.1:40123/v1
    """
    xl = require("xllamacpp", extra="llm", feature="serve_openai_compatible")
    params = xl.CommonParams()
    params.model.path = str(model_path)
    params.n_ctx = n_ctx
    params.n_parallel = n_parallel
    params.cpuparams.n_threads = n_threads
    params.cpuparams_batch.n_threads = n_threads
    params.verbosity = 0
    params.port = port
    server = xl.Server(params)
    try:
        base_url = str(server.listening_address).rstrip("/") + "/v1"
        try:
            wait_until_ready(base_url + "/models", timeout_s=startup_timeout_s)
        except RuntimeError as exc:
            raise JudgeError(f"the test server did not come up: {exc}") from None
        logger.info("OpenAI-compatible test server on %s", base_url)
        yield base_url
    finally:
        del server
        gc.collect()  # the native server stops listening when the object is freed


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port on ``host`` that nothing listens on right now (for servers started by tests)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def wait_until_ready(url: str, *, timeout_s: float = 60.0, process: subprocess.Popen[bytes] | None = None,
                     interval_s: float = 0.1) -> None:
    """Poll ``url`` until it answers HTTP 200 (e.g. a server's ``/readyz``).

    Raises:
        RuntimeError: ``process`` exited first (its exit code and piped stderr in the message), or
            ``timeout_s`` passed (with the last error seen).
    """
    deadline = time.monotonic() + timeout_s
    last = "no answer"
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2.0) as resp:
                if resp.status == 200:
                    return
                last = f"HTTP {resp.status}"
        except (urllib.error.URLError, OSError) as exc:
            last = str(exc)
        if process is not None and process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise RuntimeError(f"the server for {url} exited with code {process.returncode} before it was ready: {err}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server at {url} did not answer within {timeout_s} s: {last}")
        time.sleep(interval_s)


__all__ = ["free_port", "serve_openai_compatible", "wait_until_ready"]
