"""``authorag bench suite paper``: the command line of :mod:`authorag.benchmarks.paper.suite`.

Example:
    authorag bench suite paper --backend local --estimate-only
    authorag bench suite paper --backend openai --model qwen3-32b --option base_url=http://gpu:8000/v1 --jobs 8
    authorag bench suite paper --report-only --out ~/.local/share/authorag/suite-paper
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from authorag.cli._util import Subparsers

LOCAL_PROMPT_TPS = 150.0
LOCAL_GEN_TPS = 14.0
"""Default speeds for the estimate: the shipped 1.5B model on 2 CPU cores (measured, see docs/benchmarks.md)."""


def add_suite(bsub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``bench suite``."""
    p = bsub.add_parser("suite", help="run every condition of a paper's tables in one resumable command")
    p.add_argument("name", choices=["paper"], help="paper = AuthorityBench tables 1-6")
    p.add_argument("--backend", choices=["local", "openai", "fake"], default="local",
                   help="LLM backend (default local; openai = any OpenAI-compatible server)")
    p.add_argument("--model", help="GGUF path or registered name (local) or model name (openai)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="backend option, e.g. base_url=http://127.0.0.1:8000/v1, api_key=..., cache=off")
    p.add_argument("--protocol", choices=["paper", "authorag"], default="paper", help="judge prompt set (default paper)")
    p.add_argument("--lists", type=int, default=100,
                   help="lists of the listwise evaluation (LE) for the point judge (default 100)")
    p.add_argument("--group-lists", type=int, help="LE lists for list and pair judges (default: --lists)")
    p.add_argument("--pairs", type=int, default=100,
                   help="pairs per difficulty of the pairwise evaluation (PE) (default 100)")
    p.add_argument("--instances", type=int, help="RAGAuth instances (default all 33)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", action="append", default=[], metavar="TEXT",
                   help="run only conditions whose run id contains TEXT (repeatable)")
    p.add_argument("--jobs", type=int, default=1, help="conditions run at once (default 1; raise for remote servers)")
    p.add_argument("--prompt-tps", type=float, help=f"prompt tokens/s for the estimate (local default {LOCAL_PROMPT_TPS:g})")
    p.add_argument("--gen-tps", type=float, help=f"generated tokens/s for the estimate (local default {LOCAL_GEN_TPS:g})")
    p.add_argument("--out", help="results folder (default: <user results folder>/suite-paper)")
    p.add_argument("--estimate-only", action="store_true", help="print the plan's estimate and exit")
    p.add_argument("--report-only", action="store_true", help="render paper_report.md from --out and exit")
    p.set_defaults(func=_suite)


def _options(raw: list[str]) -> dict[str, str]:
    from authorag.errors import ConfigError

    out: dict[str, str] = {}
    for item in raw:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--option must look like KEY=VALUE, got {item!r}")
        out[key] = value
    return out


def _speeds(args: argparse.Namespace) -> tuple[float, float]:
    from authorag.errors import ConfigError

    if args.backend == "openai" and (args.prompt_tps is None or args.gen_tps is None):
        raise ConfigError("with --backend openai, give --prompt-tps and --gen-tps (the server's tokens/s) "
                          "so the estimate means something")
    prompt = LOCAL_PROMPT_TPS if args.prompt_tps is None else args.prompt_tps
    gen = LOCAL_GEN_TPS if args.gen_tps is None else args.gen_tps
    return prompt, gen


def _suite(args: argparse.Namespace) -> int:
    from authorag.benchmarks.paper import suite as st
    from authorag.benchmarks.paper.report import write_paper_report
    from authorag.settings import results_dir

    default = f"suite-{args.name}" + ("" if args.protocol == "paper" else f"-{args.protocol}-prompts")
    out = Path(args.out) if args.out else results_dir() / default
    if args.report_only:
        print(write_paper_report(out))
        return 0
    sizes = st.SuiteSizes(lists=args.lists, pairs=args.pairs, group_lists=args.group_lists, instances=args.instances)
    full = st.paper_plan(sizes, backend=args.backend, model=args.model, protocol=args.protocol,
                         options=_options(args.option), seed=args.seed)
    plan = st.select_conditions(full, args.only)
    prompt_tps, gen_tps = _speeds(args)
    est = st.estimate(plan, prompt_tps=prompt_tps, gen_tps=gen_tps)
    summary: dict[str, Any] = {"version": 1, "out": str(out), "conditions": len(plan), "estimate": est["total"],
                               "per_condition": {r["run_id"]: {k: r[k] for k in ("calls", "hours")}
                                                 for r in est["conditions"]}}
    if len(plan) < len(full):
        summary["estimate_full_plan"] = st.estimate(full, prompt_tps=prompt_tps, gen_tps=gen_tps)["total"]
    print(json.dumps(summary, indent=2), flush=True)
    if args.estimate_only:
        return 0
    st.write_plan(full, st.estimate(full, prompt_tps=prompt_tps, gen_tps=gen_tps), out)  # the whole plan, for the report
    status = st.run_suite(plan, out, jobs=args.jobs,
                          on_done=lambda rid, state: print(f"{rid}: {state}", file=sys.stderr, flush=True))
    report = write_paper_report(out)
    failed = sorted(rid for rid, state in status.items() if state.startswith("failed"))
    print(json.dumps({"version": 1, "report": str(report), "failed": failed}, indent=2))
    return 1 if failed else 0


__all__ = ["add_suite"]
