"""Time opening a prior store: the header checks alone vs the full open that also checks the arrays.

``PriorStore(path)`` validates the header and every offset against the file size, then reads the
bucket directory, fingerprints, values and raw numbers once (monotone directory, sorted
fingerprints, values finite and in [0, 1], raw finite). This script builds a synthetic store
of each size (``write_store``, 1 M entries ~2 s, 10 M ~30 s and ~3 GB), then in a fresh process
per size times ``_open`` (magic, header length, header fields, sections: what opening cost
before the array checks) and the full open, best of ``--repeats``, and reads the file-backed
RSS the full open pages in (shared page cache, not private memory). Prints the ratio.

    .venv/bin/python scripts/bench_store_open.py --sizes 1e6 1e7 --out docs/results/scale
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}

_BUILD = r"""
import sys, numpy as np
from authorag.priors.store.mapped import write_store
n = int(sys.argv[2])
write_store(sys.argv[1], [f"d{i}x.com" for i in range(n)], np.random.default_rng(0).random(n),
            raw=np.arange(1, n + 1))
"""

_CHILD = r"""
import json, sys, time
from authorag.priors.store.mapped import PriorStore, _open
from pathlib import Path
def rss_file():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("RssFile")) / 1024
path, repeats = Path(sys.argv[1]), int(sys.argv[2])
header, full, paged = [], [], None
for _ in range(repeats):
    t = time.perf_counter(); mm, _h = _open(path); header.append(time.perf_counter() - t); mm.close()
    before = rss_file()
    t = time.perf_counter(); store = PriorStore(path); full.append(time.perf_counter() - t)
    paged = rss_file() - before if paged is None else paged
    del store
print(json.dumps({"header_ms": min(header) * 1e3, "open_ms": min(full) * 1e3, "rss_file_mb": paged}))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, help="write store_open.json here")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            n = int(size)
            path = Path(tmp) / f"s{n}.store"
            subprocess.run([sys.executable, "-c", _BUILD, str(path), str(n)], check=True, env=_ENV)
            out = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(args.repeats)], check=True,
                                 env=_ENV, capture_output=True, text=True).stdout
            row = {"entries": n, "file_mb": path.stat().st_size / 2**20, **json.loads(out)}
            row["ratio"] = row["open_ms"] / row["header_ms"]
            rows.append(row)
            path.unlink()
            print(f"{n:>12,} entries: header checks {row['header_ms']:.2f} ms, full open {row['open_ms']:.1f} ms "
                  f"({row['ratio']:.0f}x), file pages read {row['rss_file_mb']:.0f} MB of {row['file_mb']:.0f} MB")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        result = {"command": "scripts/bench_store_open.py --sizes " + " ".join(f"{s:g}" for s in args.sizes),
                  "load_average": os.getloadavg()[0], "rows": rows}
        (args.out / "store_open.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
