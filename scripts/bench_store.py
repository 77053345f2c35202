"""Measure the prior store at 1/10/30 M domains against a synthetic Tranco-format list.

For each size: write a synthetic ``rank,domain`` file, time ``authorag priors import`` on it
once per ``--memory`` budget (a subprocess each: wall time, CPU time and its own peak RSS;
``none`` is the in-memory build, a size such as ``256M`` the bounded one; the stores must be
byte-identical but for the import time), then in a fresh process time opening the store, 100k
random lookups of stored keys and 100k of absent keys, and read the RSS growth they cause.
100 M is projected by a least-squares line through the measured points for build time and
file size; for opening and lookups (independent of size) by the largest measured value. Results go to ``OUT/store.json`` (the committed copy: docs/results/scale).

Run it under the CPU lock; 30 M takes ~5 minutes and ~6 GB of memory during the import:
    .venv/bin/python scripts/bench_store.py --sizes 1e6 1e7 3e7 --memory none 256M --out /tmp/bench_store
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

ROOT = Path(__file__).resolve().parent.parent
_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
"""Children import this checkout's authorag, whatever the current folder."""

# Peak RSS from VmHWM: it belongs to the exec'd image, while ru_maxrss would also count the
# pages of this (large) parent process at fork time.
_IMPORT = r"""
import json, sys
from authorag.cli import main
rc = main(sys.argv[1:])
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"rc": rc, "peak_rss_mb": hwm / 1024}))
"""

_CHILD = r"""
import json, random, sys, time
def rss():
    out = {}
    for line in open("/proc/self/status"):
        if line.startswith(("VmRSS", "RssAnon", "RssFile")):
            k, v = line.split(":")
            out[k] = int(v.split()[0]) / 1024
    return out
from authorag.priors.store.mapped import PriorStore
from authorag.priors import ExtraSource, load_prior
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
table = load_prior(extra=[ExtraSource.from_store(store_path, "synthetic")], rules=())
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


def build(src: Path, store: Path, memory: str) -> dict[str, float]:
    """Import ``src`` with the ``--memory`` budget in a subprocess: wall s, CPU s, its peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", _IMPORT, "priors", "import", "--format", "tranco", str(src),
                          "--out", str(store), "--quiet", "--memory", memory, "--date", "2024-01-01"],
                         check=True, capture_output=True, text=True, env=_ENV)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = float(json.loads(run.stdout.strip().splitlines()[-1])["peak_rss_mb"])
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"build_s": wall, "build_cpu_s": cpu, "build_peak_rss_mb": peak}


def _same_store(a: Path, b: Path) -> bool:
    """Byte-identical apart from the import time in the header (same length)."""
    from authorag.priors.store.mapped import PriorStore

    da, db = a.read_bytes(), b.read_bytes()
    ta, tb = (str(PriorStore(p).provenance["imported"]) for p in (a, b))
    return da == db.replace(tb.encode(), ta.encode(), 1)


def measure(n: int, work: Path, memories: list[str]) -> dict[str, object]:
    src, sample = work / f"list_{n}.csv", work / f"sample_{n}.txt"
    t = time.perf_counter()
    synthetic_list(n, src, sample)
    gen_s = time.perf_counter() - t
    builds: dict[str, dict[str, float]] = {}
    stores = [work / f"list_{n}_{i}.store" for i in range(len(memories))]
    for memory, path in zip(memories, stores):
        builds[memory] = build(src, path, memory)
        builds[memory]["peak_bytes_per_row"] = builds[memory]["build_peak_rss_mb"] * 2**20 / n
    identical = all(_same_store(stores[0], p) for p in stores[1:])
    store = stores[-1]
    child = subprocess.run([sys.executable, "-c", _CHILD, str(store), str(sample)], check=True,
                           capture_output=True, text=True, env=_ENV)
    result: dict[str, object] = {"domains": n, "input_mb": src.stat().st_size / 2**20, "generate_s": gen_s,
                                 **builds[memories[-1]], "builds": builds, "stores_identical": identical,
                                 "store_mb": store.stat().st_size / 2**20, **json.loads(child.stdout)}
    for p in (src, sample, *stores):
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
    ap.add_argument("--memory", nargs="+", default=["none", "256M"],
                    help="import --memory budgets to compare (the last one's store is measured)")
    args = ap.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="bench_store_"))
    work.mkdir(parents=True, exist_ok=True)
    points = []
    for n in args.sizes:
        point = measure(int(n), work, args.memory)
        print(json.dumps(point), flush=True)
        points.append(point)
    # Build time and size grow linearly; opening and a lookup do not depend on the size (one
    # hash, a bucket read), so the projection for them is the largest measured value.
    projected = {k: project(points, k, 1e8) for k in ("build_s", "build_cpu_s", "store_mb")}
    projected |= {k: max(float(p[k]) for p in points) for k in ("open_s", "present_lookup_cpu_us")}  # type: ignore[arg-type]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = {"command": "scripts/bench_store.py --sizes " + " ".join(f"{s:g}" for s in args.sizes)
                         + " --memory " + " ".join(args.memory),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "load_average_at_end": os.getloadavg()},
              "points": points, "projected_100M": projected}
    (out / "store.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({"projected_100M": projected}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
