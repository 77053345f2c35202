"""Peak memory of the embedded judge: one `authorag judge` call with the default 1.5B model.

Runs the CLI in a child process (no judge cache, so the model really loads and answers) and
writes its peak resident memory and wall time to a JSON file (docs quote docs/results/judge_memory.json):

    python scripts/judge_memory.py --out docs/results/judge_memory.json
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

COMMAND = ["judge", "--method", "point", "--no-cache", "nih.gov", "free-cash-prizes-4u.biz"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="JSON file to write")
    args = ap.parse_args()
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "authorag", *COMMAND], capture_output=True, text=True, check=False)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"authorag {' '.join(COMMAND)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # Linux: KiB
    result = {"version": 1, "command": "authorag " + " ".join(COMMAND), "peak_rss_mib": round(peak_mib),
              "wall_s": round(wall, 1), "load_average": os.getloadavg()[0], "machine": platform.machine(),
              "cpus": os.cpu_count(), "output": proc.stdout.splitlines()}
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"peak RSS {peak_mib:.0f} MiB, {wall:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
