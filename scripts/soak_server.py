"""Soak test of ``authorag serve`` (not in CI): a fixed request rate for a long time, 30 % new hosts.

Starts the server as a subprocess on 127.0.0.1, sends ``POST /v1/rerank`` requests open-loop at
``--rate`` per second for ``--seconds`` (each with ``--docs`` documents, ``--new-share`` of them
on hosts never seen before, so the URL caches keep filling), samples the server's RSS every
``--sample`` seconds, and writes a JSON summary: requests, errors (any non-200 or transport
error), latency percentiles, and RSS after warm-up vs at the end. The issue's target: errors 0,
RSS flat after warm-up (the byte-bounded caches fill and then stay at their budget).

Usage:
    .venv/bin/python scripts/soak_server.py --seconds 600 --out /tmp/soak
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from authorag.testing import free_port, wait_until_ready

KNOWN = ["www.nih.gov", "www.cdc.gov", "en.wikipedia.org", "www.bbc.co.uk", "www.nature.com", "someone.blogspot.com",
         "www.reddit.com", "www.nytimes.com", "github.com", "stackoverflow.com", "www.who.int", "arxiv.org"]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def body(rng: random.Random, counter: list[int], docs: int, new_share: float) -> dict[str, Any]:
    out = []
    for i in range(docs):
        if rng.random() < new_share:
            counter[0] += 1
            host = f"www.site-{counter[0]}-{rng.randrange(10**9)}.{rng.choice(['com', 'org', 'net', 'co.uk'])}"
        else:
            host = rng.choice(KNOWN)
        out.append({"text": f"document {i} about flu vaccines and health {rng.random():.6f}",
                    "url": f"https://{host}/page/{rng.randrange(10**6)}"})
    return {"query": "flu vaccine safety", "documents": out, "top_n": 5}


async def run_load(url: str, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    rng = random.Random(args.seed)
    counter = [0]
    latencies: list[float] = []
    errors: dict[str, int] = {}
    samples: list[tuple[float, float]] = []
    in_flight = 0
    dropped = 0

    async def one(client: httpx.AsyncClient, payload: dict[str, Any]) -> None:
        nonlocal in_flight
        start = time.perf_counter()
        try:
            r = await client.post(f"{url}/v1/rerank", json=payload)
            if r.status_code != 200:
                errors[f"HTTP {r.status_code}"] = errors.get(f"HTTP {r.status_code}", 0) + 1
        except httpx.HTTPError as exc:
            errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
        finally:
            latencies.append(time.perf_counter() - start)
            in_flight -= 1

    limits = httpx.Limits(max_connections=args.max_in_flight, max_keepalive_connections=args.max_in_flight)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        start = time.monotonic()
        next_sample = start
        tasks: set[asyncio.Task[None]] = set()
        n = 0
        while (now := time.monotonic()) - start < args.seconds:
            if now >= next_sample:
                samples.append((round(now - start, 1), rss_mib(pid)))
                next_sample += args.sample
            due = start + n / args.rate
            if due > now:
                await asyncio.sleep(min(due - now, 0.05))
                continue
            n += 1
            if in_flight >= args.max_in_flight:
                dropped += 1  # open loop: never queue behind a slow server, count it instead
                continue
            in_flight += 1
            task = asyncio.create_task(one(client, body(rng, counter, args.docs, args.new_share)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)
        samples.append((round(time.monotonic() - start, 1), rss_mib(pid)))
    return {"scheduled": n, "sent": len(latencies), "dropped": dropped, "errors": errors, "new_hosts": counter[0],
            "latency_ms": _percentiles(latencies), "rss_mib": samples}


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return {"p50": pick(0.50), "p90": pick(0.90), "p99": pick(0.99), "max": round(ordered[-1] * 1000, 2),
            "mean": round(statistics.fmean(ordered) * 1000, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--rate", type=float, default=40.0, help="requests per second (open loop)")
    parser.add_argument("--docs", type=int, default=20, help="documents per request")
    parser.add_argument("--new-share", type=float, default=0.3, help="share of documents on never-seen hosts")
    parser.add_argument("--warmup-share", type=float, default=0.2, help="share of the run counted as warm-up")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between RSS samples")
    parser.add_argument("--max-in-flight", type=int, default=64)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    server = subprocess.Popen([sys.executable, "-m", "authorag", "serve", "--port", str(port), "--log-level", "error"],
                              env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_until_ready(f"{url}/readyz", timeout_s=120, process=server, interval_s=0.2)
        except RuntimeError as exc:
            raise SystemExit(str(exc)) from None
        result = asyncio.run(run_load(url, args, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=30)
    samples = result["rss_mib"]
    warm = [rss for t, rss in samples if t >= args.seconds * args.warmup_share]
    result.update(config={k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
                  rss_after_warmup_mib=round(warm[0], 1) if warm else None,
                  rss_end_mib=round(samples[-1][1], 1),
                  rss_growth_after_warmup_mib=round(samples[-1][1] - warm[0], 1) if warm else None,
                  error_count=sum(result["errors"].values()))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "soak.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "rss_mib"}, indent=1))
    return 0 if result["error_count"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
