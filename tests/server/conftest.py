"""A real uvicorn server on loopback, started once per session in a background thread."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from authorag.testing import free_port

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

API_KEY = "test-key"


@contextmanager
def run_server(app: Any, **uvicorn_kw: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1:<free port>; yields the base URL."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning",
                                           access_log=False, **uvicorn_kw))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start within 30 s")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """The rerank API (BM25 relevance, prior authority, weight 0.5) with a bearer key and small limits."""
    from authorag.policy import RerankPolicy
    from authorag.server.app import create_app
    from authorag.server.config import ServerConfig

    config = ServerConfig(api_key=API_KEY, relevance="bm25", policy=RerankPolicy(weight=0.5), max_documents=20,
                          max_body_bytes=20_000,
                          max_doc_chars=2_000, max_urls=5)
    with run_server(create_app(config)) as url:
        yield url


@pytest.fixture(scope="session")
def serve() -> Any:
    """:func:`run_server` for tests that start their own app: ``with serve(app) as url: ...``."""
    return run_server
