"""Loopback load test of ``POST /v1/rerank`` with 100 documents per request (prior-only authority,
or the hybrid scorer with the local judge on a warm cache).

Starts ``authorag serve`` on 127.0.0.1 (a free port) as a subprocess, then for each concurrency
level runs an httpx async client for at most ``--duration`` seconds or ``--max-requests``
requests, whichever comes first, and reports req/s and p50/p99 latency. The load generator
runs on the same machine as the server and competes with it for CPU: say so with the numbers.

Usage:
    .venv/bin/python scripts/bench_server.py                       # 1, 8, 32 concurrent; 2 workers
    .venv/bin/python scripts/bench_server.py --workers 1 --relevance rank --json out.json
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"  # loopback only, on purpose
# A mix of sources the prior knows (table), suffix-rule hosts, and unknown blogs.
SOURCES = ["https://www.nih.gov/news/{i}", "https://en.wikipedia.org/wiki/Topic_{i}", "https://www.nytimes.com/{i}",
           "https://someblog{i}.blogspot.com/post", "https://www.cdc.gov/flu/{i}", "https://www.bbc.co.uk/news/{i}",
           "https://healthy-tips-{i}.example.biz/x", "https://www.mayoclinic.org/{i}", "https://www.reddit.com/r/{i}",
           "https://www.harvard.edu/{i}"]
WORDS = ["cranberry", "juice", "urinary", "tract", "infection", "clinical", "trial", "women", "recurrent", "evidence", "review", "prevention", "antibiotics", "bacteria", "bladder", "study", "placebo", "dose", "daily"]


def payload(n_docs: int) -> dict[str, Any]:
    """A Cohere v1 request with ``n_docs`` YAML-style documents of ~40 words each."""
    docs = []
    for i in range(n_docs):
        url = SOURCES[i % len(SOURCES)].format(i=i)
        text = " ".join(WORDS[(i + j) % len(WORDS)] for j in range(40))
        docs.append(f"title: Document {i}\nurl: {url}\ntext: {text}")
    return {"model": "authorag-authority", "query": "does cranberry juice prevent urinary tract infections",
            "documents": docs, "top_n": 10}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def start_server(port: int, workers: int, relevance: str, judge: str, judge_model: str | None) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "authorag", "serve", "--host", HOST, "--port", str(port),
           "--workers", str(workers), "--relevance", relevance, "--judge", judge]
    if judge_model:
        cmd += ["--judge-model", judge_model]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            if httpx.get(f"http://{HOST}:{port}/readyz", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise SystemExit("server did not become ready within 120 s")


def cpu_seconds(pid: int) -> float:
    """User+system CPU seconds of ``pid`` and its children (uvicorn workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    while pids:
        p = pids.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                pids += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


async def run_level(url: str, body: bytes, concurrency: int, duration: float, max_requests: int,
                    server_pid: int) -> dict[str, Any]:
    """``concurrency`` workers send requests until the time or count budget is spent."""
    latencies: list[float] = []
    errors = 0
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"content-type": "application/json"}
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        for _ in range(min(concurrency, 8)):  # warm the connections and the server's caches
            await client.post(url, content=body, headers=headers)

        async def worker() -> None:
            nonlocal errors
            while time.perf_counter() < stop_at and len(latencies) + errors < max_requests:
                t0 = time.perf_counter()
                r = await client.post(url, content=body, headers=headers)
                if r.status_code == 200:
                    latencies.append(time.perf_counter() - t0)
                else:
                    errors += 1

        start, cpu0, client0 = time.perf_counter(), cpu_seconds(server_pid), time.process_time()
        stop_at = start + duration
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - start
        server_cpu, client_cpu = cpu_seconds(server_pid) - cpu0, time.process_time() - client0
    lat = sorted(latencies)
    return {"concurrency": concurrency, "requests": len(lat), "errors": errors, "seconds": round(wall, 3),
            "req_per_s": round(len(lat) / wall, 1),
            "p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
            "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2) if lat else None,
            # CPU per request does not depend on how busy the machine is, unlike req/s and latency.
            "server_cpu_ms_per_req": round(1000 * server_cpu / max(1, len(lat)), 2),
            "client_cpu_ms_per_req": round(1000 * client_cpu / max(1, len(lat)), 2)}


def breakdown(n_docs: int, relevance: str, repeat: int = 200) -> dict[str, float]:
    """CPU ms per request of each in-process step (no HTTP), averaged over ``repeat`` runs."""
    from authorag.integrations import _adapt
    from authorag.server.config import ServerConfig
    from authorag.server.documents import parse_documents
    from authorag.server.schemas import RerankRequest
    from authorag.server.service import RerankService

    svc = RerankService(ServerConfig(relevance=relevance))  # type: ignore[arg-type]
    reranker = svc.reranker
    body = json.dumps(payload(n_docs))
    req = RerankRequest.model_validate_json(body)
    docs = parse_documents(req.documents, None, rank_fields=None, max_chars=20_000, max_tokens=None)
    rel = _adapt.rank_relevance(len(docs))
    cands = [_adapt.make_candidate(i, d.url, d.text, rel[i]) for i, d in enumerate(docs)]
    steps = {
        "validate (pydantic)": lambda: RerankRequest.model_validate_json(body),
        "read documents (urls, budget)": lambda: parse_documents(req.documents, None, rank_fields=None,
                                                                 max_chars=20_000, max_tokens=None),
        "build candidates (Candidate.create)": lambda: [_adapt.make_candidate(i, d.url, d.text, rel[i])
                                                        for i, d in enumerate(docs)],
        "AuthorityReranker.rerank": lambda: reranker.rerank(req.query, cands, top_k=req.top_n),
        "service total (all of the above + response dict)": lambda: svc.rerank(req, "v1"),
    }
    out: dict[str, float] = {}
    for name, step in steps.items():
        step()
        t0 = time.process_time()
        for _ in range(repeat):
            step()
        out[name] = round(1000 * (time.process_time() - t0) / repeat, 3)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2, help="uvicorn worker processes (default 2 = cores here)")
    ap.add_argument("--relevance", default="bm25", choices=["bm25", "rank"])
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    ap.add_argument("--documents", type=int, default=100)
    ap.add_argument("--duration", type=float, default=10.0, help="seconds per level (upper bound)")
    ap.add_argument("--max-requests", type=int, default=5000, help="requests per level (upper bound)")
    ap.add_argument("--judge", default="none", choices=["none", "local"],
                    help="'local': hybrid scorer with the embedded judge; one untimed request first "
                         "fills the judge cache, then every level runs on a warm cache")
    ap.add_argument("--judge-model", help="GGUF path or registered name for --judge local")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--breakdown", action="store_true", help="only print in-process CPU ms per step (no HTTP)")
    args = ap.parse_args(argv)
    if args.breakdown:
        for name, ms in breakdown(args.documents, args.relevance).items():
            print(f"{ms:>8.3f} ms  {name}")
        return 0
    load_before = os.getloadavg()[0]
    port = free_port()
    body = json.dumps(payload(args.documents)).encode()
    proc = start_server(port, args.workers, args.relevance, args.judge, args.judge_model)
    warm_s = None
    try:
        url = f"http://{HOST}:{port}/v1/rerank"
        if args.judge != "none":
            t0 = time.perf_counter()
            for _ in range(3 * args.workers):  # per-request judge budgets may need more than one pass
                httpx.post(url, content=body, headers={"content-type": "application/json"}, timeout=1800)
            warm_s = round(time.perf_counter() - t0, 1)
        levels = [asyncio.run(run_level(url, body, c, args.duration, args.max_requests, proc.pid))
                  for c in args.concurrency]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    report = {"endpoint": "/v1/rerank", "documents": args.documents, "request_bytes": len(body),
              "workers": args.workers, "relevance": args.relevance,
              "authority": "prior (no judge)" if args.judge == "none" else f"hybrid, judge {args.judge} (warm cache)",
              "judge_model": args.judge_model, "cache_warmup_seconds": warm_s,
              "client": "httpx.AsyncClient in one process on the same machine",
              "cpus": os.cpu_count(), "load_average_before": load_before, "python": platform.python_version(),
              "levels": levels}
    for lv in levels:
        print(f"c={lv['concurrency']:>3}  {lv['req_per_s']:>7} req/s  p50 {lv['p50_ms']} ms  p99 {lv['p99_ms']} ms"
              f"  server CPU {lv['server_cpu_ms_per_req']} ms/req, client CPU {lv['client_cpu_ms_per_req']} ms/req"
              f"  ({lv['requests']} requests, {lv['errors']} errors, {lv['seconds']} s)")
    print(json.dumps({k: v for k, v in report.items() if k != "levels"}))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
