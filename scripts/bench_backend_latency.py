"""Measure the latency of one PointJudge-style call (one digit, grammar + top-20 logprobs).

Each model runs in a fresh subprocess so "cold" includes loading the GGUF (and, for the
default model, nothing else: assemble it first with ``model_path()``). Prints one JSON line
per model and the machine's load average (other work on the CPU slows llama.cpp a lot).

    .venv/bin/python scripts/bench_backend_latency.py --models smollm2-135m qwen2.5-coder-1.5b \
        --threads 1 --warm 10
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

DOMAINS = ["nature.com", "cdc.gov", "example-blog.xyz", "bbc.co.uk", "infowars.com",
           "arxiv.org", "reddit.com", "who.int", "dailymail.co.uk", "stackoverflow.com",
           "nytimes.com", "medium.com"]
SYSTEM = ("You judge how authoritative a web domain is as a source of information: how "
          "trustworthy, expert and widely recognized it is. Answer with one digit from 0 "
          "(not authoritative) to 9 (highly authoritative).")

CHILD = r"""
import json, statistics, sys, time
from authorag.judges.backends.base import ChatRequest
from authorag.judges.backends.local import LocalBackend
model, threads, warm, system, domains = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], json.loads(sys.argv[5])
def req(d):
    return ChatRequest(messages=[{"role": "system", "content": system},
                                 {"role": "user", "content": f"Domain: {d}"}],
                       max_tokens=1, grammar="root ::= [0-9]", logprobs=True, top_logprobs=20)
t0 = time.perf_counter()
backend = LocalBackend(model, n_ctx=2048, n_threads=threads).load()
load_s = time.perf_counter() - t0
first = backend.complete(req(domains[0]))
cold_s = time.perf_counter() - t0
lat = [backend.complete(req(domains[1 + i % (len(domains) - 1)])).latency_s for i in range(warm)]
print(json.dumps({"model": model, "threads": threads, "load_s": round(load_s, 2),
                  "first_call_s": round(first.latency_s, 3), "cold_total_s": round(cold_s, 2),
                  "warm_median_s": round(statistics.median(lat), 3),
                  "warm_min_s": round(min(lat), 3), "warm_max_s": round(max(lat), 3),
                  "warm_calls": warm, "prompt_tokens": first.prompt_tokens}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["smollm2-135m", "qwen2.5-coder-1.5b"])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--warm", type=int, default=10)
    args = parser.parse_args()
    print(json.dumps({"loadavg_before": [round(x, 2) for x in os.getloadavg()],
                      "cpus": os.cpu_count()}))
    for model in args.models:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, model, str(args.threads), str(args.warm), SYSTEM,
             json.dumps(DOMAINS)],
            capture_output=True, text=True, check=True,
        )
        print(out.stdout.strip())
    print(json.dumps({"loadavg_after": [round(x, 2) for x in os.getloadavg()]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
