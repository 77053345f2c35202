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


def _worker(host: str, port: int, uvicorn_kwargs: dict[str, Any], ready: Any) -> None:
    import threading

    import uvicorn

    sock = bind_reuse_port(host, port)
    config = uvicorn.Config("authorag.server.app:app_from_env", factory=True, **uvicorn_kwargs)
    server = uvicorn.Server(config)

    def signal_ready() -> None:  # the parent restarts a worker that dies after this, not before
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            ready.set()

    threading.Thread(target=signal_ready, daemon=True).start()
    server.run(sockets=[sock])


MAX_RESTARTS = 5
"""Restarts within :data:`RESTART_WINDOW_S` after which the parent gives up (a crash loop)."""
RESTART_WINDOW_S = 60.0


class _Supervisor:
    """The worker processes of :func:`serve_reuse_port` and the restarts they have had."""

    def __init__(self, host: str, port: int, workers: int, uvicorn_kwargs: dict[str, Any]) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.args = (host, port, uvicorn_kwargs)
        self.procs: list[Any] = [None] * workers
        self.ready: list[Any] = [None] * workers
        self.restarts: list[float] = []
        self.stopping = False
        for i in range(workers):
            self.start(i)

    def start(self, i: int) -> None:
        self.ready[i] = self.ctx.Event()
        self.procs[i] = self.ctx.Process(target=_worker, args=(*self.args, self.ready[i]), name=f"authorag-worker-{i}")
        self.procs[i].start()

    def stop(self) -> None:
        self.stopping = True
        for p in self.procs:
            if p.is_alive() and p.pid is not None:
                p.terminate()  # SIGTERM: uvicorn shuts down gracefully

    def check(self) -> int | None:
        """Restart a worker that died after it was serving; the exit code when the server must
        stop (a worker failed at start-up, or too many restarts), else None."""
        for i, p in enumerate(self.procs):
            if p.is_alive() or self.stopping:
                continue
            code = p.exitcode or 1
            now = time.monotonic()
            self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW_S]
            if not self.ready[i].is_set() or len(self.restarts) >= MAX_RESTARTS:
                why = "before it was serving" if not self.ready[i].is_set() else \
                    f"after {len(self.restarts)} restarts within {RESTART_WINDOW_S:g} s"
                log.error("worker %s exited with code %s %s; stopping the others", p.name, p.exitcode, why)
                self.stop()
                return code
            log.error("worker %s (pid %s) exited with code %s; starting a new one", p.name, p.pid, p.exitcode)
            p.join()  # reap it
            self.restarts.append(now)
            self.start(i)
        return None


def serve_reuse_port(host: str, port: int, workers: int, **uvicorn_kwargs: Any) -> int:
    """Start ``workers`` processes serving the app from the environment; return an exit code.

    The parent supervises: SIGINT/SIGTERM stop every worker (each finishes its requests). A
    worker that dies while serving (killed, out of memory) is replaced by a new one and the
    others keep serving; one that fails before it serves (bad settings), or a crash loop of
    :data:`MAX_RESTARTS` restarts within :data:`RESTART_WINDOW_S`, stops them all and its exit
    code is returned.

    Raises:
        ConfigError: the port is taken by another program (checked before any worker starts).
    """
    try:  # fail fast, in the parent, on a taken port
        bind_reuse_port(host, port).close()
    except OSError as exc:
        raise ConfigError(f"{host}:{port} is in use or cannot be bound ({exc.strerror}); stop the program "
                          "listening there or pick another --port") from exc
    sup = _Supervisor(host, port, workers, uvicorn_kwargs)

    def stop(signum: int, _frame: FrameType | None) -> None:
        sup.stop()

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = 0
        while not sup.stopping or any(p.is_alive() for p in sup.procs):
            failed = sup.check()
            code = failed if failed is not None else code
            time.sleep(0.2)
        for p in sup.procs:
            p.join()
        return code
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
