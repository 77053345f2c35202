"""Fill the measured tables of docs/scale.md from the committed results in docs/results/scale.

Each table sits between ``<!-- table:NAME -->`` and ``<!-- /table:NAME -->``; this script
rewrites what is between the markers, so the numbers in the doc are always the JSON's.

    .venv/bin/python scripts/scale_tables.py            # rewrite docs/scale.md
    .venv/bin/python scripts/scale_tables.py --check    # exit 1 if the doc is out of date
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results" / "scale"
DOC = ROOT / "docs" / "scale.md"


def _load(name: str) -> dict[str, Any] | None:
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


def store_table(r: dict[str, Any]) -> str:
    budgets = list(r["points"][0]["builds"])
    rows = [(f"| domains | build wall s (CPU s), --memory {' / '.join(budgets)} | build peak RSS MB (bytes per row) "
             "| file MB | open ms | lookup µs hit / miss (CPU) | RSS growth MB after 100k hits (anon) | "
             "PriorTable lookup µs with / without store |"), "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in r["points"]:
        b = p["builds"]
        build = " / ".join(f"{b[m]['build_s']:.0f} ({b[m]['build_cpu_s']:.0f})" for m in budgets)
        peak = " / ".join(f"{b[m]['build_peak_rss_mb']:.0f} ({b[m]['peak_bytes_per_row']:.0f})" for m in budgets)
        rows.append(f"| {p['domains']:,} | {build} | {peak} | {p['store_mb']:.0f} | {p['open_s'] * 1e3:.2f} | "
                    f"{p['present_lookup_cpu_us']:.1f} / {p['absent_lookup_cpu_us']:.1f} | "
                    f"{p['rss_growth_mb']:.0f} ({p['anon_growth_mb']:.0f}) | "
                    f"{p['table_lookup_us']:.0f} / {p['table_without_store_us']:.0f} |")
    pr = r["projected_100M"]
    rows.append(f"| 100,000,000 (projected) | {pr['build_s']:.0f} ({pr['build_cpu_s']:.0f}), --memory {budgets[-1]} | | "
                f"{pr['store_mb']:.0f} | {pr['open_s'] * 1e3:.2f} | {pr['present_lookup_cpu_us']:.1f} | | |")
    same = all(p["stores_identical"] for p in r["points"])
    return ("\n".join(rows) + f"\n\n`{r['command']}`; stores byte-identical across budgets: {'yes' if same else 'NO'}; "
            f"load average at the end {r['machine']['load_average_at_end'][0]:.1f}")


def spark_table(r: dict[str, Any]) -> str:
    rows = [("| links | domains | edges | scipy s | Spark s (graph s) | iterations Spark / scipy | "
            "max abs diff PageRank | max abs diff score |"), "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in r["pagerank"]:
        rows.append(f"| {p['links']:,} | {p['domains']:,} | {p['edges']:,} | {p['scipy_s']:.1f} | "
                    f"{p['spark_s']:.0f} ({p['spark_graph_s']:.0f}) | {p['iterations_spark']} / "
                    f"{p['iterations_scipy']} | {p['max_abs_diff_pagerank']:.1e} | {p['max_abs_diff_score']:.1e} |")
    rows += ["", "| URLs | Spark annotate s | single process µs per URL |", "|---:|---:|---:|"]
    rows += [f"| {a['urls']:,} | {a['spark_s']:.0f} | {a['single_process_us_per_url']:.0f} |" for a in r["annotate"]]
    e = r["extrapolated"]
    pr, ann = e["pagerank_core_hours_per_billion_links"], e["annotate_core_hours_per_billion_urls"]
    rows += ["", (f"Per billion, on {r['cores']} local cores: PageRank {_per_billion(pr)} core-hours per billion links "
                  f"(scipy, one core: {e['scipy_core_hours_per_billion_links']:,.1f} hours, if the graph fit in memory); "
                  f"annotation {_per_billion(ann)} core-hours per billion URLs (single process: "
                  f"{e['single_process_hours_per_billion_urls']:,.0f} hours).")]
    return "\n".join(rows) + f"\n\n`{r['command']}`; load average at the end {r['load_average_at_end'][0]:.1f}"


def _per_billion(v: dict[str, float]) -> str:
    """``12 marginal (30 average)``: the slope between the two largest runs, then the average of the largest."""
    if "marginal" in v:
        return f"{v['marginal']:,.1f} marginal ({v['average']:,.1f} average at the largest size)"
    return f"{v['average']:,.1f} (average at the largest size)"


def cache_table(r: dict[str, Any]) -> str:
    rows = ["| cache | get median µs | get p99 µs | put median µs | put p99 µs |", "|---|---:|---:|---:|---:|"]
    for name, v in r["results"].items():
        rows.append(f"| {name} | {v['get_median_us']:.0f} | {v['get_p99_us']:.0f} | {v['put_median_us']:.0f} | "
                    f"{v['put_p99_us']:.0f} |")
    return "\n".join(rows) + f"\n\n`{r['command']}`"


TABLES = {"store": ("store.json", store_table), "spark": ("spark.json", spark_table),
          "cache": ("cache.json", cache_table)}


def render(doc: str) -> str:
    for name, (file, fn) in TABLES.items():
        data = _load(file)
        body = fn(data) if data is not None else f"(no {file} yet: run the command above)"
        pattern = re.compile(rf"(<!-- table:{name} -->\n)(?:.*?\n)?(<!-- /table:{name} -->)", re.DOTALL)
        doc = pattern.sub(lambda m, text=body: m.group(1) + text + "\n" + m.group(2), doc)
    return doc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    old = DOC.read_text()
    new = render(old)
    if args.check:
        if new != old:
            print("docs/scale.md is out of date: run scripts/scale_tables.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
