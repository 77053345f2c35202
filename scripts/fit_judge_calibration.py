"""Fit the judge → prior calibration shipped as ``authorag/data/judge_calibration.json``.

Pairs (PointJudge score, default-prior authority) on domains the prior table knows (tier
``table``), fitted by isotonic regression (:meth:`authorag.judges.calibration.Calibration.fit`).
Judge scores come from two places:
  * ``--from-results``: the per-domain PointJudge scores saved by ``scripts/measure_judges.py``
    (DomainAuth-open web track: Majestic head domains, mostly high authority);
  * ``--extra N``: N more domains from the prior's lower range (authority < 0.6, stratified in
    4 bins, seed 0), judged here with the same local model, so that the fit covers the tail.

Run:
    .venv/bin/python scripts/fit_judge_calibration.py \
        --from-results docs/results/judges_domainauth_web.json --extra 40 --threads 1
"""
from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

from scipy import stats

from authorag.judges.calibration import Calibration
from authorag.judges.prompts import prompt_id
from authorag.priors.table import load_prior

OUT = Path("authorag/data/judge_calibration.json")


def tail_sample(n: int, seed: int, skip: set[str]) -> list[str]:
    prior = load_prior()
    bins: list[list[str]] = [[], [], [], []]
    for key in sorted(prior.keys()):
        if key in skip or "." not in key:
            continue
        detail = prior.lookup(key)
        if detail.tier == "table" and detail.authority is not None and detail.authority < 0.6:
            bins[min(3, int(detail.authority / 0.15))].append(key)
    rng = random.Random(seed)
    out: list[str] = []
    for b in bins:
        out += rng.sample(b, min(len(b), n // 4))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from-results", type=Path)
    parser.add_argument("--extra", type=int, default=0)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    scores: dict[str, float] = {}
    if args.from_results:
        point = json.loads(args.from_results.read_text("utf-8"))["judges"]["point"]
        scores.update({k: v for k, v in point["item_scores"].items() if v is not None})
    if args.extra:
        from authorag.judges.backends.local import LocalBackend
        from authorag.judges.point_judge import PointJudge

        extra = tail_sample(args.extra, args.seed, set(scores))
        run = PointJudge(LocalBackend(args.model, n_threads=args.threads), on_failure="skip").judge(extra)
        scores.update({s.key: s.score for s in run.scores if s.score is not None})
    prior = load_prior()
    pairs = [(v, prior.lookup(k)) for k, v in sorted(scores.items())]
    pairs = [(j, d.authority) for j, d in pairs if d.tier == "table" and d.authority is not None]
    xs, ys = [p[0] for p in pairs], [float(p[1]) for p in pairs]
    rho = float(stats.spearmanr(xs, ys).statistic)
    note = (f"isotonic fit of default-prior authority on PointJudge score over {len(xs)} table domains "
            f"(Spearman judge vs prior {rho:.3f}); made by scripts/fit_judge_calibration.py "
            f"--from-results {args.from_results} --extra {args.extra} --seed {args.seed}")
    cal = Calibration.fit(xs, ys, kind="isotonic", model=args.model, prompt_version=prompt_id("authority_point"), note=note)
    OUT.write_text(json.dumps(cal.to_dict(), indent=1) + "\n", encoding="utf-8")
    print(note)
    print("knots:", [(round(x, 3), round(y, 3)) for x, y in zip(cal.x, cal.y)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
