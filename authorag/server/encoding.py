"""How a server process encodes pages for dense relevance: threads, batch size, memory returned.

Three settings decide what an overloaded server does with its cores and its memory:

* **Threads per encode** (``encode_threads``). torch starts as many intra-op threads as the
  machine has cores, in every worker process. Two workers on two cores then run four threads
  that spin while they wait for each other, so one encode costs several times its CPU and the
  event loops that answer ``/healthz`` wait for a core. ``authorag serve`` gives each worker the
  cores divided by ``--workers`` (at least one).
* **Pages per forward pass** (``encode_batch``). The activations of one pass grow with it, and
  the CPU per page does not shrink past a few pages, so a small batch bounds the memory an
  encode holds at no cost in time.
* **The event loop first.** The threads that encode run at a lower scheduling priority
  (:data:`CPU_NICE`) than the event loop of their process, so on a busy machine the loop that
  answers ``/healthz`` and refuses what does not fit gets a core before them.
* **Memory returned after a burst.** The C allocator keeps freed memory for reuse, one arena per
  thread that allocates; :func:`limit_arenas` keeps the arenas few and :func:`release_memory`
  hands freed memory back to the system once a process has no pages left to encode.

The allocator calls are glibc's (``mallopt``, ``malloc_trim``); elsewhere they do nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import sys
from functools import cache
from typing import Any

log = logging.getLogger(__name__)

ENCODE_BATCH = 8
"""Pages per forward pass of the encoder in the server (``encode_batch``): measured in
``docs/server.md`` (Performance, overload), a larger batch costs more memory and no less CPU."""
MALLOC_ARENAS = 2
"""Allocator arenas a server process uses (glibc's ``M_ARENA_MAX``; its default is eight per core)."""
_M_ARENA_MAX = -8
CPU_NICE = 5
"""How much lower than the event loop's the scheduling priority of the CPU threads is (a ``nice``
increment; Linux gives each thread its own)."""


def default_encode_threads(workers: int) -> int:
    """Threads per encode when ``encode_threads`` is not set: this machine's cores divided by the
    worker processes that share them, at least one.

    Example:
        >>> default_encode_threads(10**6)
        1
    """
    return max(1, (os.cpu_count() or 1) // max(1, workers))


def configure_encoding(relevance: object, threads: int | None, batch: int) -> None:
    """Give every encoder of ``relevance`` (its ``encoders``, else its ``encoder``) ``batch`` pages
    per forward pass and ``threads`` threads (None: the engine's default): torch's for MiniLM, the
    engine's own for ``multilingual-e5-small`` (read when it loads, so call this before)."""
    encoders = getattr(relevance, "encoders", None)
    if encoders is None:
        one = getattr(relevance, "encoder", None)
        encoders = () if one is None else (one,)
    for encoder in encoders:
        if hasattr(encoder, "batch_size"):
            encoder.batch_size = batch
        if threads is not None and hasattr(encoder, "threads"):
            encoder.threads = threads
    if threads is None:
        return
    try:
        import torch
    except ImportError:  # an encoder without torch has its own thread setting
        return
    torch.set_num_threads(threads)
    log.info("dense relevance: %d torch thread(s) per encode, %d pages per forward pass", threads, batch)


def lower_thread_priority(increment: int = CPU_NICE) -> None:
    """Lower the calling thread's scheduling priority by ``increment`` (a thread pool's
    ``initializer``). Only Linux sets it per thread; elsewhere, and where it is not allowed, nothing changes."""
    if not sys.platform.startswith("linux"):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, 0, min(19, os.getpriority(os.PRIO_PROCESS, 0) + increment))
    except OSError as exc:  # a sandbox without the call
        log.debug("thread priority not lowered: %s", exc)


@cache
def _libc() -> Any:
    """glibc, or None on a system without it (musl, macOS, Windows)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def limit_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Let the threads created from now on share at most ``arenas`` allocator arenas; True when set."""
    libc = _libc()
    return bool(libc is not None and libc.mallopt(_M_ARENA_MAX, arenas))


def release_memory() -> bool:
    """Return the allocator's free memory to the system (``malloc_trim``); True when some was.

    Runs without the interpreter lock (ctypes releases it), so other threads go on meanwhile.
    """
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0))


def settle_memory() -> bool:
    """Collect the garbage loading left (the fp32 layers a quantized model replaced) and return the
    freed memory to the system (:func:`release_memory`); True when some went back."""
    gc.collect()
    return release_memory()
