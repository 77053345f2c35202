"""Pages that restate the question: rules for reading them, on the tracks, against today.

A page that repeats the question word for word earns relevance by restating it, and on the v2
trust pairs such a page (a forum, Q&A or social post) sets the window's relevance reference, so an
official page that answers in its own words falls off topic. This script runs the default method
with ``--relevances`` (cascade and BM25) over the v2 tracks (rows per language and kind) and the v1
tracks, once per rule (``--rules``), and says which rules are at least as good as ``today`` on
every row and better on one:

- ``today``: every page read as it is (the rule switched off);
- ``user-posts``: a user's page on a forum, Q&A, social or video platform is read without the runs
  of its text that restate the question (:mod:`authorag.rerankers.restated`, the shipped rule);
- ``user-posts-exclude``: the same, and such a page is never the relevance reference either (as a
  keyword-stuffed one is not);
- ``every-page``: every page is read without the runs that restate the question.

The rules are switched by replacing functions of :mod:`authorag.rerankers.restated` (and, for the
exclusion, wrapping the reranker's fusion) for each rule's runs. Writes ``restated.md`` and
``restated.json`` to ``--out``; choose on ``--split dev`` (the default), read ``--split test``
once at the end:
    PYTHONPATH=$PWD .venv/bin/python scripts/eval_restated.py --out /tmp/restated
"""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scripts.eval_words_veto import verdict_lines, verdicts

V2_TRACKS = ("trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2")
V1_TRACKS = ("trust-pairs", "no-harm-pairs", "no-harm-lists", "no-harm-hard")
RULES = ("today", "user-posts", "user-posts-exclude", "every-page")


@contextmanager
def rule(name: str) -> Generator[None]:
    """Switch the reranker to ``name`` (see the module doc) for the duration of the block."""
    from authorag.rerankers import authority, restated

    saved_read, saved_post, saved_fuse = authority.read_without_restated, restated.user_post, authority.fuse
    last: list[Any] = [None]

    def remembering(query: str, cands: Sequence[Any]) -> Any:
        read, marks = saved_read(query, cands)
        last[0] = marks
        return read, marks

    def excluding(policy: Any, relevance: Any, signal: Any, text: Any = None, low: Any = None) -> Any:
        marks = last[0]
        low = marks if low is None else (low if marks is None else low | marks)
        return saved_fuse(policy, relevance, signal, text, low)

    try:
        if name == "today":
            authority.read_without_restated = lambda query, cands: (cands, None)  # type: ignore[assignment]
        elif name == "user-posts-exclude":
            authority.read_without_restated = remembering  # type: ignore[assignment]
            authority.fuse = excluding  # type: ignore[assignment]
        elif name == "every-page":
            restated.user_post = lambda c: bool(c.text)  # type: ignore[assignment]
        elif name != "user-posts":
            raise SystemExit(f"unknown rule {name!r}; known: {', '.join(RULES)}")
        yield
    finally:
        authority.read_without_restated, restated.user_post, authority.fuse = saved_read, saved_post, saved_fuse


def run(split: str, seed: int, rules: Sequence[str], relevances: Sequence[str],
        progress: Callable[[str], None] = print) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """Row label -> {rule -> value} and "track:case id (relevance)" -> {rule -> head metric}."""
    from authorag.benchmarks.methods import MethodContext
    from authorag.benchmarks.registry import build_method
    from authorag.benchmarks.tracks.rerank import Reranking, run_case_track
    from authorag.benchmarks.tracks.rerank_methods import rerank_setup

    ctx = MethodContext(task_family="ragauth", label_source=None, item_kind="document", seed=seed)
    reranking = Reranking(rerank_setup(build_method("default", ctx)))
    table: dict[str, dict[str, float]] = {}
    cases: dict[str, dict[str, float]] = {}
    for name in rules:
        with rule(name):
            for task in (*V2_TRACKS, *V1_TRACKS):
                start = time.perf_counter()
                result = run_case_track(task, split, reranking, relevances, seed=seed)
                for label, cell in (*result["rows"].items(), *result["detail_rows"].items()):
                    if ", domain " not in label:
                        table.setdefault(f"{task} | {label}", {})[name] = float(cell["value"])
                for case in result["cases"]:
                    for rel in relevances:
                        cases.setdefault(f"{task}:{case['id']} ({rel})", {})[name] = float(case[rel])
                progress(f"{name}, {task}: {time.perf_counter() - start:.0f} s")
    return table, cases


def markdown(results: dict[str, Any]) -> str:
    rules, table = results["rules"], results["rows"]
    lines = ["# Pages that restate the question: rules against today", "",
             f"Made by `scripts/eval_restated.py --split {results['split']}` (seed {results['seed']}, the default "
             f"method, relevances {', '.join(results['relevances'])}). Shares of (case, input order) units; rows per "
             "language and kind are the head metric of each track.", "",
             "| track | row | " + " | ".join(f"`{r}`" for r in rules) + " |", "|---|---|" + "---|" * len(rules)]
    for label, values in table.items():
        task, row = label.split(" | ", 1)
        lines.append(f"| {task} | {row} | " + " | ".join(f"{values[r]:.3f}" for r in rules) + " |")
    return "\n".join(lines + verdict_lines(results["verdicts"], "today", "rule")) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Rules for pages that restate the question, on the tracks.")
    parser.add_argument("--out", type=Path, required=True, help="folder for restated.md and restated.json")
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default=",".join(RULES), help="rules, today first (default %(default)s)")
    parser.add_argument("--relevances", default="cascade,bm25", help="relevances (default %(default)s)")
    args = parser.parse_args()
    rules = args.rules.split(",")
    if rules[0] != "today":
        raise SystemExit("--rules must start with today (the rules are measured against it)")
    relevances = args.relevances.split(",")
    args.out.mkdir(parents=True, exist_ok=True)
    table, cases = run(args.split, args.seed, rules, relevances)
    results: dict[str, Any] = {"seed": args.seed, "split": args.split, "method": "default", "relevances": relevances,
                               "rules": rules, "rows": table, "verdicts": verdicts(table, cases, list(rules), "today"), "cases": cases}
    (args.out / "restated.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "restated.md").write_text(markdown(results))
    print(markdown(results))
    print(f"wrote {args.out / 'restated.md'}")


if __name__ == "__main__":
    main()
