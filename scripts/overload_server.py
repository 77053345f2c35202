"""Overload: many clients sending the largest request dense relevance accepts, for a bounded time.

Starts ``authorag serve`` (default relevance, ``--workers`` processes) on 127.0.0.1 at a free
port, then ``--clients`` connections each send, back to back for ``--duration`` seconds, a rerank
request of ``--documents`` pages (default 300, ``--max-unseen-documents``) of ~200 words that the
server has never seen. Meanwhile it reads ``GET /healthz`` every 50 ms on its own connection and
the server's resident memory (all its processes, from /proc) every 200 ms. It reports:

* answers by status (200 ranked, 503 ``overloaded`` refused at admission, 503
  ``deadline_exceeded``, others), latency of the 200s and of the refusals;
* peak and final RSS of the server, and RSS when idle before the load;
* /healthz p50/p99/max, and the machine's noise: /healthz over as long a time before the load.

The targets (peak RSS <= 1.5 GB, /healthz p99 <= 100 ms, every refusal <= 50 ms) are
checked; the exit status is 1 when one is missed. Loopback only; bounded by ``--duration`` and
``--max-requests``.

Usage:
    .venv/bin/python scripts/overload_server.py --json docs/results/perf/overload_dense.json
    .venv/bin/python scripts/overload_server.py --duration 10 --clients 4 --serve-arg=--max-encoding-documents=600
    mkdir /tmp/base && git archive 2705fe9 authorag | tar -x -C /tmp/base && .venv/bin/python scripts/overload_server.py --source /tmp/base
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_server import HOST, RawConnection, payload, raw_request

from authorag.testing import free_port, wait_until_ready

TARGET_RSS_MB, TARGET_HEALTHZ_P99_MS, TARGET_REFUSAL_MS = 1536.0, 100.0, 50.0


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants (uvicorn workers), in MB."""
    total, pids = 0, [pid]
    while pids:
        p = pids.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in Path(f"/proc/{p}/task").iterdir():
                pids += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total / 1024


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


async def probe_healthz(port: int, until: float, out: list[float]) -> None:
    conn = await RawConnection.open(port)
    request = f"GET /healthz HTTP/1.1\r\nhost: {HOST}:{port}\r\n\r\n".encode()
    while time.perf_counter() < until:
        t0 = time.perf_counter()
        conn.writer.write(request)
        await read_reply(conn)
        out.append(time.perf_counter() - t0)
        await asyncio.sleep(0.05)
    conn.close()


async def sample_rss(pid: int, until: float, out: list[float]) -> None:
    while time.perf_counter() < until:
        out.append(rss_mb(pid))
        await asyncio.sleep(0.2)


async def load(port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    idle_probe: list[float] = []
    await probe_healthz(port, time.perf_counter() + min(5.0, args.duration), idle_probe)
    idle_rss = rss_mb(pid)
    ok: list[float] = []
    refused: list[float] = []
    codes: dict[str, int] = {}
    healthz: list[float] = []
    rss: list[float] = []
    sent = 0
    start = time.perf_counter()
    until = start + args.duration

    base = payload(args.documents, 1, 200, fresh_texts=True)  # built once: ~200 words a page

    def fresh_body(n: int) -> bytes:
        """``base`` with every page made new by a leading request number (cheap to build)."""
        docs = [d.replace("\ntext: ", f"\ntext: r{n} ") for d in base["documents"]]
        return json.dumps({**base, "documents": docs}).encode()

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

    await asyncio.gather(probe_healthz(port, until, healthz), sample_rss(pid, until, rss),
                         *(client(w) for w in range(args.clients)))
    wall = time.perf_counter() - start
    await asyncio.sleep(2.0)
    return {"seconds": round(wall, 1), "requests": sent, "answers": codes,
            "ranked_per_s": round(len(ok) / wall, 2), "ranked_p50_ms": pct(ok, 0.5), "ranked_p99_ms": pct(ok, 0.99),
            "refusal_p50_ms": pct(refused, 0.5), "refusal_p99_ms": pct(refused, 0.99),
            "refusal_max_ms": pct(refused, 1.0),
            "rss_idle_mb": round(idle_rss, 1), "rss_peak_mb": round(max(rss, default=idle_rss), 1),
            "rss_after_mb": round(rss_mb(pid), 1),
            "healthz_p50_ms": pct(healthz, 0.5), "healthz_p99_ms": pct(healthz, 0.99),
            "healthz_max_ms": pct(healthz, 1.0), "healthz_idle_p99_ms": pct(idle_probe, 0.99),
            "healthz_probes": len(healthz)}


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
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    port = free_port(HOST)
    cmd = [sys.executable, "-m", "authorag", "serve", "--host", HOST, "--port", str(port), "--workers",
           str(args.workers), "--relevance", args.relevance, *args.serve_arg]
    source = ROOT if args.source is None else args.source.resolve()
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
    report = {"command": " ".join(["scripts/overload_server.py", *(argv if argv is not None else sys.argv[1:])]),
              "clients": args.clients, "documents": args.documents, "words_per_document": 200,
              "workers": args.workers, "relevance": args.relevance, "serve_args": args.serve_arg,
              "server_source": "this checkout" if args.source is None else str(args.source),
              "cpus": os.cpu_count(), "load_average_before": load_before, "load_average_after": os.getloadavg()[0],
              "python": platform.python_version(), **result, "targets_met": checks}
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
