"""CLI commands ``authorag rerank`` (JSONL in, JSONL out) and ``authorag demo`` (the main job)."""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping
from typing import Any, get_args

from authorag.adapters import DEFAULT_URL_KEYS, url_from_metadata
from authorag.cli._util import (
    JSON_VERSION,
    Subparsers,
    add_max_input,
    input_cap,
    read_jsonl,
    write_jsonl,
)
from authorag.compose import add_scorer_options
from authorag.errors import ConfigError
from authorag.policy import add_policy_options
from authorag.scores import FUSED_SCORE
from authorag.types import Relevance


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``rerank`` and ``demo`` to the CLI."""
    p = sub.add_parser("rerank", help="rerank candidates (JSONL: text, the URL under url/source/link/href/source_url, "
                                      "optional id and score)")
    p.add_argument("--query", "-q", required=True,
                   help="the question the candidates were retrieved for (bm25 and dense relevance score "
                        "the text against it)")
    p.add_argument("--input", "-i", default="-", help="candidates JSONL ('-' for stdin): one object per line with "
                                                      "a string 'text'")
    add_max_input(p)
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (query, provenance: scorer, prior stores, policy, with "
                        "--suitability the question's topic; results) instead of one JSON line per candidate")
    _add_relevance(p, "cascade-or-bm25")
    add_policy_options(p)
    _add_suitability(p)
    add_scorer_options(p)
    p.set_defaults(func=_rerank)

    d = sub.add_parser("demo", help="rerank a bundled TREC health question and show before/after (--judge local "
                                    "adds the LLM judge: needs the model extra)")
    _add_relevance(d, "bm25")
    add_policy_options(d)
    _add_suitability(d)
    add_scorer_options(d, judge_default="none")
    d.set_defaults(func=_demo)


def _add_relevance(p: argparse.ArgumentParser, default: str) -> None:
    p.add_argument("--relevance", choices=get_args(Relevance), default=default,
                   help="relevance fused with authority: BM25, cascade or dense over the text, cascade where the "
                        "embeddings extra is installed else BM25 (cascade-or-bm25, as the server), the input's "
                        "'score' field when every line has one else the input order (auto), the input order "
                        "(rank), the 'score' field (upstream), the 'score' field declared to judge meaning, as "
                        f"a vector retriever's similarity does (similarity), or none (default {default})")


def _add_suitability(p: argparse.ArgumentParser) -> None:
    """``--suitability`` / ``--suitability-matrix`` (``--suitability-weight`` is a policy field)."""
    g = p.add_argument_group("suitability")
    g.add_argument("--suitability", action="store_true",
                   help="fuse source-type x query-topic suitability into the source signal (off by default)")
    g.add_argument("--suitability-matrix", metavar="YAML", default=None,
                   help="your suitability matrix (implies --suitability); default the shipped matrix_v1.yaml")


def build_reranker(args: argparse.Namespace) -> tuple[Any, str]:
    """An AuthorityReranker and its relevance mode, configured from parsed CLI options over the
    ``AUTHORAG_*`` variables and the config file (the policy from its ``[reranker]`` table)."""
    from authorag import adapters
    from authorag.compose import args_environ, load_scorer, settings_from_args
    from authorag.policy import RerankPolicy, policy_from_env
    from authorag.settings import flag_values

    fields = policy_from_env(args_environ(args), **flag_values(args, RerankPolicy))
    suitability: bool | str = args.suitability_matrix or bool(args.suitability)
    return adapters.build_reranker(load_scorer(settings_from_args(args)), args.relevance, fields, suitability)


def _read(path: str, max_bytes: int) -> tuple[list[tuple[str, str, float | None]], list[dict[str, Any]]]:
    """(url, text, score) of each candidate line and the lines; each line is checked as the
    server checks a document object (a string 'text'), before any scoring."""
    items: list[tuple[str, str, float | None]] = []
    rows: list[dict[str, Any]] = []
    for n, obj in read_jsonl(path, max_bytes):
        if "_example" in obj:
            continue
        items.append((_url(obj, f"{path}:{n}"), _text(obj, f"{path}:{n}"), _score(obj, f"{path}:{n}")))
        rows.append(obj)
    if not items:
        raise ConfigError(f"{path}: no candidates (no JSON object line); give one object per line, "
                          'e.g. {"url": "https://www.nih.gov/x", "text": "..."}')
    return items, rows


def _text(obj: dict[str, Any], where: str) -> str:
    text = obj.get("text")
    if not isinstance(text, str):
        got = "no 'text'" if "text" not in obj else f"'text' {json.dumps(text)[:40]}"
        raise ConfigError(f"{where}: an object without a string 'text' field ({got}); "
                          'send {"text": ..., "url": ...}')
    return text


def _url(obj: dict[str, Any], where: str) -> str:
    url = url_from_metadata(obj)
    if not url:
        for key in DEFAULT_URL_KEYS:
            value = obj.get(key)
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"{where}: {key!r} must be a string (the page's URL), got "
                                  f"{type(value).__name__} {json.dumps(value)[:40]}")
    return url


def _score(obj: dict[str, Any], where: str) -> float | None:
    score = obj.get("score")
    if score is None:
        return None
    try:
        score = float(score)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: 'score' must be a number, got {score!r}") from exc
    if not math.isfinite(score):  # NaN would rank nothing and print as invalid JSON
        raise ConfigError(f"{where}: 'score' must be a finite number, got {obj['score']!r}")
    return score


def _rerank(args: argparse.Namespace) -> int:
    from authorag.adapters import ORDER_MODES, breakdowns, candidates

    if not args.query.strip():
        raise ConfigError("--query is empty; give the question the candidates were retrieved for "
                          "(relevance and the on-topic window read it)")
    reranker, mode = build_reranker(args)  # validates the options before reading any input
    items, rows = _read(args.input, input_cap(args))
    if mode not in ORDER_MODES and items and all(score is not None for _, _, score in items):
        sys.stderr.write(f"authorag rerank: note: every line has a 'score', which relevance {args.relevance!r} "
                         "does not fuse (it scores the text against --query; each score is kept as "
                         "authority.upstream_score); pass --relevance auto to fuse the scores instead\n")
    cands, source = candidates(items, mode)
    ranking = reranker.rerank(args.query, cands)
    results = [{**rows[int(c.id)], "rank": rank, "score": c.scores[FUSED_SCORE], "authority": explanation}
               for rank, (c, explanation) in enumerate(zip(ranking.candidates, breakdowns(ranking, source)), start=1)]
    if not args.json:
        write_jsonl(results)
        return 0
    provenance = dict(ranking.provenance)
    suit: Mapping[str, Any] | None = provenance.get("suitability")
    if suit is not None:  # its per-candidate part is in the results; the question's topic and YMYL flag are not
        provenance["suitability"] = {k: v for k, v in suit.items() if k != "candidates"}
    print(json.dumps({"version": JSON_VERSION, "query": args.query, "provenance": provenance, "results": results},
                     ensure_ascii=False, indent=1))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from authorag.cli._util import show_progress
    from authorag.cli.demo import compute_demo, print_demo

    say = sys.stderr.write
    say(f"authorag demo: 1/3 building the scorer ({'with' if args.judge != 'none' else 'without'} an LLM judge"
        + ("; the first run assembles the 1.1 GB judge model into the cache" if args.judge == "local" else "")
        + ")\n")
    with show_progress():
        reranker = build_reranker(args)[0]
        say(f"authorag demo: 2/3 scoring 10 pages with {reranker.scorer.name}"
            + (" (judge calls show below)\n" if args.judge != "none" else "\n"))
        result = compute_demo(reranker)
    sys.stderr.flush()
    print_demo(reranker, result, sys.stdout)  # after the progress bars have stopped
    sys.stdout.flush()
    say("authorag demo: 3/3 done\n")
    return 0
