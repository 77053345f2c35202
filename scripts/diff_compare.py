"""Row by row, what changed between two benchmark tables (``compare.json`` of ``authorag bench tracks`` or
``authorag bench compare``), and whether rows that must not move stayed identical.

Prints a markdown table of every row whose value differs (before, after, the difference), then
checks that each row whose name matches ``--same`` (a regular expression) is identical in value and
CI, and exits 1 when one is not.

Usage:
    python scripts/diff_compare.py BEFORE/compare.json AFTER/compare.json [--same 'lang en|^no-harm-lists']
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

Cells = dict[str, dict[str, Any]]


def rows(path: Path) -> dict[str, Cells]:
    """Row name -> cells (method -> value and CI) of one compare.json, either shape."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if "table" in data:  # bench compare
        return {**data["table"], **data.get("detail_table", {})}
    out: dict[str, Cells] = {}
    for track in data["tracks"]:
        for row in [*track["rows"], *track["breakdown"]]:
            out[f"{track['track']} | {row['name']}"] = row["cells"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Row by row, what changed between two benchmark tables.")
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--method", default="default", help="the column to compare (default: default)")
    ap.add_argument("--same", help="regular expression: rows it matches must be identical (value and CI)")
    args = ap.parse_args(argv)
    before, after = rows(args.before), rows(args.after)
    print(f"| track | row | {args.method} before | after | Δ |\n|---|---|---|---|---|")
    for name in sorted(before.keys() & after.keys()):
        b, a = before[name].get(args.method), after[name].get(args.method)
        if b is None or a is None or b["value"] == a["value"]:
            continue
        print(f"| {name} | {b['value']:.3f} | {a['value']:.3f} | {a['value'] - b['value']:+.3f} |")
    moved = [name for name in sorted(before.keys() | after.keys())
             if args.same and re.search(args.same, name) and before.get(name) != after.get(name)]
    checked = sum(1 for name in before if args.same and re.search(args.same, name))
    if args.same:
        print(f"\nrows matching {args.same!r}: {checked}, identical: {checked - len(moved)}")
    for name in moved:
        print(f"NOT IDENTICAL: {name}", file=sys.stderr)
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
