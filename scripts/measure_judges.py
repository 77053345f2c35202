"""Measure the authority judges on DomainAuth-open (web track) with the local model.

DomainAuth-open web track: the vendored Majestic top-15k (``authorag/data/majestic_top15k.csv.gz``),
keys normalized to registrable domains (first row per domain kept), level10 = equal-frequency
deciles of RefSubNets. ``--lists`` lists of 10 domains, one per level, sampled without
replacement with ``--seed``. For each judge: Spearman rho and Kendall tau (b) per list against
the levels, averaged; calls, tokens, wall time, parse failures. The prior-only baseline uses
``load_prior(exclude=("majestic",))`` on the same lists (leave-source-out); domains it does not
cover count as unknown (tied at the bottom) and coverage is reported.

Run (about 1 h on 2 shared cores):
    .venv/bin/python scripts/measure_judges.py --lists 20
Writes docs/results/judges_domainauth_web.json and .md (rewritten after every method).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from scipy import stats

from authorag.domains import parse_host
from authorag.judges.base import JudgeBase
from authorag.priors.table import load_prior

OUT = Path("docs/results/judges_domainauth_web")


def web_levels() -> dict[str, int]:
    """Registrable domain -> level10 (equal-frequency deciles of ref_subnets)."""
    raw = resources.files("authorag.data").joinpath("majestic_top15k.csv.gz").read_bytes()
    rows = list(csv.DictReader(gzip.decompress(raw).decode("utf-8").splitlines()))
    subnets: dict[str, int] = {}
    for row in rows:
        parsed = parse_host(row["domain"], strict=False)
        if parsed.kind != "domain" or parsed.domain is None or parsed.domain in subnets:
            continue
        subnets[parsed.domain] = int(row["ref_subnets"])
    ordered = sorted(subnets, key=lambda d: (subnets[d], d))
    n = len(ordered)
    return {d: min(9, (10 * i) // n) for i, d in enumerate(ordered)}


def sample_lists(levels: dict[str, int], n_lists: int, seed: int) -> list[list[tuple[str, int]]]:
    """``n_lists`` lists with one domain per level (no domain reused), shuffled, seeded."""
    rng = random.Random(seed)
    pools = {lv: sorted(d for d, v in levels.items() if v == lv) for lv in range(10)}
    for pool in pools.values():
        rng.shuffle(pool)
    lists: list[list[tuple[str, int]]] = []
    for k in range(n_lists):
        items = [(pools[lv][k], lv) for lv in range(10)]
        rng.shuffle(items)
        lists.append(items)
    return lists


def correlations(levels: Sequence[int], scores: Sequence[float]) -> tuple[float, float]:
    """(Spearman rho, Kendall tau-b); a constant prediction counts as 0 (no information)."""
    if len(set(scores)) < 2:
        return 0.0, 0.0
    rho = float(stats.spearmanr(levels, scores).statistic)
    tau = float(stats.kendalltau(levels, scores).statistic)
    return (0.0 if math.isnan(rho) else rho), (0.0 if math.isnan(tau) else tau)


def summarize(per_list: list[tuple[float, float]]) -> dict[str, Any]:
    rhos = [r for r, _ in per_list]
    taus = [t for _, t in per_list]
    return {
        "lists": len(per_list),
        "spearman_mean": statistics.fmean(rhos) if rhos else None,
        "spearman_sd": statistics.stdev(rhos) if len(rhos) > 1 else None,
        "kendall_mean": statistics.fmean(taus) if taus else None,
        "per_list_spearman": [round(r, 4) for r in rhos],
    }


def prior_baseline(lists: list[list[tuple[str, int]]]) -> dict[str, Any]:
    prior = load_prior(exclude=("majestic",))
    per_list: list[tuple[float, float]] = []
    known_only: list[tuple[float, float]] = []
    covered = total = 0
    for items in lists:
        values = [prior.lookup(d).authority for d, _ in items]
        covered += sum(v is not None for v in values)
        total += len(values)
        per_list.append(correlations([lv for _, lv in items], [-1.0 if v is None else v for v in values]))
        pairs = [(lv, v) for (_, lv), v in zip(items, values) if v is not None]
        if len(pairs) >= 3:
            known_only.append(correlations([p[0] for p in pairs], [p[1] for p in pairs]))
    out = summarize(per_list)
    out.update(
        sources=list(prior.source_names), coverage=covered / total,
        known_only=summarize(known_only), unknown_policy="unknown tied below every known domain",
    )
    return out


def run_judge(name: str, judge: JudgeBase, lists: list[list[tuple[str, int]]], deadline: float) -> dict[str, Any]:
    per_list: list[tuple[float, float]] = []
    totals = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "attempts": 0, "parse_failures": 0, "skipped": 0}
    modes: dict[str, int] = {}
    item_scores: dict[str, float | None] = {}
    counts: dict[str, int] = {}
    start = time.perf_counter()
    for k, items in enumerate(lists):
        if time.perf_counter() > deadline:
            print(f"{name}: time budget reached after {k} lists", flush=True)
            break
        run = judge.judge([d for d, _ in items])
        scores = [s.score for s in run.scores]
        totals["skipped"] += sum(s is None for s in scores)
        for s in run.scores:
            modes[str(s.mode)] = modes.get(str(s.mode), 0) + 1
            item_scores[s.key] = None if s.score is None else round(s.score, 5)
        per_list.append(correlations([lv for _, lv in items], [-1.0 if s is None else s for s in scores]))
        for key in ("calls", "prompt_tokens", "completion_tokens"):
            totals[key] += int(getattr(run.cost, key))
        for key, value in run.stats.items():
            if isinstance(value, int):
                counts[key] = counts.get(key, 0) + value
        totals["attempts"] += run.attempts
        totals["parse_failures"] += run.parse_failures
        print(f"{name} list {k}: rho={per_list[-1][0]:.3f} calls={run.cost.calls} t={time.perf_counter() - start:.0f}s", flush=True)
    out = summarize(per_list)
    out.update(totals, wall_s=round(time.perf_counter() - start, 1), modes=modes, prompt=judge_prompt(judge),
               item_scores=item_scores, stats=counts, stats_lists=len(per_list))
    return out


def judge_prompt(judge: JudgeBase) -> str:
    return str(getattr(judge, "prompt", "")) or {"point": "authority_point_v1", "list": "authority_list_score_v1"}.get(judge.method, "")


def make_judges(backend: Any) -> dict[str, Callable[[], JudgeBase]]:
    from authorag.judges.list_judge import ListJudge
    from authorag.judges.pair_judge import PairJudge
    from authorag.judges.point_judge import PointJudge

    return {
        "point": lambda: PointJudge(backend, on_failure="skip"),
        "list": lambda: ListJudge(backend, output="score", on_failure="skip"),
        "pair": lambda: PairJudge(backend, variant="point_score", aggregate="average", pairs="anchor", on_failure="skip"),
    }


def write(result: dict[str, Any]) -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    OUT.with_suffix(".md").write_text(markdown(result), encoding="utf-8")


def bootstrap_ci(values: Sequence[float], n_boot: int = 1000, seed: int = 0) -> tuple[float, float] | None:
    """95 % percentile bootstrap CI of the mean over lists."""
    if len(values) < 2:
        return None
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(n_boot))
    return means[int(0.025 * n_boot)], means[int(0.975 * n_boot) - 1]


def _ci(values: Sequence[float]) -> str:
    ci = bootstrap_ci(values)
    return "–" if ci is None else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def _same(r: dict[str, Any], method: str, n: int) -> str:
    """Mean rho of ``method`` over the first ``n`` lists (the lists another method reached)."""
    m = r["judges"].get(method)
    if not m or m["lists"] < n or n == 0:
        return "–"
    return _fmt(statistics.fmean(m["per_list_spearman"][:n]))


def _fmt(x: Any, digits: int = 3) -> str:
    return "–" if x is None else f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def markdown(r: dict[str, Any]) -> str:
    lines = [
        "# Authority judges on DomainAuth-open (web track)", "",
        (f"Generated by `{r['command']}` (model `{r['model']}`, seed {r['seed']}, {r['n_lists']} lists of 10,"
         " one domain per Majestic RefSubNets decile). Spearman ρ / Kendall τ-b per list vs the decile level,"
         " averaged over lists; a constant prediction counts as 0. Head of the web only (Majestic top 15k):"
         " no low-authority tail."), "",
        "| method | lists | ρ mean (sd) | ρ 95% CI | τ mean | prior-only ρ on the same lists | PointJudge ρ on the same lists | calls | prompt tok | completion tok | wall s | parse failures | modes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    p = r["prior_only"]
    lines.append(
        f"| prior only, Majestic left out ({', '.join(p['sources'])}; coverage {p['coverage']:.0%}) | {p['lists']} |"
        f" {_fmt(p['spearman_mean'])} ({_fmt(p['spearman_sd'])}) | {_ci(p['per_list_spearman'])} | {_fmt(p['kendall_mean'])} | {_fmt(p['spearman_mean'])} | {_same(r, 'point', p['lists'])} | 0 | 0 | 0 | – | – | table |"
    )
    for name, label in (("point", "PointJudge (logprob)"), ("list", "ListJudge-PointScore"), ("pair", "PairJudge-PointScore (anchor 5 → 35 pairs, both orders, AverageScore)")):
        m = r["judges"].get(name)
        if m is None:
            continue
        lines.append(
            f"| {label} | {m['lists']} | {_fmt(m['spearman_mean'])} ({_fmt(m['spearman_sd'])}) | {_ci(m['per_list_spearman'])} |"
            f" {_fmt(m['kendall_mean'])} |"
            f" {_fmt(statistics.fmean(p['per_list_spearman'][: m['lists']]) if m['lists'] else None)} |"
            f" {_same(r, 'point', m['lists'])} |"
            f" {m['calls']} | {m['prompt_tokens']} | {m['completion_tokens']} | {m['wall_s']} |"
            f" {m['parse_failures']}/{m['attempts']} | {', '.join(f'{k}: {v}' for k, v in m['modes'].items())} |"
        )
    for name, m in r["judges"].items():
        if m.get("stats"):
            lines.append(f"\n{name} judge counters over {m['stats_lists']} lists: "
                         + ", ".join(f"{k} {v}" for k, v in sorted(m["stats"].items())))
    known = p["known_only"]
    lines += [
        "", f"Prior-only on the covered domains only: ρ {_fmt(known['spearman_mean'])} over {known['lists']} lists with ≥ 3 covered domains.",
        "", "Wall time is on 2 CPU cores shared with other work; calls are sequential.", "",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lists", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--methods", default="point,list,pair")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--minutes", type=float, default=90.0, help="time budget per method")
    parser.add_argument("--report", action="store_true", help="only rewrite the Markdown from the JSON")
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads (1 is faster on a busy machine)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the methods in the existing JSON on the lists they did not reach")
    args = parser.parse_args(argv)
    if args.resume:
        return resume(args)
    if args.report:
        OUT.with_suffix(".md").write_text(markdown(json.loads(OUT.with_suffix(".json").read_text("utf-8"))), encoding="utf-8")
        return 0
    from authorag.judges.backends.local import LocalBackend

    lists = sample_lists(web_levels(), args.lists, args.seed)
    backend = LocalBackend(args.model, n_threads=args.threads)
    command = (
        f"python scripts/measure_judges.py --lists {args.lists} --seed {args.seed} --methods {args.methods}"
        f" --minutes {args.minutes:g}" + (f" --threads {args.threads}" if args.threads else "")
    )
    result: dict[str, Any] = {
        "command": command, "model": args.model, "seed": args.seed, "n_lists": args.lists,
        "lists": [[d for d, _ in items] for items in lists], "prior_only": prior_baseline(lists), "judges": {},
    }
    write(result)
    factories = make_judges(backend)
    for name in args.methods.split(","):
        judge = factories[name]()
        result["judges"][name] = run_judge(name, judge, lists, time.perf_counter() + 60 * args.minutes)
        write(result)
    return 0


def merge(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Combine a method's results over consecutive list ranges (old lists first)."""
    n1, n2 = old["lists"], new["lists"]
    rhos = old["per_list_spearman"] + new["per_list_spearman"]
    out = dict(old)
    out.update(
        lists=n1 + n2, per_list_spearman=rhos, spearman_mean=statistics.fmean(rhos),
        spearman_sd=statistics.stdev(rhos) if len(rhos) > 1 else None,
        kendall_mean=(old["kendall_mean"] * n1 + new["kendall_mean"] * n2) / (n1 + n2),
        wall_s=round(old["wall_s"] + new["wall_s"], 1), item_scores={**old["item_scores"], **new["item_scores"]},
        modes={k: old["modes"].get(k, 0) + new["modes"].get(k, 0) for k in {*old["modes"], *new["modes"]}},
    )
    if "stats" in new:  # judge counters (e.g. position bias) exist only for runs that recorded them
        old_stats = old.get("stats", {})
        out["stats"] = {k: old_stats.get(k, 0) + v for k, v in new["stats"].items()}
        out["stats_lists"] = old.get("stats_lists", 0) + new["stats_lists"]
    for key in ("calls", "prompt_tokens", "completion_tokens", "attempts", "parse_failures", "skipped"):
        out[key] = old[key] + new[key]
    return out


def resume(args: argparse.Namespace) -> int:
    """Run ``--methods`` on the lists of the existing JSON that each method did not reach."""
    from authorag.judges.backends.local import LocalBackend

    result = json.loads(OUT.with_suffix(".json").read_text("utf-8"))
    lists = sample_lists(web_levels(), result["n_lists"], result["seed"])
    factories = make_judges(LocalBackend(result["model"], n_threads=args.threads))
    for name in args.methods.split(","):
        done = result["judges"][name]
        rest = lists[done["lists"]:]
        if not rest:
            continue
        new = run_judge(name, factories[name](), rest, time.perf_counter() + 60 * args.minutes)
        result["judges"][name] = merge(done, new)
        result["command"] += f"; resumed with --resume --methods {name} --minutes {args.minutes:g}"
        write(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
