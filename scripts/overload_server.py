"""Overload: many clients sending the largest request dense relevance accepts, for a bounded time.

Starts ``authorag serve`` (default relevance, ``--workers`` processes) on 127.0.0.1 at a free
port, then ``--clients`` connections each send, back to back for ``--duration`` seconds, a rerank
request of ``--documents`` pages (default 300, ``--max-unseen-documents``) of ~200 words that the
server has never seen. Meanwhile it reads ``GET /healthz`` every 50 ms on its own connection and
the server's resident memory (all its processes, from /proc) every 200 ms. It reports:

* answers by status (200 ranked, 503 ``overloaded`` refused at admission, 503
  ``deadline_exceeded``, others), latency of the 200s and of the refusals;
* peak and final memory of the server, and when idle before the load: RSS summed over its
  processes (pages they share counted in each) and PSS (shared pages counted once);
* /healthz p50/p99/max, and the machine's noise: /healthz over as long a time before the load.

The targets (peak RSS <= 1.5 GB, /healthz p99 <= 100 ms, every refusal <= 50 ms) are
checked; the exit status is 1 when one is missed. Loopback only; bounded by ``--duration`` and
``--max-requests``.

Usage:
    .venv/bin/python scripts/overload_server.py --json docs/results/perf/overload_dense.json
    .venv/bin/python scripts/overload_server.py --duration 10 --clients 4 --serve-arg=--max-encoding-documents=600
    mkdir /tmp/base && git archive 2705fe9 authorag | tar -x -C /tmp/base && .venv/bin/python scripts/overload_server.py --source /tmp/base
    .venv/bin/python scripts/overload_server.py --baseline /tmp/base --json docs/results/perf/overload_dense.json
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_server import HOST, RawConnection, payload, raw_request

from authorag.testing import free_port, wait_until_ready

TARGET_RSS_MB, TARGET_HEALTHZ_P99_MS, TARGET_REFUSAL_MS = 1536.0, 100.0, 50.0


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (uvicorn workers)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return out


def _field_kb(path: str, name: str) -> int:
    try:
        return sum(int(line.split()[1]) for line in Path(path).read_text().splitlines() if line.startswith(name))
    except (OSError, ValueError):
        return 0


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants, summed, in MB (pages two processes share,
    such as torch's libraries, counted in each)."""
    return sum(_field_kb(f"/proc/{p}/status", "VmRSS:") for p in _tree(pid)) / 1024


def pss_mb(pid: int) -> float:
    """Proportional set size of ``pid`` and its descendants in MB: shared pages counted once, split
    between the processes that share them (the physical memory the server holds)."""
    return sum(_field_kb(f"/proc/{p}/smaps_rollup", "Pss:") for p in _tree(pid)) / 1024


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return round(1000 * v[min(len(v) - 1, int(q * len(v)))], 2)


async def read_reply(conn: RawConnection) -> tuple[int, bytes]:
    """Status and body of the next reply on ``conn``."""
    head = await conn.reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    return int(head[9:12]), await conn.reader.readexactly(length)


def probe_healthz(port: int, seconds: float, out: Any) -> None:
    """``GET /healthz`` every 50 ms for ``seconds`` on one connection; sends the latencies to ``out``.

    Runs in its own process (:func:`healthz_latencies`), so the load generator's event loop, busy
    with the clients, does not delay the probe and the probe measures the server alone.
    """
    request = f"GET /healthz HTTP/1.1\r\nhost: {HOST}:{port}\r\n\r\n".encode()
    took: list[float] = []
    until = time.perf_counter() + seconds
    with socket.create_connection((HOST, port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = sock.makefile("rb")
        while time.perf_counter() < until:
            t0 = time.perf_counter()
            sock.sendall(request)
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            reader.read(length)
            took.append(time.perf_counter() - t0)
            time.sleep(0.05)
    out.send(took)


async def healthz_latencies(port: int, seconds: float) -> list[float]:
    """:func:`probe_healthz` in a child process; its latencies once it ends."""
    ctx = multiprocessing.get_context("spawn")
    mine, theirs = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=probe_healthz, args=(port, seconds, theirs), daemon=True)
    proc.start()
    while not mine.poll():
        await asyncio.sleep(0.1)
    took: list[float] = mine.recv()
    proc.join(timeout=10)
    return took


def sample_memory(pid: int, until: float, rss: list[float], pss: list[float]) -> None:
    """RSS and PSS of the server every 200 ms until ``until`` (on a thread of its own)."""
    while time.perf_counter() < until:
        rss.append(rss_mb(pid))
        pss.append(pss_mb(pid))
        time.sleep(0.2)


async def load(port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    idle_probe = await healthz_latencies(port, min(5.0, args.duration))
    idle_rss, idle_pss = rss_mb(pid), pss_mb(pid)
    ok: list[float] = []
    refused: list[float] = []
    codes: dict[str, int] = {}
    rss: list[float] = []
    pss: list[float] = []
    sent = 0
    start = time.perf_counter()
    until = start + args.duration

    base = json.dumps(payload(args.documents, 1, 200, fresh_texts=True)).encode()  # ~200 words a page

    def fresh_body(n: int) -> bytes:
        """``base`` with every page made new by a leading request number: a bytes replace, so
        building bodies does not keep the load generator's event loop from its measurements."""
        return base.replace(b"\\ntext: ", b"\\ntext: r%d " % n)

    async def client(w: int) -> None:
        nonlocal sent
        conn = await RawConnection.open(port)
        while time.perf_counter() < until and sent < args.max_requests:
            sent += 1
            body = fresh_body(sent)
            t0 = time.perf_counter()
            conn.writer.write(raw_request("/v1/rerank", port, body))
            status, reply = await read_reply(conn)
            took = time.perf_counter() - t0
            code = "ok" if status == 200 else json.loads(reply)["error"]["code"]
            codes[f"{status} {code}"] = codes.get(f"{status} {code}", 0) + 1
            if status == 200:
                ok.append(took)
            elif code == "overloaded":
                refused.append(took)
                await asyncio.sleep(0.2)  # a client that honours Retry-After would wait longer
        conn.close()

    sampler = threading.Thread(target=sample_memory, args=(pid, until, rss, pss), daemon=True)
    sampler.start()
    healthz, *_ = await asyncio.gather(healthz_latencies(port, args.duration),
                                       *(client(w) for w in range(args.clients)))
    sampler.join()
    wall = time.perf_counter() - start
    await asyncio.sleep(2.0)
    return {"seconds": round(wall, 1), "requests": sent, "answers": codes,
            "ranked_per_s": round(len(ok) / wall, 2), "ranked_p50_ms": pct(ok, 0.5), "ranked_p99_ms": pct(ok, 0.99),
            "refusal_p50_ms": pct(refused, 0.5), "refusal_p99_ms": pct(refused, 0.99),
            "refusal_max_ms": pct(refused, 1.0),
            "rss_idle_mb": round(idle_rss, 1), "rss_peak_mb": round(max(rss, default=idle_rss), 1),
            "rss_after_mb": round(rss_mb(pid), 1), "pss_idle_mb": round(idle_pss, 1),
            "pss_peak_mb": round(max(pss, default=idle_pss), 1), "pss_after_mb": round(pss_mb(pid), 1),
            "healthz_p50_ms": pct(healthz, 0.5), "healthz_p99_ms": pct(healthz, 0.99),
            "healthz_max_ms": pct(healthz, 1.0), "healthz_idle_p99_ms": pct(idle_probe, 0.99),
            "healthz_probes": len(healthz)}


def measure(source: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Start ``authorag serve`` from the checkout ``source``, load it, stop it; its results and targets."""
    load_before = os.getloadavg()
    port = free_port(HOST)
    cmd = [sys.executable, "-m", "authorag", "serve", "--host", HOST, "--port", str(port), "--workers",
           str(args.workers), "--relevance", args.relevance, *args.serve_arg]
    env = {**os.environ, "PYTHONPATH": str(source)}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=source, env=env)
    try:
        wait_until_ready(f"http://{HOST}:{port}/readyz", timeout_s=120, process=proc, interval_s=0.2)
        time.sleep(3.0)  # the other workers finish loading
        result = asyncio.run(load(port, proc.pid, args))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    checks = {"rss_peak_mb <= 1536": result["rss_peak_mb"] <= TARGET_RSS_MB,
              "healthz_p99_ms <= 100": (result["healthz_p99_ms"] or 0) <= TARGET_HEALTHZ_P99_MS,
              "refusal_max_ms <= 50": (result["refusal_max_ms"] or 0) <= TARGET_REFUSAL_MS}
    return {"server_source": "this checkout" if source == ROOT else str(source),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()], **result, "targets_met": checks}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--documents", type=int, default=300, help="new ~200-word pages per request (default 300)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of load (default 30)")
    ap.add_argument("--max-requests", type=int, default=2000, help="requests in all (upper bound)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--relevance", default="cascade-or-bm25")
    ap.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for `authorag serve` (repeatable)")
    ap.add_argument("--source", type=Path, metavar="CHECKOUT",
                    help="run the server from another checkout (e.g. a git worktree of the commit before admission)")
    ap.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                    help="first measure a server from this checkout, then this one, in the same run: the report "
                         "has 'before' and 'after'")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    source = ROOT if args.source is None else args.source.resolve()
    report: dict[str, Any] = {
        "command": " ".join(["scripts/overload_server.py", *(argv if argv is not None else sys.argv[1:])]),
        "clients": args.clients, "documents": args.documents, "words_per_document": 200,
        "workers": args.workers, "relevance": args.relevance, "serve_args": args.serve_arg,
        "cpus": os.cpu_count(), "python": platform.python_version()}
    if args.baseline is None:
        report.update(measure(source, args))
        met = all(report["targets_met"].values())
    else:
        report["before"] = measure(args.baseline.resolve(), args)
        report["after"] = measure(source, args)
        met = all(report["after"]["targets_met"].values())
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
