"""URL-only trust on the hand-written trust pairs v2: is the trusted page's trust above the other's?

No relevance and no page text: only what the default scorer (``load_scorer(ScorerSettings())``)
and the trust rule say about the two URLs, per split, kind and language. A tie counts as a miss.
It isolates the prior's part of the ``trust-pairs-v2`` track of ``authorag bench tracks``.

Usage::

    python scripts/url_trust_pairs.py [--out FILE]
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import defaultdict
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authorag.compose import ScorerSettings, load_scorer
from authorag.trust import DEFAULT_TRUST_RULE
from authorag.types import candidates_from


def measure() -> dict[str, object]:
    with resources.files("authorag.benchmarks.data").joinpath("trust_pairs_v2.jsonl.gz").open("rb") as raw:
        cases = [json.loads(line) for line in gzip.decompress(raw.read()).decode("utf-8").splitlines() if line]
    scorer = load_scorer(ScorerSettings())
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses: list[dict[str, object]] = []
    for case in cases:
        trusted, other = scorer.score(candidates_from([case["trusted"]["url"], case["untrusted"]["url"]]))
        t, o = DEFAULT_TRUST_RULE.value(trusted), DEFAULT_TRUST_RULE.value(other)
        for group in ("all", f"kind {case['kind']}", f"lang {case['lang']}"):
            counts[f"{case['split']} {group}"][0] += t > o
            counts[f"{case['split']} {group}"][1] += 1
        if not t > o:
            misses.append({"id": case["id"], "trusted": case["trusted"]["url"], "other": case["untrusted"]["url"],
                           "trusted_trust": round(t, 3), "other_trust": round(o, 3)})
    return {"command": "python scripts/url_trust_pairs.py",
            "trusted_first": {k: {"right": v[0], "pairs": v[1], "share": round(v[0] / v[1], 3)}
                              for k, v in sorted(counts.items())},
            "misses": misses}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    text = json.dumps(measure(), indent=1, ensure_ascii=False)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
