"""Time opening a prior store and what a fresh ``authorag score`` pays for one, verified or not.

``PriorStore(path)`` verifies the whole file on the first open of a file identity (every array,
and the checksum over header and data; :mod:`authorag.priors.store.verify`) and remembers it in
the cache directory; later opens check the header and the ends of the arrays, and each lookup
checks the bucket it reads. For each size this script builds a synthetic store
(``write_store``: 1 M entries ~2 s, 10 M ~30 s), waits until its modification time has settled,
then, each in a fresh process, best of ``--repeats``:

* ``header_ms``: the header checks alone (magic, lengths, fields, sections);
* ``first_open_ms``: the first open, which verifies the whole file (the cache directory is
  emptied before each repeat), and the file pages it reads (``first_open_rss_file_mb``);
* ``open_ms``: a later open of the same file (remembered), and its file pages;
* ``authorag score`` of three domains without the store (the baseline, in the same run) and with
  ``--prior-file big=STORE`` (remembered): wall time from start to exit and peak RSS
  (``VmHWM``, file pages of the mapped store included); ``score_extra_s`` and
  ``score_extra_rss_mb`` are the differences.

    .venv/bin/python scripts/bench_store_open.py --sizes 1e7 --out docs/results/scale
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
DOMAINS = ["nih.gov", "cdc.gov", "example.com"]

_BUILD = r"""
import sys, numpy as np
from authorag.priors.store.mapped import write_store
n = int(sys.argv[2])
write_store(sys.argv[1], [f"d{i}x.com" for i in range(n)], np.random.default_rng(0).random(n),
            raw=np.arange(1, n + 1))
"""

_OPEN = r"""
import json, sys, time
from pathlib import Path
from authorag.priors.store.mapped import PriorStore, _open
def rss_file():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("RssFile")) / 1024
path, which = Path(sys.argv[1]), sys.argv[2]
if which == "header":
    t = time.perf_counter(); mm, *_ = _open(path); took = time.perf_counter() - t; mm.close(); paged = 0.0
else:
    before = rss_file()
    t = time.perf_counter(); store = PriorStore(path); took = time.perf_counter() - t
    paged = rss_file() - before
print(json.dumps({"ms": took * 1e3, "rss_file_mb": paged}))
"""

_SCORE = r"""
import contextlib, io, json, sys, time
started = time.perf_counter()
from authorag.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
took = time.perf_counter() - started
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
print(json.dumps({"code": code, "s": took, "max_rss_mb": hwm}), file=sys.stderr)
"""


def _child(code: str, args: list[str], env: dict[str, str], *, last_stderr: bool = False) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", code, *args], check=True, env=env, capture_output=True, text=True)
    return json.loads(done.stderr.strip().splitlines()[-1] if last_stderr else done.stdout)


def _measure(path: Path, repeats: int, cache: Path) -> dict[str, Any]:
    env = {**_ENV, "AUTHORAG_CACHE_DIR": str(cache)}
    header, first, later, base, with_store = [], [], [], [], []
    score = ["score", "--json", *DOMAINS]
    for _ in range(repeats):
        header.append(_child(_OPEN, [str(path), "header"], env))
        shutil.rmtree(cache, ignore_errors=True)  # forget: the next open verifies the whole file
        first.append(_child(_OPEN, [str(path), "open"], env))
        later.append(_child(_OPEN, [str(path), "open"], env))
        base.append(_child(_SCORE, score, env, last_stderr=True))
        with_store.append(_child(_SCORE, [*score[:2], "--prior-file", f"big={path}", *DOMAINS], env, last_stderr=True))
    assert all(r["code"] == 0 for r in base + with_store)
    row = {"header_ms": min(r["ms"] for r in header),
           "first_open_ms": min(r["ms"] for r in first), "first_open_rss_file_mb": min(r["rss_file_mb"] for r in first),
           "open_ms": min(r["ms"] for r in later), "open_rss_file_mb": min(r["rss_file_mb"] for r in later),
           "score_baseline_s": min(r["s"] for r in base), "score_baseline_max_rss_mb": min(r["max_rss_mb"] for r in base),
           "score_store_s": min(r["s"] for r in with_store),
           "score_store_max_rss_mb": min(r["max_rss_mb"] for r in with_store)}
    row["score_extra_s"] = row["score_store_s"] - row["score_baseline_s"]
    row["score_extra_rss_mb"] = row["score_store_max_rss_mb"] - row["score_baseline_max_rss_mb"]
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e7])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, help="write store_open.json here")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            n = int(size)
            path = Path(tmp) / f"s{n}.store"
            subprocess.run([sys.executable, "-c", _BUILD, str(path), str(n)], check=True, env=_ENV)
            time.sleep(2.5)  # a file modified in the last 2 s is verified but not remembered
            row = {"entries": n, "file_mb": path.stat().st_size / 2**20, **_measure(path, args.repeats, Path(tmp) / "cache")}
            rows.append(row)
            path.unlink()
            print(f"{n:>12,} entries ({row['file_mb']:.0f} MB): header {row['header_ms']:.2f} ms; first open (verifies) "
                  f"{row['first_open_ms']:.0f} ms, {row['first_open_rss_file_mb']:.0f} MB paged; later open "
                  f"{row['open_ms']:.2f} ms, {row['open_rss_file_mb']:.1f} MB paged; score of {len(DOMAINS)} domains "
                  f"+{row['score_extra_s']:.3f} s, +{row['score_extra_rss_mb']:.1f} MB peak RSS over the baseline "
                  f"({row['score_baseline_s']:.2f} s, {row['score_baseline_max_rss_mb']:.0f} MB)")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        result = {"command": "scripts/bench_store_open.py --sizes " + " ".join(f"{s:g}" for s in args.sizes)
                  + f" --repeats {args.repeats}", "python": sys.version.split()[0], "cpus": os.cpu_count(),
                  "load_average": os.getloadavg()[0], "rows": rows}
        (args.out / "store_open.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
