"""``authorag bench list|run|report|compare|check|suite|judges|tracks``: the AuthorityBench-open command line.

Example:
    authorag bench run --task credauth-baly --method prior --lists 200 --pairs 500
    authorag bench report                      # tables from the runs in the user results folder
    authorag bench check --smoke
    authorag bench compare --methods table-const,table-learned,hybrid --out /tmp/compare
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from authorag.cli._util import Subparsers

DEFAULT_RUNS = "the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)"


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``bench`` with its subcommands."""
    bench = sub.add_parser("bench", help="AuthorityBench-open: run, report and check benchmarks")
    bsub = bench.add_subparsers(dest="bench_command", metavar="SUBCOMMAND", required=True)
    ls = bsub.add_parser("list", help="list tasks and methods")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=_list)
    run = bsub.add_parser("run", help="run one task × method and write a results folder")
    add_run_arguments(run)
    run.add_argument("--out", help=f"results root (default {DEFAULT_RUNS})")
    run.add_argument("--overwrite", action="store_true",
                     help="replace an existing results folder (benchmarks/results/reproduce.sh passes it)")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(func=_run)
    rep = bsub.add_parser("report", help="render Markdown tables and PNG plots from results folders")
    rep.add_argument("--results", help=f"folder holding <run_id>/result.json (default {DEFAULT_RUNS})")
    rep.add_argument("--out", help="where report.md and plots/ go (default: the --results folder)")
    rep.set_defaults(func=_report)
    cmp = bsub.add_parser("compare", help="evaluation tracks × methods -> one comparison table with CIs")
    cmp.add_argument("--methods", default="table-const,table-learned,hybrid",
                     help="comma-separated method names (default table-const,table-learned,hybrid); the "
                          "compositions relevance-only, today and default take ScorerSettings and RerankPolicy "
                          "fields: default:fusion=rrf,weight=0.5 (docs/benchmarks.md)")
    cmp.add_argument("--tracks", default="",
                     help="comma-separated track tasks (default: the authority tracks; the rerank tracks "
                          "trust-pairs, no-harm-pairs, no-harm-hard, no-harm-lists, graded-trec2019 are named here)")
    _add_track_options(cmp, "bm25,rank,dense")
    cmp.add_argument("--lists", type=int, default=500,
                     help="lists of the listwise evaluation (LE: one item per level, Spearman ρ per list) per ranking track (default 500)")
    cmp.add_argument("--pairs", type=int, default=500,
                     help="pairs per difficulty of the pairwise evaluation (PE: which of two is more authoritative) (default 500)")
    cmp.add_argument("--seed", type=int, default=0)
    cmp.add_argument("--rerank-relevance", default="bm25",
                     help="relevance scorers of the rerank-mode grid: bm25, dense, both comma-separated, or none")
    cmp.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="method option for every method, e.g. credibility_weight=0")
    cmp.add_argument("--import-method", action="append", default=[], metavar="METHOD=DIR",
                     help="read METHOD's results from the compare folder DIR instead of running it (e.g. the "
                          "'today' column computed by an earlier commit)")
    cmp.add_argument("--delta-against", default="", metavar="METHODS",
                     help="comma-separated methods each other method gets a paired difference column against "
                          "(default: the first method)")
    cmp.add_argument("--out", help="output folder (default: ~/.cache/authorag/bench/compare)")
    cmp.set_defaults(func=_compare)
    chk = bsub.add_parser("check", help="re-run manifest conditions; exit 1 on any mismatch")
    chk.add_argument("--manifest", help="manifest YAML (default: the shipped expected.yaml)")
    chk.add_argument("--list", action="store_true", help="list conditions and exit")
    chk.add_argument("--condition", action="append", default=[], metavar="NAME", help="check this condition")
    chk.add_argument("--all", action="store_true", help="check every condition (default: --smoke)")
    chk.add_argument("--smoke", action="store_true", help="check the smoke subset (seconds; runs in CI)")
    chk.add_argument("--dry-run", action="store_true", help="print the commands without running them")
    chk.add_argument("--update", action="store_true", help="write measured values back into the manifest")
    chk.set_defaults(func=_check)
    from authorag.cli.bench_judges import add_judges
    from authorag.cli.bench_suite import add_suite
    from authorag.cli.bench_tracks import add_tracks

    add_suite(bsub)
    add_judges(bsub)
    add_tracks(bsub)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``bench run`` (also used to parse manifest commands)."""
    p.add_argument("--task", required=True, help="task name (authorag bench list)")
    p.add_argument("--method", required=True, help="method name (authorag bench list)")
    p.add_argument("--lists", type=int, default=100,
                   help="lists of the listwise evaluation (LE: one item per level, Spearman ρ per list) (default 100)")
    p.add_argument("--pairs", type=int, default=200,
                   help="pairs per difficulty of the pairwise evaluation (PE: which of two is more authoritative) (default 200)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", choices=["local", "openai", "fake"], help="LLM backend for judges/generator")
    p.add_argument("--model", help="GGUF path or model name for the backend")
    p.add_argument("--generator", action="store_true",
                   help="RAG: also score answers with an LLM generator (--backend; the local model by default)")
    p.add_argument("--max-instances", type=int, help="RAG: first N instances only")
    p.add_argument("--relevance", choices=["bm25", "dense", "llm-relevance"], default="bm25",
                   help="RAG relevance filter scorer (default bm25)")
    p.add_argument("--utility", choices=["label", "llm-utility"], default="label",
                   help="RAG utility filter: NIST usefulness label (default) or the LLM utility judge")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="method option, e.g. credibility_weight=0.5 or base_url=http://127.0.0.1:8080/v1")
    p.add_argument("--tag", default="", help="suffix of the results folder name")
    _add_track_options(p, "")
    p.add_argument("--protocol", choices=["authorag", "paper"], default="authorag",
                   help="judge prompt set: authorag (digits, logprob expectation) or paper (the AuthorityBench "
                        "protocol: JSON answers, greedy decoding, domains by name only)")


def _add_track_options(p: argparse.ArgumentParser, relevance_default: str) -> None:
    """``--track-relevance`` and ``--split`` (the rerank tracks)."""
    shown = relevance_default or "the rerank tracks' bm25,rank,dense; RAG tasks: no rerank rows"
    p.add_argument("--track-relevance", default=relevance_default,
                   help="relevance of the rerank tracks, comma-separated: bm25, rank, dense, upstream, similarity "
                        f"(default {shown}); also adds the RAG task's fused top-k rows")
    p.add_argument("--split", choices=["dev", "test", "all"], default="all",
                   help="half of the hand-written trust and no-harm sets (default all; tune on dev)")
    p.add_argument("--dense-max-tokens", type=_dense_tokens, default="lead", metavar="N|lead|full",
                   help="tokens of each page dense relevance reads: the RAG filter's --relevance dense, the "
                        "rerank tracks, and the MiniLM cosines handed over as upstream / similarity scores "
                        "(default lead: DenseRelevance's own, authorag.relevance.dense.LEAD_TOKENS; full: the "
                        "model's own window)")


def _dense_tokens(raw: str) -> int | None:
    """``--dense-max-tokens``: a positive integer, ``lead`` (the product's default) or ``full``."""
    if raw == "full":
        return None
    if raw == "lead":
        from authorag.relevance.dense import LEAD_TOKENS

        return LEAD_TOKENS
    if not raw.isdigit() or int(raw) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, 'lead' or 'full', got {raw!r}")
    return int(raw)


def _options(raw_options: list[str], flag: str = "--option") -> dict[str, str]:
    from authorag.errors import ConfigError

    options: dict[str, str] = {}
    for raw in raw_options:
        key, sep, value = str(raw).partition("=")
        if not sep or not key:
            raise ConfigError(f"{flag} must look like KEY=VALUE, got {raw!r}")
        options[key] = value
    return options


def _csv(raw: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in raw.split(",") if p.strip() and p.strip() != "none")


def _compare(args: argparse.Namespace) -> int:
    from authorag.benchmarks.compare import DEFAULT_TRACKS, CompareConfig, run_compare
    from authorag.benchmarks.tracks.rerank_methods import split_methods
    from authorag.settings import cache_dir

    cfg = CompareConfig(methods=split_methods(args.methods), tracks=_csv(args.tracks) or DEFAULT_TRACKS,
                        n_lists=args.lists, n_pairs=args.pairs, seed=args.seed,
                        rerank_relevance=_csv(args.rerank_relevance), options=_options(args.option),
                        track_relevance=_csv(args.track_relevance), split=args.split,
                        dense_max_tokens=args.dense_max_tokens,
                        imported={k: Path(v) for k, v in _options(args.import_method, "--import-method").items()},
                        delta_against=split_methods(args.delta_against) if args.delta_against else ())
    out = Path(args.out) if args.out else cache_dir() / "bench" / "compare"
    run_compare(cfg, out, log=lambda msg: print(msg, file=sys.stderr))
    print(json.dumps({"version": 1, "folder": str(out), "table": str(out / "compare.md")}, indent=2))
    return 0


def config_from_args(args: argparse.Namespace) -> Any:
    """A :class:`~authorag.benchmarks.runner.RunConfig` from parsed ``run`` arguments."""
    from authorag.benchmarks.runner import RunConfig
    options = _options(args.option)
    return RunConfig(task=args.task, method=args.method, n_lists=args.lists, n_pairs=args.pairs, seed=args.seed,
                     backend=args.backend, model=args.model, generator=args.generator,
                     max_instances=args.max_instances, relevance=args.relevance, utility=args.utility, options=options, tag=args.tag,
                     protocol=args.protocol, track_relevance=_csv(args.track_relevance), split=args.split,
                     dense_max_tokens=args.dense_max_tokens)


def _build_task_summaries() -> list[dict[str, Any]]:
    from authorag.benchmarks.rag.tasks import load_rag_task
    from authorag.benchmarks.registry import RAG_TASKS, load_task, task_names
    from authorag.benchmarks.tracks.graded import graded_pools
    from authorag.benchmarks.tracks.trust_data import LANGUAGE_VERSIONS, form_of, load_cases

    tasks: list[dict[str, Any]] = []
    for name in task_names():
        if name in RAG_TASKS:
            rag = load_rag_task(name)
            tasks.append({"name": name, "items": len(rag.instances), "levels": None, "description": rag.description})
        else:
            t = load_task(name)
            tasks.append({"name": name, "items": len(t.items), "levels": t.n_levels, "description": t.description})
    for name, n, text in (
            ("trust-pairs", len(load_cases("trust-pairs")), "hand-written: trusted page first over keyword-stuffed pages"),
            ("no-harm-pairs", len(load_cases("no-harm-pairs")), "hand-written: on-topic page above an off-topic trusted one"),
            ("no-harm-hard", len(load_cases("no-harm-hard")),
             "hand-written: on-topic page above an off-topic trusted one sharing more of the question's words"),
            ("no-harm-lists", len(load_cases("no-harm-lists")), "hand-written: 5-7 pages, on-topic above off-topic, trusted first"),
            ("trust-pairs-v2", len(load_cases("trust-pairs-v2")),
             "hand-written, 8 topics, en/de/es/fr: trusted page first over six kinds of untrusted page"),
            ("no-harm-pairs-v2", len(load_cases("no-harm-pairs-v2")),
             "hand-written, 8 topics, en/de/es/fr: ordinary on-topic page above a trusted off-topic one"),
            ("rerank-lists-v2", len(load_cases("rerank-lists-v2")),
             "hand-written, 8 topics, en/de/es/fr: trusted, untrusted and off-topic pages in order"),
            ("trust-pairs-v3", len(load_cases("trust-pairs-v3")),
             "hand-written after v2 was tuned on, no query or URL in common: the trust-pairs-v2 form, larger"),
            ("no-harm-pairs-v3", len(load_cases("no-harm-pairs-v3")),
             "hand-written after v2 was tuned on, no query or URL in common: the no-harm-pairs-v2 form, larger"),
            ("rerank-lists-v3", len(load_cases("rerank-lists-v3")),
             "hand-written after v2 was tuned on, no query or URL in common: the rerank-lists-v2 form, larger"),
            ("trust-pairs-v4", len(load_cases("trust-pairs-v4")),
             "hand-written on eight topics v1-v3 do not cover: the trust-pairs-v2 form"),
            ("no-harm-pairs-v4", len(load_cases("no-harm-pairs-v4")),
             "hand-written on eight topics v1-v3 do not cover: the no-harm-pairs-v2 form"),
            ("rerank-lists-v4", len(load_cases("rerank-lists-v4")),
             "hand-written on eight topics v1-v3 do not cover: the rerank-lists-v2 form"),
            ("rerank-lists-v5", len(load_cases("rerank-lists-v5")),
             "hand-written after v2-v4 were tuned on: 7-page lists, one trusted page in its own words"),
            *((s, len(load_cases(s)), f"hand-written in {v.names}: the {form_of(s)} form")
              for v in LANGUAGE_VERSIONS for s in v.sets),
            ("graded-trec2019", len(graded_pools()), "TREC HM 2019 pools of usefulness-graded pages + off-topic pages: nDCG")):
        tasks.append({"name": name, "items": n, "levels": None, "description": text})
    return tasks


def _task_summaries() -> list[dict[str, Any]]:
    """Name, size and description of every task, cached on disk under a fingerprint of the task
    code and data files: building all tasks parses every task's domains (seconds), listing should not."""
    import hashlib
    from importlib import resources

    from authorag.settings import cache_dir

    digest = hashlib.sha256()
    for mod in (("tasks.py",), ("rag", "tasks.py"), ("tracks", "trust_data.py"), ("tracks", "graded.py")):
        digest.update(resources.files("authorag.benchmarks").joinpath(*mod).read_bytes())
    data = Path(str(resources.files("authorag.benchmarks.data")))
    for f in sorted(data.rglob("*")):
        st = f.stat()
        digest.update(f"{f.relative_to(data)}:{st.st_size}:{st.st_mtime_ns}".encode())
    path = cache_dir() / "bench" / f"tasks-{digest.hexdigest()[:16]}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tasks = _build_task_summaries()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(tasks), encoding="utf-8")
    except OSError:
        pass  # a read-only cache only costs speed
    return tasks


def _list(args: argparse.Namespace) -> int:
    from authorag.benchmarks.registry import method_specs

    tasks = _task_summaries()
    methods = [{"name": s.name, "kinds": list(s.kinds), "llm": s.needs_backend, "description": s.description}
               for s in method_specs().values()]
    if args.json:
        print(json.dumps({"version": 1, "tasks": tasks, "methods": methods}, indent=2))
        return 0
    print("TASKS")
    for t in tasks:
        print(f"  {t['name']:<30} {t['items']:>6} items  {t['description']}")
    print("METHODS")
    for m in methods:
        print(f"  {m['name']:<32} {'LLM ' if m['llm'] else '    '}{m['description']}")
    return 0


def _progress_factory(quiet: bool) -> tuple[Any, Callable[[str, int], Callable[[], None]]]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # the bar goes to stderr so stdout stays one JSON document
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), disable=quiet, transient=False)

    def make(label: str, total: int) -> Callable[[], None]:
        tid = bar.add_task(label, total=total)
        return lambda: bar.advance(tid)

    return bar, make


def _run(args: argparse.Namespace) -> int:
    from authorag.benchmarks.runner import (
        result_folder,
        run_condition,
        write_result,
    )
    from authorag.settings import results_dir

    cfg = config_from_args(args)
    out = results_dir() if args.out is None else Path(args.out)
    result_folder(out, cfg.run_id(), overwrite=args.overwrite)  # fail before the run, not after it
    bar, make = _progress_factory(args.quiet)
    with bar:
        result = run_condition(cfg, make)
    folder = write_result(result, out, overwrite=args.overwrite)
    print(json.dumps({"version": 1, "folder": str(folder), "metrics": _headline(result["metrics"]),
                      "wall_time_s": result["wall_time_s"]}, indent=2))
    return 0


def _headline(metrics: Mapping[str, Any]) -> dict[str, Any]:
    if metrics.get("protocol") == "rag":
        return {"generator_free": metrics["generator_free"], "generator": metrics.get("generator")}
    if metrics.get("protocol") == "tail":
        return {"pair_accuracy": metrics["pairs"]["accuracy"], "pair_accuracy_ci": metrics["pairs"]["accuracy_ci"],
                "spearman": metrics["le"]["spearman"], "coverage": metrics["coverage"]}
    if metrics.get("protocol") == "hosted":
        return {"accuracy": metrics["overall"]["accuracy"], "accuracy_ci": metrics["overall"]["accuracy_ci"],
                "by_label": {k: v["accuracy"] for k, v in metrics["by_label"].items()}, "coverage": metrics["coverage"]}
    return {"spearman": metrics["le"]["spearman"], "kendall": metrics["le"]["kendall"],
            "coverage": metrics["le"]["coverage"],
            "pe_easy": metrics["pe"]["easy"]["accuracy"], "pe_hard": metrics["pe"]["hard"]["accuracy"]}


def _report(args: argparse.Namespace) -> int:
    from authorag.benchmarks.report import write_report
    from authorag.settings import results_dir

    results = results_dir() if args.results is None else Path(args.results)
    path = write_report(results, results if args.out is None else Path(args.out))
    print(path)
    return 0


def _check(args: argparse.Namespace) -> int:
    from authorag.benchmarks import manifest as mf

    path = Path(args.manifest) if args.manifest else mf.default_manifest_path()
    conditions = mf.load_manifest(path)
    if args.list:
        for c in conditions:
            print(f"{c.name:<40} {'smoke ' if c.smoke else '      '}{c.command}")
        return 0
    chosen = mf.select(conditions, names=args.condition, smoke=not (args.all or args.condition))
    if args.dry_run:
        for c in chosen:
            print(c.command)
        return 0
    results = [r for c in chosen for r in mf.check_condition(c, _run_manifest_condition)]
    for r in results:
        shown = "missing" if r.actual is None else f"{r.actual:.6f}"
        print(f"{'ok  ' if r.ok else 'FAIL'} {r.condition:<36} {r.metric:<34} expected {r.expected:.6f} "
              f"± {r.tolerance:g}, got {shown}")
    if args.update:
        measured: dict[str, dict[str, float | None]] = {}
        for r in results:
            measured.setdefault(r.condition, {})[r.metric] = r.actual
        mf.update_manifest(path, measured)
        return 0
    failed = sum(not r.ok for r in results)
    print(f"{len(results) - failed}/{len(results)} metrics match", file=sys.stderr)
    return 1 if failed else 0


def _run_manifest_condition(cond: Any) -> Mapping[str, Any]:
    from authorag.benchmarks.runner import run_condition

    parser = argparse.ArgumentParser(prog="authorag bench run", add_help=False)
    add_run_arguments(parser)
    args = parser.parse_args(cond.run_argv())
    return run_condition(config_from_args(args))["metrics"]
