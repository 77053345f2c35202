"""What the local LLM judge changes in `authorag demo`: the demo's three orders with and without it.

Runs the bundled example four ways (no judge / the local judge, each with page evidence on and
off), records every page's trust, the tier that set it, the judge's rating and the three orders,
and says which of them differ. README quotes the JSON:

    python scripts/demo_judge_effect.py --out docs/results/demo_judge.json

Needs the model extra (``scripts/setup.sh --model``); judge answers come from the judge cache
after the first run.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from authorag.adapters import build_reranker
from authorag.cli.demo import DemoResult, compute_demo, trust_tier
from authorag.compose import ScorerSettings, load_scorer
from authorag.scores import TRUST_SCORE
from authorag.trust import trust_rule_for

RUNS = {"no judge": ("none", True), "local judge": ("local", True),
        "no judge, no page evidence": ("none", False), "local judge, no page evidence": ("local", False)}


def _run(judge: str, page: bool) -> dict[str, Any]:
    reranker = build_reranker(load_scorer(ScorerSettings(judge=judge, page_evidence=page)), "bm25")[0]  # type: ignore[arg-type]
    start = time.monotonic()
    result: DemoResult = compute_demo(reranker)
    wall = time.monotonic() - start
    rule = trust_rule_for(reranker.policy.unknown_level)
    pages = {str(c.domain): {"trust": round(c.scores[TRUST_SCORE], 4), "trust_set_by": trust_tier(c, rule),
                             "detail_tier": None if c.authority is None else c.authority.tier,
                             "judge_authority": (None if c.authority is None or c.authority.tier != "judge"
                                                 else round(float(c.authority.authority or 0.0), 4)),
                             "nist_credible": bool(c.metadata["nist_credibility"])}
             for c in result.after.candidates}
    orders = {name: [str(c.domain) for c in r.candidates]
              for name, r in (("before", result.before), ("after", result.after), ("filtered", result.filtered))}
    top3 = {name: sum(1 for d in order[:3] if pages[d]["nist_credible"]) for name, order in orders.items()}
    return {"scorer": reranker.scorer.name, "wall_s": round(wall, 2), "orders": orders,
            "top3_nist_credible": top3, "pages": pages}


def main() -> int:
    ap = argparse.ArgumentParser(description="What the local LLM judge changes in `authorag demo`.")
    ap.add_argument("--out", type=Path, required=True, help="JSON file to write")
    args = ap.parse_args()
    runs = {name: _run(judge, page) for name, (judge, page) in RUNS.items()}

    def same(a: str, b: str) -> dict[str, bool]:
        ra, rb = runs[a], runs[b]
        return {"orders": ra["orders"] == rb["orders"],
                "trust": {d: p["trust"] for d, p in ra["pages"].items()} == {d: p["trust"] for d, p in rb["pages"].items()}}

    result = {"version": 1, "command": "python scripts/demo_judge_effect.py --out docs/results/demo_judge.json",
              "load_average": os.getloadavg()[0], "cpus": os.cpu_count(), "runs": runs,
              "same_with_and_without_judge": {"with page evidence": same("no judge", "local judge"),
                                        "without page evidence": same("no judge, no page evidence",
                                                                      "local judge, no page evidence")}}
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["same_with_and_without_judge"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
