"""Prior-only rerank of 100 candidates: this checkout against an earlier commit, in the same run.

The earlier commit (default: the last one before trust fusion) is checked out into a temporary git
worktree; both trees run the same timing loop in child processes, interleaved round by round, so
machine load falls on both alike. Each round times ``rounds`` reranks after a warm-up (the lookup
caches of a long-running service are warm). Printed: medians of the per-round p50, and the ratio.

Usage::

    python scripts/bench_trust_speed.py [--before 6149c2b] [--rounds 7] [--repeats 400] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import random, statistics, sys, time
from authorag import AuthorityReranker
from authorag.compose import load_scorer
from authorag.types import Candidate
rng = random.Random(0)
from authorag.priors import load_source
keys = sorted(set(load_source("majestic")) | set(load_source("ccnews_pagerank")))
hosts = [rng.choice(keys) if rng.random() < 0.7 else f"site-{rng.randrange(10**9)}.health-{i % 7}.org" for i in range(100)]
texts = sys.argv[2] == "text"
cands = [Candidate.create(f"https://{h}/page/{i}", ("Cranberry juice and urinary tract infections: what the trials found. " * 3) if texts else "",
                          id=str(i), scores={"relevance": 1.0 - i / 100}) for i, h in enumerate(hosts)]
rr = AuthorityReranker(load_scorer())
for _ in range(50):
    rr.rerank("does cranberry juice prevent urinary tract infections", cands)
times = []
for _ in range(int(sys.argv[1])):
    t = time.perf_counter()
    rr.rerank("does cranberry juice prevent urinary tract infections", cands)
    times.append(time.perf_counter() - t)
print(statistics.median(times) * 1000)
"""


def _run(tree: Path, repeats: int, kind: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(repeats), kind], cwd=tree, env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="6149c2b", help="the earlier commit (default: before trust fusion)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=400)
    ap.add_argument("--out", help="write the figures as JSON here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), args.before],
                       check=True, capture_output=True)
        try:
            result: dict[str, object] = {"before": args.before, "rounds": args.rounds, "repeats": args.repeats,
                                         "cpus": os.cpu_count(), "load_average": os.getloadavg()}
            for kind in ("url-only", "text"):
                rounds: dict[str, list[float]] = {"before": [], "now": []}
                for _ in range(args.rounds):
                    rounds["before"].append(_run(old, args.repeats, kind))
                    rounds["now"].append(_run(ROOT, args.repeats, kind))
                before, now = statistics.median(rounds["before"]), statistics.median(rounds["now"])
                result[kind] = {"before_p50_ms": round(before, 4), "now_p50_ms": round(now, 4),
                                "ratio": round(now / before, 3), "rounds": rounds}
                print(f"{kind:9} before {before:.3f} ms  now {now:.3f} ms  ratio {now / before:.2f}x "
                      f"(medians of {args.rounds} rounds x {args.repeats} reranks of 100 candidates)")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=False,
                           capture_output=True)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
