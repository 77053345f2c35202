"""Table + constant vs the default with the old and the tail-aware learned tier.

Runs ``authorag.benchmarks.compare`` (the comparison tracks; needs the tracks' ``bench compare``)
twice, leave-source-out everywhere:

* every track whose labels are not MBFC-derived (tail-trec2019, hosted-urls, RAGAuth resampled
  k = 1/3/5, DomainAuth news fine/coarse with unknowns, DomainAuth web): the learned tier
  trains on UT1 + CRED-1 tail rows (``default:learned=true``);
* CredAuth MBFC and Baly (MBFC-derived labels): CRED-1 derives from MBFC, so the tail-aware
  tier trains on UT1 only (``default:learned=true,learned_tail=ut1``).

Columns: ``table-const`` (the baseline), ``default`` (reserved > hosted > table),
``default:learned=true,learned_tail=`` (the head-only learned prior of earlier releases, shrunk
by the hybrid), and the tail-aware tier. Learned priors without a track's label source are
trained once and cached (``authorag.priors.learned.train.learned_prior_for``).

Run (minutes; under the CPU lock on a shared machine):
    .venv/bin/python scripts/compare_learned_tiers.py --out /tmp/learned-compare
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from scipy import stats

from authorag.benchmarks.compare import CompareConfig, run_compare

OLD = "default:learned=true,learned_tail="
PLAIN = ("tail-trec2019", "hosted-urls", "ragauth-trec2019-resampled", "domainauth-news-fine",
         "domainauth-news-coarse", "domainauth-web-fine")
MBFC_DERIVED = ("credauth-mbfc", "credauth-baly")


def news_diagnostic() -> dict[str, float]:
    """How much the tail-aware tier knows about the news domains the table does not know
    (CC-News left out everywhere): their share and Spearman ρ of learned value vs level."""
    from authorag.benchmarks.registry import load_task
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.types import candidates_from

    items = load_task("domainauth-news-fine").items
    scorer = load_scorer(ScorerSettings(learned=True, exclude_sources=("ccnews_pagerank",)))
    details = scorer.score(candidates_from([i.url for i in items]))
    learned = [(d.authority, i.level) for d, i in zip(details, items, strict=True) if d.tier == "learned"]
    values, levels = np.array([v for v, _ in learned], dtype=float), np.array([lv for _, lv in learned])
    return {"domains": len(items), "learned_scored": len(learned), "learned_share": round(len(learned) / len(items), 4),
            "spearman_learned_vs_level": round(float(stats.spearmanr(values, levels).statistic), 4),
            "distinct_learned_values": len(np.unique(values))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="output folder (two sub-folders: plain, mbfc)")
    ap.add_argument("--lists", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    runs = {"plain": (PLAIN, ("table-const", "default", OLD, "default:learned=true")),
            "mbfc": (MBFC_DERIVED, ("table-const", "default", OLD, "default:learned=true,learned_tail=ut1"))}
    for name, (tracks, methods) in runs.items():
        cfg = CompareConfig(methods=methods, tracks=tracks, n_lists=args.lists, seed=args.seed, rerank_relevance=())
        run_compare(cfg, args.out / name, log=lambda m: print(m, flush=True))
        print(f"wrote {args.out / name / 'compare.md'}", flush=True)
    diag = news_diagnostic()
    (args.out / "news_unknown_diagnostic.json").write_text(json.dumps(diag, indent=1, sort_keys=True) + "\n")
    print(diag, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
