"""How a server process encodes: torch threads, pages per forward pass, priority and memory."""
from __future__ import annotations

import os
import sys
import threading

import pytest

from authorag.errors import ConfigError
from authorag.server.config import ServerConfig
from authorag.server.encoding import (
    CPU_NICE,
    ENCODE_BATCH,
    configure_encoding,
    default_encode_threads,
    limit_arenas,
    lower_thread_priority,
    release_memory,
)


def test_each_worker_gets_its_share_of_the_cores() -> None:
    cores = os.cpu_count() or 1
    assert default_encode_threads(1) == cores
    assert default_encode_threads(cores) == 1
    assert default_encode_threads(cores * 4) == 1  # never none


def test_encode_settings_are_checked() -> None:
    assert ServerConfig().encode_threads is None and ServerConfig().encode_batch == ENCODE_BATCH
    with pytest.raises(ConfigError, match=r"^encode_threads must be a positive integer or None, got 0$"):
        ServerConfig(encode_threads=0)
    with pytest.raises(ConfigError, match=r"^encode_batch must be a positive integer, got -1$"):
        ServerConfig(encode_batch=-1)
    env = ServerConfig.from_env({"AUTHORAG_ENCODE_THREADS": "3", "AUTHORAG_ENCODE_BATCH": "4"})
    assert (env.encode_threads, env.encode_batch) == (3, 4)


def test_a_dense_server_encodes_with_its_threads_and_batch() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("sentence_transformers")
    from authorag.server.service import RerankService

    threads = torch.get_num_threads()
    try:
        service = RerankService(ServerConfig(relevance="dense", encode_threads=1, encode_batch=4))
        encoder = service.reranker.relevance.encoder  # type: ignore[attr-defined]
        assert encoder.batch_size == 4 and torch.get_num_threads() == 1
        assert service.pool is service.cpu_executor  # CPU work: the bounded threads, not the judge's many
    finally:
        torch.set_num_threads(threads)


def test_configure_encoding_leaves_torch_alone_without_a_thread_count() -> None:
    class Encoder:
        batch_size = 32

    class Relevance:
        encoder = Encoder()

    relevance = Relevance()
    configure_encoding(relevance, None, 6)
    assert relevance.encoder.batch_size == 6
    configure_encoding(object(), None, 6)  # a relevance without an encoder: nothing to set


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priority is Linux's")
def test_cpu_threads_run_below_the_event_loop() -> None:
    seen: list[int] = []

    def body() -> None:
        before = os.getpriority(os.PRIO_PROCESS, 0)
        lower_thread_priority()
        seen.extend([before, os.getpriority(os.PRIO_PROCESS, 0)])

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert seen == [mine, min(19, mine + CPU_NICE)]
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine  # the calling thread only


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_allocator_calls_answer_on_glibc() -> None:
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("not glibc")
    assert limit_arenas() is True
    blocks = [bytearray(1 << 16) for _ in range(2000)]  # ~128 MB on the heap (below the mmap threshold)
    del blocks
    assert release_memory() is True  # the freed heap went back to the system
