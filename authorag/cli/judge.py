"""``authorag judge``: score or rank domains, URLs or entities with an LLM judge.

Example:
    authorag judge --method point nih.gov example-spam.biz
    authorag judge --method pair --output rank --json nih.gov bbc.co.uk example-spam.biz
    authorag judge --method pair --output rank --aggregate bubble nih.gov bbc.co.uk example-spam.biz
    authorag judge --backend openai --base-url http://127.0.0.1:8080/v1 --model qwen nih.gov
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

JSON_VERSION = 1

Subparsers = argparse._SubParsersAction  # pyright: ignore[reportPrivateUsage]


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``judge`` command."""
    p = sub.add_parser("judge", help="judge the authority of domains/URLs/entities with an LLM",
                       description="Judge source authority with an LLM (0-9 scale, shown as 0-1).")
    p.add_argument("inputs", nargs="*", metavar="URL", help="domains, URLs or entity names")
    p.add_argument("--method", choices=["point", "pair", "list"], default="point")
    p.add_argument("--output", choices=["score", "rank"], default="score",
                   help="score or rank; for --method pair, rank sends PairRank (A or B) prompts")
    p.add_argument("--aggregate", choices=["average", "bubble"], default="average",
                   help="--method pair: AverageScore over pairs, or BubbleSort from pair preferences")
    p.add_argument("--with-text", action="store_true", help="show URL + page text (give text with --input)")
    p.add_argument("--text-budget", type=int, default=800, help="characters of page text shown")
    p.add_argument("--input", metavar="FILE", help="JSON lines with 'url' and optional 'text' (or one URL per line)")
    p.add_argument("--entity-type", help="treat inputs as entities of this type (e.g. 'movie')")
    p.add_argument("--backend", choices=["local", "openai"], default="local")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (--backend openai)")
    p.add_argument("--api-key", help="API key for --backend openai (default: none)")
    p.add_argument("--model", help="model name (openai) or GGUF path / registered name (local)")
    p.add_argument("--greedy", action="store_true", help="parse greedy text instead of logprobs")
    p.add_argument("--no-cache", action="store_true", help="do not use the persistent judge cache")
    p.add_argument("--cache", metavar="PATH_OR_URL", help="judge cache: a SQLite file or redis://host:port/db")
    p.add_argument("--on-failure", choices=["raise", "skip"], default="skip")
    p.add_argument("--json", action="store_true", help="print a JSON array in input order")
    p.set_defaults(func=_run)


def _read_inputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = [(u, "") for u in args.inputs]
    if args.input:
        from authorag.adapters import DEFAULT_URL_KEYS, url_from_metadata
        from authorag.errors import ConfigError

        with open(args.input, encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                line = line.strip()
                if not line:
                    continue
                if line.startswith("{"):
                    try:
                        obj = json.loads(line)
                    except json.JSONDecodeError as exc:
                        raise ConfigError(f"{args.input}:{number}: not valid JSON ({exc.msg})") from None
                    url = url_from_metadata(obj, DEFAULT_URL_KEYS) if isinstance(obj, dict) else ""
                    if not url:
                        raise ConfigError(f"{args.input}:{number}: no URL; give it under one of "
                                          f"{', '.join(DEFAULT_URL_KEYS)} (or write the URL alone on the line)")
                    text = obj.get("text", "")
                    rows.append((url, text if isinstance(text, str) else ""))
                else:
                    rows.append((line, ""))
    return rows


def _backend(args: argparse.Namespace) -> Any:
    from authorag.judges.backends import load_backend

    kw: dict[str, Any] = {}
    if args.backend == "openai":
        kw = {k: v for k, v in (("base_url", args.base_url), ("model", args.model), ("api_key", args.api_key)) if v is not None}
    elif args.model is not None:
        kw["model_path"] = args.model
    return load_backend(args.backend, cache=False if args.no_cache else (args.cache or True), **kw)


def _items(args: argparse.Namespace, rows: list[tuple[str, str]]) -> list[Any]:
    from authorag.judges.items import JudgeItem
    from authorag.types import Candidate

    if args.entity_type:
        return [JudgeItem.entity(name, args.entity_type) for name, _ in rows]
    return [Candidate.create(url, text=text) for url, text in rows]


def _run(args: argparse.Namespace) -> int:
    from authorag.judges.registry import load_judge

    rows = _read_inputs(args)
    if not rows:
        print("authorag judge: give domains/URLs as arguments or with --input FILE", file=sys.stderr)
        return 2
    kw: dict[str, Any] = {"with_text": args.with_text, "text_budget": args.text_budget,
                          "on_failure": args.on_failure, "use_logprobs": not args.greedy}
    if args.method != "point":
        kw["output"] = args.output
    if args.method == "pair":
        kw["aggregate"] = args.aggregate
    elif args.aggregate != "average":
        print("authorag judge: --aggregate applies to --method pair only", file=sys.stderr)
        return 2
    from authorag.cli._util import show_progress

    judge = load_judge(args.method, _backend(args), **kw)
    items = _items(args, rows)
    calls = len(items) if args.method == "point" else None  # pair/list call counts depend on the plan
    print(f"authorag judge: {len(items)} item(s), {args.method} judge on the {args.backend} backend"
          + (f", {calls} call(s); the first call loads the model" if calls else ""), file=sys.stderr)
    with show_progress({judge.name: calls} if calls else None):
        run = judge.judge(items)
    out = _rows(args, rows, items, run)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        _print(out)
    print(f"{run.method} judge: {run.cost.calls} calls ({run.cost.cache_hits} cached), "
          f"{run.cost.prompt_tokens}+{run.cost.completion_tokens} tokens, {run.cost.latency_s:.1f} s, "
          f"parse failures {run.parse_failures}/{run.attempts}", file=sys.stderr)
    return 0


def _rows(args: argparse.Namespace, rows: list[tuple[str, str]], items: list[Any], run: Any) -> list[dict[str, Any]]:
    rank = {idx: pos + 1 for pos, idx in enumerate(run.ranking())}
    out: list[dict[str, Any]] = []
    for i, ((raw_input, _), item, s) in enumerate(zip(rows, items, run.scores, strict=True)):
        out.append({
            "version": JSON_VERSION, "input": raw_input,
            "domain": None if args.entity_type else item.domain,
            "score": s.score, "raw": s.raw, "rank": rank[i], "mode": s.mode,
            "method": run.method, "output": run.output, "prompt_version": s.prompt_version,
            "backend": run.backend, "model": run.model, "error": s.error,
        })
    return out


def _print(rows: list[dict[str, Any]]) -> None:
    for row in sorted(rows, key=lambda r: r["rank"]):
        score = "  -  " if row["score"] is None else f"{row['score']:.3f}"
        print(f"{row['rank']:>3}  {score}  {row['mode'] or row['error']:<16} {row['input']}")


__all__ = ["register"]
