"""Foundation performance: prior load time, prior-only rerank latency, URL normalization cost.

Usage: .venv/bin/python scripts/bench_foundation.py [--repeats 2000] [--seed 0]

Candidates are 100 real URLs: hosts drawn (seeded) from the shipped Majestic and CC-News keys
plus unknown made-up hosts (30 %), each with a path. Figures are printed with ratios against
baselines measured in the same run.
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from authorag import AuthorityReranker, Candidate, load_prior
from authorag.domains import _HOST_CACHE, _URL_CACHE, parse_host  # pyright: ignore[reportPrivateUsage]
from authorag.priors import load_source

LINES: list[str] = []
FIGURES: dict[str, float] = {}


def _say(text: str) -> None:
    """Print a result line and keep it for ``--out``."""
    print(text)
    LINES.append(text)


def _pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def load_time(runs: int = 5) -> list[tuple[float, float]]:
    """(import seconds, load_prior seconds) in fresh processes."""
    code = ("import time; t=time.perf_counter(); from authorag import load_prior; t1=time.perf_counter(); "
            "load_prior(); print(t1-t, time.perf_counter()-t1)")
    out = []
    for _ in range(runs):
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        out.append((float(res[0]), float(res[1])))
    return out


def make_urls(rng: random.Random, n: int) -> list[str]:
    known = sorted(set(load_source("majestic")) | set(load_source("ccnews_pagerank")))
    urls = []
    for i in range(n):
        host = rng.choice(known) if rng.random() < 0.7 else f"site-{rng.randrange(10**9)}.example-{i % 7}.com"
        urls.append(f"https://www.{host}/articles/{rng.randrange(10**6)}?ref=x")
    return urls


HOSTED = ("https://someone{i}.wordpress.com/2020/post", "https://medium.com/@writer{i}/a-story",
          "https://www.reddit.com/r/health{i}/comments/x/y", "https://www.youtube.com/watch?v={i}",
          "https://github.com/user{i}/repo", "https://site{i}.example.com/", "https://medium.com/about")


def tier0(rng: random.Random, repeats: int, prior: object) -> None:
    """The default composition (reserved + hosted tiers in front of the table) vs the bare table,
    on the same 100 candidates (20 % on hosting platforms or reserved names), interleaved runs."""
    from authorag.compose import ScorerSettings, load_scorer

    urls = make_urls(rng, 80) + [HOSTED[i % len(HOSTED)].format(i=i) for i in range(20)]
    rng.shuffle(urls)
    cands = [Candidate.create(u, id=str(i), scores={"relevance": rng.random()}) for i, u in enumerate(urls)]
    base = AuthorityReranker(prior, weight=0.3)  # type: ignore[arg-type]
    full = AuthorityReranker(load_scorer(ScorerSettings()), weight=0.3)
    lat: dict[str, list[float]] = {"table": [], "default": []}
    for rr in (base, full):
        rr.rerank("q", cands)
    for _ in range(repeats):
        for name, rr in (("table", base), ("default", full)):
            t = time.perf_counter()
            rr.rerank("q", cands)
            lat[name].append(time.perf_counter() - t)
    b, d = _pct(lat["table"], .5), _pct(lat["default"], .5)
    FIGURES.update(tier0_table_p50_ms=b * 1e3, tier0_default_p50_ms=d * 1e3, tier0_ratio=d / b,
                   tier0_default_p99_ms=_pct(lat["default"], .99) * 1e3)
    _say(f"default composition (reserved>hosted>prior) vs table only, 100 candidates with 20 hosted/reserved: "
          f"p50 {d * 1e3:.3f} ms vs {b * 1e3:.3f} ms ({d / b:.2f}x; +{(d - b) * 1e6 / 100:.2f} us per candidate), "
          f"p99 {_pct(lat['default'], .99) * 1e3:.3f} ms ({repeats} interleaved runs)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="also write the result lines and figures to this JSON file")
    args = ap.parse_args()
    rng = random.Random(args.seed)

    lt = load_time()
    _say(f"fresh process: import authorag median {statistics.median(a for a, _ in lt) * 1000:.0f} ms, "
          f"load_prior() median {statistics.median(b for _, b in lt) * 1000:.0f} ms ({len(lt)} runs)")

    prior = load_prior()
    rr = AuthorityReranker(prior, weight=0.3)
    urls = make_urls(rng, 100)
    cands = [Candidate.create(u, id=str(i), scores={"relevance": rng.random()}) for i, u in enumerate(urls)]
    rr.rerank("q", cands)  # warm the lookup cache as a long-running service would be
    lat = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        rr.rerank("q", cands)
        lat.append(time.perf_counter() - t)
    _say(f"prior-only rerank of 100 candidates: p50 {_pct(lat, .5) * 1e3:.3f} ms, p99 {_pct(lat, .99) * 1e3:.3f} ms"
          f" ({args.repeats} runs, warm lookup cache)")
    tier0(rng, args.repeats, prior)

    cold = []
    for r in range(50):
        fresh = make_urls(random.Random(1000 + r), 100)
        _HOST_CACHE.cache_clear()
        _URL_CACHE.cache_clear()
        prior._cache.clear()  # pyright: ignore[reportPrivateUsage]
        t = time.perf_counter()
        cs = [Candidate.create(u, id=str(i), scores={"relevance": 0.5}) for i, u in enumerate(fresh)]
        rr.rerank("q", cs)
        cold.append(time.perf_counter() - t)
    _say(f"cold (new URLs: parse + lookup + rerank) 100 candidates: p50 {_pct(cold, .5) * 1e3:.3f} ms, "
          f"p99 {_pct(cold, .99) * 1e3:.3f} ms (50 runs)")

    many = make_urls(random.Random(7), 20000)
    _HOST_CACHE.cache_clear()
    _URL_CACHE.cache_clear()
    t = time.perf_counter()
    parsed = [parse_host(u) for u in many]
    t_parse = (time.perf_counter() - t) / len(many)
    table = {p.domain: 1.0 for p in parsed}
    t = time.perf_counter()
    for p in parsed:
        table.get(p.domain)
    t_dict = (time.perf_counter() - t) / len(many)
    t = time.perf_counter()
    for u in many:
        parse_host(u)
    t_cached = (time.perf_counter() - t) / len(many)
    _URL_CACHE.cache_clear()
    t = time.perf_counter()
    for u in many:  # new URLs on hosts seen before: the common case in a service
        parse_host(u + "&page=2")
    t_host = (time.perf_counter() - t) / len(many)
    _say(f"URL normalization per URL: {t_parse * 1e6:.2f} us new host, {t_host * 1e6:.2f} us new URL on a known "
          f"host, {t_cached * 1e6:.2f} us repeated URL; bare dict lookup {t_dict * 1e6:.3f} us -> "
          f"{t_parse / t_dict:.0f}x / {t_host / t_dict:.0f}x / {t_cached / t_dict:.0f}x a dict lookup")
    if args.out:
        _write(args.out, args)


def _write(path: str, args: argparse.Namespace) -> None:
    import json
    import os

    record = {"command": "python scripts/bench_foundation.py " + " ".join(sys.argv[1:]), "seed": args.seed,
              "repeats": args.repeats, "cpus": os.cpu_count(), "figures": FIGURES, "lines": LINES}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
