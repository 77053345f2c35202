"""Measure the prior store at 1/10/30 M domains against a synthetic Tranco-format list.

For each size: write a synthetic ``rank,domain`` file, time ``authorag priors import`` on it
(a subprocess: wall time and peak RSS), then in a fresh process time opening the store, 100k
random lookups of stored keys and 100k of absent keys, and read the RSS growth they cause.
100 M is projected by a least-squares line through the measured points for build time and
file size; for opening and lookups (independent of size) by the largest measured value. Results go to ``OUT/store.json`` (the committed copy: docs/results/scale).

Run it under the CPU lock; 30 M takes ~5 minutes and ~6 GB of memory during the import:
    flock /work/notes/cpu.lock .venv/bin/python scripts/bench_store.py --sizes 1e6 1e7 3e7 --out /tmp/bench_store
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TLDS = ["com"] * 12 + ["net", "org", "de", "co.uk", "io", "ru", "com.br", "info", "fr", "nl", "jp", "it", "pl"]
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

_CHILD = r"""
import json, random, sys, time
def rss():
    out = {}
    for line in open("/proc/self/status"):
        if line.startswith(("VmRSS", "RssAnon", "RssFile")):
            k, v = line.split(":")
            out[k] = int(v.split()[0]) / 1024
    return out
from authorag.priors.store import PriorStore
from authorag.priors import load_prior
from authorag.priors.store import store_source
store_path, sample_path = sys.argv[1], sys.argv[2]
present = open(sample_path).read().split()
absent = [k + "x" for k in present]
t = time.perf_counter(); store = PriorStore(store_path); open_s = time.perf_counter() - t
before = rss()
get = store.get
t, c = time.perf_counter(), time.process_time()
hits = sum(get(k) is not None for k in present)
present_us = (time.perf_counter() - t) / len(present) * 1e6
present_cpu_us = (time.process_time() - c) / len(present) * 1e6
t, c = time.perf_counter(), time.process_time()
false_hits = sum(get(k) is not None for k in absent)
absent_us = (time.perf_counter() - t) / len(absent) * 1e6
absent_cpu_us = (time.process_time() - c) / len(absent) * 1e6
after = rss()
table = load_prior(extra=[store_source(store_path, "synthetic")], rules=())
hosts = [("www." + k, k) for k in present[:20000]]
t = time.perf_counter()
for h, d in hosts:
    table._lookup(h, d)
table_us = (time.perf_counter() - t) / len(hosts) * 1e6
plain = load_prior(rules=())
t = time.perf_counter()
for h, d in hosts:
    plain._lookup(h, d)
plain_us = (time.perf_counter() - t) / len(hosts) * 1e6
print(json.dumps({"open_s": open_s, "hits": hits, "false_hits": false_hits, "present_lookup_us": present_us,
                  "present_lookup_cpu_us": present_cpu_us, "absent_lookup_us": absent_us,
                  "absent_lookup_cpu_us": absent_cpu_us, "table_lookup_us": table_us,
                  "table_without_store_us": plain_us, "rss_before_mb": before,
                  "rss_after_mb": after, "rss_growth_mb": after["VmRSS"] - before["VmRSS"],
                  "anon_growth_mb": after["RssAnon"] - before["RssAnon"]}))
"""


def synthetic_list(n: int, path: Path, sample: Path, seed: int = 0) -> None:
    """``rank,domain`` rows of ``n`` distinct synthetic domains; 100k of them go to ``sample``."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(4, 12, n)
    letters = rng.integers(0, 26, int(lengths.sum()))
    text = np.array(list(_ALPHABET[:26]))[letters]
    tld = np.array(TLDS)[rng.integers(0, len(TLDS), n)]
    chunk = "".join(text.tolist())
    names: list[str] = []
    pos = 0
    for i, (ln, t) in enumerate(zip(lengths.tolist(), tld.tolist())):
        names.append(f"{chunk[pos:pos + ln]}{_base36(i)}.{t}")
        pos += ln
    with path.open("w") as f:
        f.writelines(f"{i},{name}\n" for i, name in enumerate(names, start=1))
    picks = rng.choice(n, size=min(100_000, n), replace=False)
    sample.write_text("\n".join(names[i] for i in picks.tolist()))


def _base36(i: int) -> str:
    out = ""
    while True:
        i, r = divmod(i, 36)
        out = _ALPHABET[r] + out
        if i == 0:
            return out


def measure(n: int, work: Path) -> dict[str, object]:
    src, sample, store = work / f"list_{n}.csv", work / f"sample_{n}.txt", work / f"list_{n}.store"
    t = time.perf_counter()
    synthetic_list(n, src, sample)
    gen_s = time.perf_counter() - t
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "authorag", "priors", "import", "--format", "tranco", str(src),
                    "--out", str(store), "--quiet"], check=True, stdout=subprocess.DEVNULL)
    build_s = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    build_cpu_s = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    peak_mb = after.ru_maxrss / 1024
    child = subprocess.run([sys.executable, "-c", _CHILD, str(store), str(sample)], check=True,
                           capture_output=True, text=True)
    result: dict[str, object] = {"domains": n, "input_mb": src.stat().st_size / 2**20, "generate_s": gen_s,
                                 "build_s": build_s, "build_cpu_s": build_cpu_s, "build_peak_rss_mb_max_so_far": peak_mb,
                                 "store_mb": store.stat().st_size / 2**20, **json.loads(child.stdout)}
    for p in (src, sample, store):
        p.unlink()
    return result


def project(points: list[dict[str, object]], key: str, n: float) -> float:
    """Least-squares line through (domains, key) evaluated at ``n``."""
    x = np.array([float(p["domains"]) for p in points])  # type: ignore[arg-type]
    y = np.array([float(p[key]) for p in points])  # type: ignore[arg-type]
    if len(x) < 2:
        return float(y[0] * n / x[0])
    slope, intercept = np.polyfit(x, y, 1)
    return float(slope * n + intercept)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7, 3e7])
    ap.add_argument("--out", required=True, help="results folder (store.json is written there)")
    ap.add_argument("--work", help="scratch folder for the synthetic lists (default: a temp dir)")
    args = ap.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="bench_store_"))
    work.mkdir(parents=True, exist_ok=True)
    points = []
    for n in args.sizes:
        point = measure(int(n), work)
        print(json.dumps(point), flush=True)
        points.append(point)
    # Build time and size grow linearly; opening and a lookup do not depend on the size (one
    # hash, a bucket read), so the projection for them is the largest measured value.
    projected = {k: project(points, k, 1e8) for k in ("build_s", "build_cpu_s", "store_mb")}
    projected |= {k: max(float(p[k]) for p in points) for k in ("open_s", "present_lookup_cpu_us")}  # type: ignore[arg-type]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = {"command": "scripts/bench_store.py --sizes " + " ".join(f"{s:g}" for s in args.sizes),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "load_average_at_end": os.getloadavg()},
              "points": points, "projected_100M": projected}
    (out / "store.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({"projected_100M": projected}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
