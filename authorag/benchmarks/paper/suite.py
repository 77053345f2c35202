"""``authorag bench suite paper``: every condition of AuthorityBench's tables in one command.

The plan is judges × output formats × fine/coarse on DomainAuth-web (table 1-3) and on the three
EntityAuth domains (tables 4, 6), and RAGAuth with the three filters, k = 1/3/5 and a generator
(table 5). Before it runs anything the suite prints an estimate of calls, tokens and time;
conditions run with bounded concurrency (``--jobs``) and each writes its own results folder, so
an interrupted suite resumes where it stopped (the judges' persistent cache also replays the
calls of a half-finished condition). The paper's "with page text" DomainAuth columns are not
planned: the open DomainAuth data has no page text.

Example:
    >>> plan = paper_plan(SuiteSizes(lists=2, pairs=2, group_lists=1, instances=1), backend="fake")
    >>> len(plan), plan[0].config.run_id()
    (41, 'domainauth-web-fine__judge-point-score__paper')
"""
from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from authorag.benchmarks.runner import RunConfig, result_folder, run_condition, write_result
from authorag.errors import AuthoragError, ConfigError

log = logging.getLogger(__name__)

FORMS: Mapping[str, str] = MappingProxyType({
    "point": "judge-point-score", "list-rank": "judge-list-rank", "list-score": "judge-list-score",
    "pair-rank": "judge-pair-rank", "pair-score": "judge-pair-score",
})
"""The paper's five judge columns → bench methods."""
DOMAIN_TASKS = ("domainauth-web-fine", "domainauth-web-coarse")
ENTITY_TASKS = tuple(f"entityauth-{d}-{g}" for d in ("basketball", "movies", "songs") for g in ("fine", "coarse"))
RAG_TASK = "ragauth-trec2019"
GENERATOR_CALLS_PER_INSTANCE = 10  # all documents once + 3 filters × k ∈ {1, 3, 5}


@dataclass(frozen=True, slots=True)
class SuiteSizes:
    """Sample sizes.

    Attributes:
        lists: LE lists for the point judge (pointwise: cached per item, cheap per list).
        pairs: PE pairs per difficulty (every form).
        group_lists: LE lists for the list and pair judges (a pair judge spends ~70 calls on a
            10-item list); None = ``lists``.
        instances: RAGAuth instances (None = all 33).
    """

    lists: int = 100
    pairs: int = 100
    group_lists: int | None = None
    instances: int | None = None

    def lists_for(self, form: str) -> int:
        """LE lists for judge column ``form``."""
        return self.lists if form == "point" or self.group_lists is None else self.group_lists


@dataclass(frozen=True, slots=True)
class Condition:
    """One planned run: the paper table it fills, the judge column, and the run config."""

    table: str
    form: str
    config: RunConfig


def paper_plan(sizes: SuiteSizes, *, backend: str, model: str | None = None, protocol: str = "paper",
               options: Mapping[str, str] | None = None, seed: int = 0) -> list[Condition]:
    """Every condition of the paper's tables 1-6 that the open data supports."""
    opts = MappingProxyType(dict(options or {}))
    common: dict[str, Any] = {"backend": backend, "model": model, "protocol": protocol, "options": opts, "seed": seed}
    plan: list[Condition] = []
    for table, tasks in (("domainauth", DOMAIN_TASKS), ("entityauth", ENTITY_TASKS)):
        for task in tasks:
            for form, method in FORMS.items():
                cfg = RunConfig(task=task, method=method, n_lists=sizes.lists_for(form), n_pairs=sizes.pairs, **common)
                plan.append(Condition(table, form, cfg))
    rag = RunConfig(task=RAG_TASK, method=FORMS["list-score"], generator=True, relevance="llm-relevance",
                    utility="llm-utility", max_instances=sizes.instances, **common)
    plan.append(Condition("ragauth", "list-score", rag))
    return plan


# ----------------------------------------------------------------------------- estimate

@dataclass(frozen=True, slots=True)
class CallShape:
    """Calls of one condition and tokens per call (prompt tokens ≈ characters / 4)."""

    calls: int
    prompt_tokens: int
    completion_tokens: int


def _chars_to_tokens(messages: Sequence[Mapping[str, str]]) -> int:
    return math.ceil(sum(len(m["content"]) for m in messages) / 4) + 8


def _rank_shape(cond: Condition) -> CallShape:
    from authorag.benchmarks.judge_methods import to_judge_item
    from authorag.benchmarks.protocols import sample_lists, sample_pairs
    from authorag.benchmarks.registry import load_task
    from authorag.judges.pair_judge import pair_plan
    from authorag.judges.prompt_sets import template_name
    from authorag.judges.prompts import render

    cfg = cond.config
    task = load_task(cfg.task)
    lists = sample_lists(task, cfg.n_lists, cfg.seed)
    pairs = [p for d in ("easy", "hard") for p in sample_pairs(task, cfg.n_pairs, d, cfg.seed)]  # type: ignore[arg-type]
    paper = cfg.protocol == "paper"
    items = [to_judge_item(i, False) for i in lists[0]]
    size = len(items)
    if cond.form == "point":
        calls = len({i.key for lst in lists for i in lst} | {i.key for p in pairs for i in p})
        # a JSON answer such as {"score": 7} with the model's line breaks: 14 tokens measured on the 1.5B model
        return CallShape(calls, _chars_to_tokens(render(template_name("authority_point", cfg.protocol), items=items[:1])),
                         14 if paper else 1)
    if cond.form.startswith("list"):
        base = "authority_list_rank" if cond.form == "list-rank" else "authority_list_score"
        prompt = _chars_to_tokens(render(template_name(base, cfg.protocol), items=items))
        return CallShape(len(lists) * math.ceil(size / 10) + len(pairs), prompt, (4 if paper else 6) * size + 8)
    base = "authority_pair_rank" if cond.form == "pair-rank" else "authority_pair_score"
    prompt = _chars_to_tokens(render(template_name(base, cfg.protocol), items=items[:2], idents=("[A]", "[B]")))
    calls = 2 * (len(lists) * len(pair_plan(size)) + len(pairs))  # both orders
    return CallShape(calls, prompt, (22 if paper else 8) if cond.form == "pair-score" else (12 if paper else 1))


def _rag_shape(cond: Condition) -> list[CallShape]:
    from authorag.benchmarks.rag.protocol import generator_request
    from authorag.benchmarks.rag.tasks import load_rag_task
    from authorag.judges.items import JudgeItem, shorten
    from authorag.judges.prompt_sets import template_name
    from authorag.judges.prompts import render

    cfg = cond.config
    instances = load_rag_task(cfg.task).instances[: cfg.max_instances]
    n = len(instances)
    inst = instances[0]
    urls = [JudgeItem(label=d.url, kind="url") for d in inst.documents]
    texts = [JudgeItem(label=d.url, kind="url", text=shorten(d.text, 600)) for d in inst.documents]
    size = len(inst.documents)
    rel = _chars_to_tokens(render(template_name("relevance_list_score", cfg.protocol), items=texts, question=inst.question))
    shapes = [
        CallShape(n, _chars_to_tokens(render(template_name("authority_list_score", cfg.protocol), items=urls)), 8 * size),
        CallShape(n, rel, 8 * size),
        CallShape(n, rel + 60, (90 if cfg.protocol == "paper" else 7) * size),
        CallShape(n * GENERATOR_CALLS_PER_INSTANCE, _chars_to_tokens(generator_request(inst.question, inst.documents).messages) // 2, 1),
    ]
    if cfg.protocol != "paper":  # the pseudo-answer call of the authorag utility judge
        shapes.append(CallShape(n, rel, 120))
    return shapes


def estimate(plan: Sequence[Condition], *, prompt_tps: float, gen_tps: float) -> dict[str, Any]:
    """Calls, prompt/completion tokens and hours per condition and in total, at the given speeds.

    Time = prompt tokens / ``prompt_tps`` + completion tokens / ``gen_tps`` per call, sequential
    (an upper bound: the judge cache and shared-prefix caching only make it faster).
    """
    rows: list[dict[str, Any]] = []
    for cond in plan:
        shapes = _rag_shape(cond) if cond.table == "ragauth" else [_rank_shape(cond)]
        calls = sum(s.calls for s in shapes)
        ptok = sum(s.calls * s.prompt_tokens for s in shapes)
        ctok = sum(s.calls * s.completion_tokens for s in shapes)
        rows.append({"run_id": cond.config.run_id(), "table": cond.table, "form": cond.form, "calls": calls,
                     "prompt_tokens": ptok, "completion_tokens": ctok,
                     "hours": round((ptok / prompt_tps + ctok / gen_tps) / 3600, 3)})
    total = {k: sum(r[k] for r in rows) for k in ("calls", "prompt_tokens", "completion_tokens")}
    return {"prompt_tps": prompt_tps, "gen_tps": gen_tps, "conditions": rows,
            "total": {**total, "hours": round(sum(r["hours"] for r in rows), 2)}}


# ----------------------------------------------------------------------------- run

def run_suite(plan: Sequence[Condition], out: Path, *, jobs: int = 1,
              on_done: Callable[[str, str], None] = lambda _rid, _status: None) -> dict[str, str]:
    """Run every condition without a result in ``out`` (resume), ``jobs`` at a time.

    Returns ``{run_id: "done" | "skipped (exists)" | "failed: <reason>"}``; a failed condition
    does not stop the others.
    """
    if jobs < 1:
        raise ConfigError(f"jobs must be >= 1, got {jobs}")
    status: dict[str, str] = {}
    todo: list[Condition] = []
    for cond in plan:
        rid = cond.config.run_id()
        if (out / rid / "result.json").exists():
            status[rid] = "skipped (exists)"
            on_done(rid, status[rid])
        else:
            todo.append(cond)

    def one(cond: Condition) -> tuple[str, str]:
        rid = cond.config.run_id()
        result_folder(out, rid)
        start = time.perf_counter()
        try:
            result = run_condition(cond.config)
        except (AuthoragError, OSError) as exc:  # one broken condition (an outage) must not end the suite
            log.exception("condition %s failed", rid)
            return rid, f"failed: {type(exc).__name__}: {exc}"
        write_result(result, out)
        return rid, f"done in {time.perf_counter() - start:.0f} s"

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for rid, state in pool.map(one, todo):
            status[rid] = state
            on_done(rid, state)
    return status


def write_plan(plan: Sequence[Condition], est: Mapping[str, Any], out: Path) -> Path:
    """``suite.json``: the plan's configs and the estimate (what the report cites)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "suite.json"
    body = {"version": 1, "suite": "paper",
            "conditions": [{"table": c.table, "form": c.form, **c.config.to_dict()} for c in plan], "estimate": est}
    path.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n")
    return path


def select_conditions(plan: Sequence[Condition], only: Sequence[str]) -> list[Condition]:
    """The conditions whose run id contains any of ``only`` (all when empty)."""
    if not only:
        return list(plan)
    chosen = [c for c in plan if any(s in c.config.run_id() for s in only)]
    if not chosen:
        raise ConfigError(f"--only {list(only)} matches no condition; run ids look like "
                          f"{plan[0].config.run_id()!r}")
    return chosen


__all__ = ["FORMS", "CallShape", "Condition", "SuiteSizes", "estimate", "paper_plan", "run_suite",
           "select_conditions", "write_plan"]
