"""``authorag bench judges``: the judge study on DomainAuth-open web (:mod:`authorag.benchmarks.judge_study.study`).

Example:
    authorag bench judges --methods prior --out /tmp/judges      # prior-only row, seconds, no LLM
    authorag bench judges --lists 20 --minutes 25 --threads 1    # about 1 h with the local 1.5B model
    authorag bench judges --report --out docs/results/judges_domainauth_web
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from authorag.cli._util import Subparsers


def add_judges(bsub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``bench judges``."""
    p = bsub.add_parser("judges", help="authority judges vs the prior on DomainAuth-open web lists (local model)",
                        description="Lists of 10 domains, one per Majestic decile, no domain reused; writes "
                                    "OUT.json and OUT.md. The prior-only row is always written.")
    p.add_argument("--lists", type=int, default=20, help="number of lists (default 20)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--methods", default="point,list,pair",
                   help="comma-separated, from prior, point, list, pair (default point,list,pair; "
                        "'prior' alone runs no LLM)")
    p.add_argument("--model", default="qwen2.5-coder-1.5b", help="local model name or GGUF path")
    p.add_argument("--minutes", type=float, default=90.0, help="time budget per judge (default 90)")
    p.add_argument("--threads", type=int, help="llama.cpp threads (1 is faster on a busy machine)")
    p.add_argument("--out", help="path without suffix for OUT.json / OUT.md "
                                 "(default <user results folder>/judges_domainauth_web)")
    p.add_argument("--report", action="store_true", help="only rewrite OUT.md from OUT.json")
    p.add_argument("--resume", action="store_true",
                   help="continue --methods in OUT.json on the lists they did not reach")
    p.add_argument("--overwrite", action="store_true", help="replace an OUT.json that holds judge rows")
    p.set_defaults(func=_judges)


def _methods(raw: str) -> tuple[str, ...]:
    return tuple(m.strip() for m in raw.split(",") if m.strip())


def _command(args: argparse.Namespace) -> str:
    return (f"authorag bench judges --lists {args.lists} --seed {args.seed} --methods {args.methods}"
            f" --minutes {args.minutes:g}" + (f" --threads {args.threads}" if args.threads else ""))


def _judges(args: argparse.Namespace) -> int:
    from authorag.benchmarks.judge_study import study as js
    from authorag.benchmarks.judge_study.report import markdown
    from authorag.cli._util import show_progress
    from authorag.settings import results_dir

    out = Path(args.out) if args.out else results_dir() / "judges_domainauth_web"
    if args.report:
        out.with_suffix(".md").write_text(markdown(json.loads(out.with_suffix(".json").read_text("utf-8"))),
                                          encoding="utf-8")
        return 0
    if not args.resume and not args.overwrite:
        _refuse_to_drop_rows(out)
    cfg = js.StudyConfig(n_lists=args.lists, seed=args.seed, methods=_methods(args.methods), model=args.model,
                         minutes=args.minutes, threads=args.threads, command=_command(args))
    with show_progress():
        result = (js.resume_study if args.resume else js.run_study)(cfg, out)
    rows = {"prior": result["prior_only"], **result["judges"]}
    print(f"wrote {out.with_suffix('.json')} and {out.with_suffix('.md')}: "
          + ", ".join(f"{n} rho {_rho(m['spearman_mean'])} over {m['lists']} lists" for n, m in rows.items()))
    return 0


def _refuse_to_drop_rows(out: Path) -> None:
    """A new run rewrites OUT.json from scratch: never drop judge rows (an hour of model time) silently."""
    from authorag.errors import ConfigError

    path = out.with_suffix(".json")
    if not path.exists():
        return
    rows = sorted(json.loads(path.read_text("utf-8")).get("judges", {}))
    if rows:
        raise ConfigError(f"{path} holds judge rows ({', '.join(rows)}) that a new run replaces; pass --overwrite "
                          "to replace them, --resume to continue them, or --out to write elsewhere")


def _rho(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"
