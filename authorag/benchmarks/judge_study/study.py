"""The judge study on DomainAuth-open (web track): ``authorag bench judges``.

Lists of 10 Majestic-top-15k domains, one per RefSubNets decile and no domain in two lists
(:func:`~authorag.benchmarks.protocols.sample_distinct_lists`), scored by the prior-only
baseline (the bench method ``prior``: the prior table without Majestic, leave-source-out) and by
the Point, List and Pair authority judges; Spearman ρ / Kendall τ-b per list
(:func:`~authorag.benchmarks.protocols.run_lists`), averaged, with the bench bootstrap CI in the
report. Unknown sources score ``UNKNOWN_BELOW`` (tied below every known domain) and coverage is
reported. Results: ``docs/results/judges_domainauth_web.{json,md}``.

The study labels its own items (:func:`study_task`), as it did when its results were committed:
registrable domains (first Majestic row kept) and rank deciles with ties broken by name. The
bench task ``domainauth-web-fine`` keys hosts (``www.`` stripped, 14,985 items) and lets tied
values share a decile; on the 14,857 keys both have, 298 levels differ by one.

Example:
    >>> lists = sample_distinct_lists(study_task(), n_lists=1, seed=0)
    >>> [i.key for i in lists[0]][:3]
    ['arcelormittal.com', 'sch.gr', 'cccb.org']
"""
from __future__ import annotations

import json
import logging
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authorag.benchmarks.judge_study.report import markdown
from authorag.benchmarks.methods import MethodContext
from authorag.benchmarks.metrics import kendall_tau_b, spearman
from authorag.benchmarks.protocols import run_lists, sample_distinct_lists
from authorag.benchmarks.registry import build_method
from authorag.benchmarks.tasks import BenchItem, RankTask, read_rows
from authorag.domains import parse_host
from authorag.judges.base import JudgeBase
from authorag.progress import report
from authorag.validation import check_choice, check_positive_int

log = logging.getLogger(__name__)

UNKNOWN_BELOW = -1.0
"""Score of a domain the prior does not cover (or a skipped judge answer): below every known one."""
JUDGE_METHODS = ("point", "list", "pair")
Lists = list[list[BenchItem]]


@dataclass(frozen=True, slots=True)
class StudyConfig:
    """What one study run measures (``command`` is recorded in the result)."""

    n_lists: int = 20
    seed: int = 0
    methods: tuple[str, ...] = JUDGE_METHODS
    model: str = "qwen2.5-coder-1.5b"
    minutes: float = 90.0
    threads: int | None = None
    command: str = ""

    def __post_init__(self) -> None:
        for name in self.methods:
            check_choice("method", name, ("prior", *JUDGE_METHODS))
        check_positive_int("n_lists", self.n_lists)


def study_task() -> RankTask:
    """DomainAuth-web as the study labels it: registrable domains, rank deciles (ties by name)."""
    subnets: dict[str, float] = {}
    for row in read_rows("authorag.data", "majestic_top15k.csv.gz"):
        parsed = parse_host(row["domain"], strict=False)
        if parsed.kind == "domain" and parsed.domain is not None and parsed.domain not in subnets:
            subnets[parsed.domain] = float(row["ref_subnets"])
    ordered = sorted(subnets, key=lambda d: (subnets[d], d))
    n = len(ordered)
    items = tuple(BenchItem(d, d, min(9, (10 * i) // n), min(9, (10 * i) // n), d, {"ref_subnets": subnets[d]})
                  for i, d in enumerate(ordered))
    return RankTask("domainauth-web-study", "domainauth", 10, "majestic", "domain", items,
                    ("authorag.data/majestic_top15k.csv.gz",), "judge study: registrable domains, rank deciles")


def summarize(rhos: Sequence[float], taus: Sequence[float]) -> dict[str, Any]:
    """Means over lists, the ρ sd and the per-list ρ (4 decimals) of one method."""
    return {
        "lists": len(rhos),
        "spearman_mean": statistics.fmean(rhos) if rhos else None,
        "spearman_sd": statistics.stdev(rhos) if len(rhos) > 1 else None,
        "kendall_mean": statistics.fmean(taus) if taus else None,
        "per_list_spearman": [round(r, 4) for r in rhos],
    }


def prior_row(task: RankTask, lists: Lists) -> dict[str, Any]:
    """The bench method ``prior`` (leave-source-out) on the study lists, plus covered-only ρ."""
    method = build_method("prior", MethodContext(task_family=task.family, label_source=task.label_source))
    res = run_lists(task, lists, method.score, unknown_level=UNKNOWN_BELOW)
    known_rho: list[float] = []
    known_tau: list[float] = []
    for items in lists:
        pairs = [(float(i.level), s) for i, s in zip(items, method.score(items)) if s is not None]
        if len(pairs) >= 3:
            known_rho.append(spearman([g for g, _ in pairs], [s for _, s in pairs]))
            known_tau.append(kendall_tau_b([g for g, _ in pairs], [s for _, s in pairs]))
    out = summarize(res.spearman, res.kendall)
    out.update(sources=list(method.info()["active_sources"]), coverage=res.known / res.total,
               known_only=summarize(known_rho, known_tau), unknown_policy="unknown tied below every known domain")
    return out


def run_judge(name: str, judge: JudgeBase, task: RankTask, lists: Lists, deadline: float) -> dict[str, Any]:
    """One judge over the lists until ``deadline`` (perf_counter seconds): ρ, τ, costs, item scores."""
    rhos: list[float] = []
    taus: list[float] = []
    totals = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "attempts": 0, "parse_failures": 0, "skipped": 0}
    modes: dict[str, int] = {}
    item_scores: dict[str, float | None] = {}
    counts: dict[str, int] = {}

    def score(items: Sequence[BenchItem]) -> list[float | None]:
        run = judge.judge([i.key for i in items])
        for s in run.scores:
            modes[str(s.mode)] = modes.get(str(s.mode), 0) + 1
            item_scores[s.key] = None if s.score is None else round(s.score, 5)
        totals["skipped"] += sum(s.score is None for s in run.scores)
        for key in ("calls", "prompt_tokens", "completion_tokens"):
            totals[key] += int(getattr(run.cost, key))
        for key, value in run.stats.items():
            if isinstance(value, int):
                counts[key] = counts.get(key, 0) + value
        totals["attempts"] += run.attempts
        totals["parse_failures"] += run.parse_failures
        return [s.score for s in run.scores]

    start = time.perf_counter()
    for k, items in enumerate(lists):
        if time.perf_counter() > deadline:
            log.warning("%s: time budget reached after %d lists", name, k)
            break
        res = run_lists(task, [items], score, unknown_level=UNKNOWN_BELOW)
        rhos += res.spearman
        taus += res.kendall
        log.info("%s list %d: rho=%.3f t=%.0fs", name, k, rhos[-1], time.perf_counter() - start)
        report(f"judge {name}", k + 1, len(lists), unit="lists")
    out = summarize(rhos, taus)
    out.update(totals, wall_s=round(time.perf_counter() - start, 1), modes=modes, prompt=_prompt(judge),
               item_scores=item_scores, stats=counts, stats_lists=len(rhos))
    return out


def _prompt(judge: JudgeBase) -> str:
    return str(getattr(judge, "prompt", "")) or {"point": "authority_point_v1", "list": "authority_list_score_v1"}.get(judge.method, "")


def make_judges(backend: Any) -> dict[str, Callable[[], JudgeBase]]:
    """The study's three judge settings on ``backend`` (answers that fail to parse are skipped)."""
    from authorag.judges.list_judge import ListJudge
    from authorag.judges.pair_judge import PairJudge
    from authorag.judges.point_judge import PointJudge

    return {
        "point": lambda: PointJudge(backend, on_failure="skip"),
        "list": lambda: ListJudge(backend, output="score", on_failure="skip"),
        "pair": lambda: PairJudge(backend, variant="point_score", aggregate="average", pairs="anchor", on_failure="skip"),
    }


def _backend(model: str, threads: int | None) -> Any:
    from authorag.judges.backends.local import LocalBackend

    return LocalBackend(model, n_threads=threads)


def write(result: dict[str, Any], out: Path) -> None:
    """``out``.json (the result) and ``out``.md (its report)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(markdown(result), encoding="utf-8")


def run_study(cfg: StudyConfig, out: Path) -> dict[str, Any]:
    """Sample the lists, score the prior row and each judge of ``cfg.methods``; write after each."""
    task = study_task()
    lists = sample_distinct_lists(task, cfg.n_lists, cfg.seed)
    result: dict[str, Any] = {
        "command": cfg.command, "model": cfg.model, "seed": cfg.seed, "n_lists": cfg.n_lists,
        "lists": [[i.key for i in items] for items in lists], "prior_only": prior_row(task, lists), "judges": {},
    }
    write(result, out)
    judges = [m for m in cfg.methods if m != "prior"]
    if judges:
        factories = make_judges(_backend(cfg.model, cfg.threads))
        for name in judges:
            result["judges"][name] = run_judge(name, factories[name](), task, lists,
                                               time.perf_counter() + 60 * cfg.minutes)
            write(result, out)
    return result


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


def resume_study(cfg: StudyConfig, out: Path) -> dict[str, Any]:
    """Run ``cfg.methods`` on the lists of ``out``.json that each method did not reach; ``prior``
    (no model, seconds) is recomputed on all of them."""
    result = json.loads(out.with_suffix(".json").read_text("utf-8"))
    task = study_task()
    lists = sample_distinct_lists(task, result["n_lists"], result["seed"])
    if "prior" in cfg.methods:  # no model: recomputed on the same lists, replacing the old row
        result["prior_only"] = prior_row(task, lists)
        write(result, out)
    factories = make_judges(_backend(result["model"], cfg.threads))
    for name in (m for m in cfg.methods if m != "prior"):
        done = result["judges"][name]
        rest = lists[done["lists"]:]
        if not rest:
            continue
        new = run_judge(name, factories[name](), task, rest, time.perf_counter() + 60 * cfg.minutes)
        result["judges"][name] = merge(done, new)
        result["command"] += f"; resumed with --resume --methods {name} --minutes {cfg.minutes:g}"
        write(result, out)
    return result
