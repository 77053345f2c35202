"""Run several uvicorn worker processes, each on its own ``SO_REUSEPORT`` socket.

uvicorn's ``--workers`` shares one listening socket between processes, and Linux then hands
new keep-alive connections to whichever process wakes first: measured here, 8 client
connections all went to one of two workers while the other sat idle, which halves throughput
and triples p99 for as long as those connections live. With one ``SO_REUSEPORT`` socket per
worker the kernel spreads connections over the workers by a hash of their addresses (the
approach of gunicorn's and nginx's ``reuse_port``).

Example:
    >>> reuse_port_supported() in (True, False)
    True
"""
from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import sys
import time
from types import FrameType
from typing import Any

from authorag.errors import ConfigError

log = logging.getLogger(__name__)


def reuse_port_supported() -> bool:
    """True where sockets can share a port with ``SO_REUSEPORT`` (Linux, the BSDs, macOS)."""
    return hasattr(socket, "SO_REUSEPORT") and sys.platform != "win32"


def bind_reuse_port(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` with ``SO_REUSEPORT`` (not yet listening).

    uvicorn calls ``listen`` after the app's startup, so the kernel sends no connection to a
    worker that is still loading the prior.

    Raises:
        OSError: the address is taken by a socket without ``SO_REUSEPORT`` (another program).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _worker(host: str, port: int, uvicorn_kwargs: dict[str, Any]) -> None:
    import uvicorn

    sock = bind_reuse_port(host, port)
    config = uvicorn.Config("authorag.server.app:app_from_env", factory=True, **uvicorn_kwargs)
    uvicorn.Server(config).run(sockets=[sock])


def serve_reuse_port(host: str, port: int, workers: int, **uvicorn_kwargs: Any) -> int:
    """Start ``workers`` processes serving the app from the environment; return an exit code.

    The parent supervises: SIGINT/SIGTERM stop every worker (each finishes its requests), and
    if one worker exits on its own the others are stopped and its exit code is returned.

    Raises:
        ConfigError: the port is taken by another program (checked before any worker starts).
    """
    try:  # fail fast, in the parent, on a taken port
        bind_reuse_port(host, port).close()
    except OSError as exc:
        raise ConfigError(f"{host}:{port} is in use or cannot be bound ({exc.strerror}); stop the program "
                          "listening there or pick another --port") from exc
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_worker, args=(host, port, uvicorn_kwargs), name=f"authorag-worker-{i}")
             for i in range(workers)]
    for p in procs:
        p.start()
    stopping = False

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for p in procs:
            if p.is_alive() and p.pid is not None:
                p.terminate()  # SIGTERM: uvicorn shuts down gracefully

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = 0
        while True:
            dead = [p for p in procs if not p.is_alive()]
            if dead and not stopping:  # a worker ended without being asked to: a failure
                code = dead[0].exitcode or 1
                log.error("worker %s exited with code %s; stopping the others", dead[0].name, dead[0].exitcode)
                stop(signal.SIGTERM, None)
            if len(dead) == len(procs):
                break
            time.sleep(0.2)
        for p in procs:
            p.join()
        return code
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
