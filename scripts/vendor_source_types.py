"""Vendor the UT1 categories the source-type classifier uses (``authorag/suitability/ut1_source_types.csv.gz``).

Run once by a maintainer: ``python scripts/vendor_source_types.py [SHARED_DATA_DIR]``. The output
is committed (CC BY-SA 4.0, "UT1 blacklists, Université Toulouse Capitole"; see
``data/provenance/ut1_blacklists.md``), so nothing at install or run time reads ../shared.
Deterministic: sorted rows, gzip mtime 0.

Only the categories that name a source type are kept; IP addresses are dropped. A domain listed in
several kept categories keeps the first category in ``CATEGORIES`` order (the more specific type
first: a forum that also sells something stays a forum).
"""
from __future__ import annotations

import csv
import gzip
import io
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "authorag" / "suitability" / "ut1_source_types.csv.gz"
PROV_OUT = ROOT / "data" / "provenance" / "ut1_blacklists.md"

CATEGORIES: tuple[tuple[str, str], ...] = (
    ("forums", "forum"),
    ("social_networks", "social"),
    ("blog", "blog"),
    ("press", "news"),
    ("audio-video", "social"),
    ("shopping", "commercial"),
)
"""UT1 category -> source type, most specific first."""

_IP = re.compile(r"^[0-9.]+$")


def main(argv: list[str]) -> int:
    src = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "data"
    src = src / "ut1_blacklists"
    seen: dict[str, tuple[str, str]] = {}
    for category, stype in CATEGORIES:
        with gzip.open(src / f"{category}.domains.gz", "rt", encoding="utf-8") as f:
            for line in f:
                host = line.strip().lower()
                if host and not _IP.match(host) and "/" not in host and host not in seen:
                    seen[host] = (stype, category)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["host", "source_type", "ut1_category"])
    writer.writerows([h, t, c] for h, (t, c) in sorted(seen.items()))
    with open(OUT, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(buf.getvalue().encode("utf-8"))
    shutil.copyfile(src / "PROVENANCE.md", PROV_OUT)
    print(f"{OUT.relative_to(ROOT)}: {len(seen)} rows, {OUT.stat().st_size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
