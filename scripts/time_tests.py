"""Wall and CPU time of the default test suite (what `bash scripts/test.sh` runs after pyright).

Runs pytest in a child process with this interpreter and writes its wall time, CPU time (user +
system of the child and its children), the counts pytest reports and the machine's load to a JSON
file (README quotes docs/results/test_suite.json):

    nice python scripts/time_tests.py --out docs/results/test_suite.json

Extra arguments go to pytest. The load average says how busy the machine was: on a shared machine
the wall time is longer than on an idle one, the CPU time much less so.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description="Wall and CPU time of the default test suite.")
    ap.add_argument("--out", type=Path, required=True, help="JSON file to write")
    args, pytest_args = ap.parse_known_args()
    load_start = os.getloadavg()[0]
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args],
                          capture_output=True, text=True, check=False)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|skipped|deselected|errors?|xfailed|xpassed)",
                                                 summary)}
    result = {"version": 1, "command": "nice python scripts/time_tests.py --out docs/results/test_suite.json",
              "pytest_exit_code": proc.returncode, "summary": summary, "counts": counts,
              "wall_s": round(wall), "cpu_s": round(usage.ru_utime + usage.ru_stime),
              "load_average_start": round(load_start, 2), "load_average_end": round(os.getloadavg()[0], 2),
              "cpus": os.cpu_count(), "python": platform.python_version(), "date": time.strftime("%Y-%m-%d")}
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
