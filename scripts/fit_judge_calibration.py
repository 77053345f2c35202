"""Fit the judge → prior calibration shipped as ``authorag/data/judge_calibration.json``.

Pairs (PointJudge score, default-prior authority) on domains the prior table knows (tier
``table``), fitted by isotonic regression (:meth:`authorag.judges.calibration.Calibration.fit`).
Judge scores come from two places:
  * ``--from-results``: the per-domain PointJudge scores saved by ``scripts/measure_judges.py``
    (DomainAuth-open web track: Majestic head domains, mostly high authority);
  * ``--extra N``: N more domains from the prior's lower range (authority < 0.6, stratified in
    4 bins, seed 0), judged here with the same local model, so that the fit covers the tail.

With ``--scale unknown`` the fit is made for domains no table knows, like the tail-aware
learned prior (:mod:`authorag.priors.learned.train`): ``--tail N`` more domains are judged from
the tail lists (:mod:`authorag.priors.learned.tail_data`: UT1 low categories, UT1 press/blog, CRED-1;
seeded, equal thirds) with their tail targets, the head pairs keep their table values, the
tail carries half of the total weight, and the weighted isotonic map (E[target | judge score])
is stored with ``scale: "unknown"``, so the hybrid does not shrink the value again.
``--tail-sources ut1`` leaves CRED-1 out (it derives from MBFC).

Run:
    .venv/bin/python scripts/fit_judge_calibration.py \
        --from-results docs/results/judges_domainauth_web.json --extra 40 --threads 1
    .venv/bin/python scripts/fit_judge_calibration.py --scale unknown --tail 60 \
        --from-results docs/results/judges_domainauth_web.json --extra 40 --threads 1 --out FILE.json
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
    parser.add_argument("--scale", choices=["table", "unknown"], default="table")
    parser.add_argument("--tail", type=int, default=0, help="tail domains to judge (--scale unknown)")
    parser.add_argument("--tail-sources", default="ut1,cred1")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    scores: dict[str, float] = {}
    if args.from_results:
        point = json.loads(args.from_results.read_text("utf-8"))["judges"]["point"]
        scores.update({k: v for k, v in point["item_scores"].items() if v is not None})
    to_judge = tail_sample(args.extra, args.seed, set(scores)) if args.extra else []
    tail: dict[str, float] = {}
    if args.scale == "unknown" and args.tail:
        tail = unknown_sample(args.tail, args.seed, tuple(args.tail_sources.split(",")))
        to_judge += sorted(tail)
    if to_judge:
        from authorag.judges.backends.local import LocalBackend
        from authorag.judges.point_judge import PointJudge

        run = PointJudge(LocalBackend(args.model, n_threads=args.threads), on_failure="skip").judge(to_judge)
        scores.update({s.key: s.score for s in run.scores if s.score is not None})
    prior = load_prior()
    pairs = [(v, prior.lookup(k)) for k, v in sorted(scores.items()) if k not in tail]
    pairs = [(j, d.authority) for j, d in pairs if d.tier == "table" and d.authority is not None]
    xs, ys = [p[0] for p in pairs], [float(p[1]) for p in pairs]
    if args.scale == "unknown":
        return _fit_unknown(args, xs, ys, [(scores[k], t) for k, t in sorted(tail.items()) if k in scores])
    rho = float(stats.spearmanr(xs, ys).statistic)
    note = (f"isotonic fit of default-prior authority on PointJudge score over {len(xs)} table domains "
            f"(Spearman judge vs prior {rho:.3f}); made by scripts/fit_judge_calibration.py "
            f"--from-results {args.from_results} --extra {args.extra} --seed {args.seed}")
    cal = Calibration.fit(xs, ys, kind="isotonic", model=args.model, prompt_version=prompt_id("authority_point"), note=note)
    args.out.write_text(json.dumps(cal.to_dict(), indent=1) + "\n", encoding="utf-8")
    print(note)
    print("knots:", [(round(x, 3), round(y, 3)) for x, y in zip(cal.x, cal.y)])
    return 0


def unknown_sample(n: int, seed: int, sources: tuple[str, ...]) -> dict[str, float]:
    """``n`` tail domains no prior source knows (equal parts: UT1 low, UT1 press/blog, CRED-1) → target."""
    from authorag.priors.learned.tail_data import UT1_TARGETS, source_targets

    prior = load_prior()
    unknown = [(d, t) for name in sources for d, t in sorted(source_targets(name).items())
               if prior.lookup(d).authority is None]
    low = [r for r in unknown if r[0] in source_targets("ut1") and r[1] < min(UT1_TARGETS.values()) + 1e-9]
    low_set = set(low)
    neutral = [r for r in unknown if r[0] in source_targets("ut1") and r not in low_set]
    cred = [r for r in unknown if "cred1" in sources and r[0] in source_targets("cred1")]
    rng = random.Random(seed)
    groups = [g for g in (low, neutral, cred) if g]
    out: dict[str, float] = {}
    for g in groups:
        out.update(rng.sample(g, min(len(g), n // len(groups))))
    return out


def _fit_unknown(args: argparse.Namespace, xs: list[float], ys: list[float],
                 tail: list[tuple[float, float]]) -> int:
    """Weighted isotonic fit over head pairs (table values) and tail pairs (tail targets), half each."""
    if not tail:
        raise SystemExit("--scale unknown needs judged tail domains: pass --tail N (N > 0)")
    w_tail = len(xs) / len(tail)
    all_x = xs + [j for j, _ in tail]
    all_y = ys + [t for _, t in tail]
    weights = [1.0] * len(xs) + [w_tail] * len(tail)
    rho_tail = float(stats.spearmanr([j for j, _ in tail], [t for _, t in tail]).statistic)
    note = (f"unknown-scale isotonic fit over {len(xs)} table domains (table value) + {len(tail)} tail domains "
            f"(tail target, sources {args.tail_sources}; half of the weight), Spearman judge vs tail target "
            f"{rho_tail:.3f}; made by scripts/fit_judge_calibration.py --scale unknown --tail {args.tail} "
            f"--from-results {args.from_results} --extra {args.extra} --seed {args.seed}")
    cal = Calibration.fit(all_x, all_y, kind="isotonic", weights=weights, model=args.model,
                          prompt_version=prompt_id("authority_point"), note=note, scale="unknown")
    args.out.write_text(json.dumps(cal.to_dict(), indent=1) + "\n", encoding="utf-8")
    print(note)
    print("knots:", [(round(x, 3), round(y, 3)) for x, y in zip(cal.x, cal.y)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
