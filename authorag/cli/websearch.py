"""CLI commands ``authorag export`` (the policy for a search provider) and ``authorag check`` (results against it)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from authorag.cli._util import JSON_VERSION, Subparsers, read_text
from authorag.compose import add_scorer_options
from authorag.policy import add_policy_options

EXPORT_FORMATS = ("goggle", "searxng", "tavily", "exa", "perplexity", "openai", "anthropic")


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``export`` and ``check`` to the CLI."""
    e = sub.add_parser("export", help="compile the policy (allow/deny, min-authority, trust bands from the shipped "
                                      "priors) for a search provider: a Brave Goggle, SearXNG hostnames settings, or "
                                      "the domain lists of Tavily, Exa, Perplexity, OpenAI or Anthropic web search")
    e.add_argument("format", choices=EXPORT_FORMATS, help="the provider's format")
    e.add_argument("--side", choices=("include", "exclude"), default="include",
                   help="for providers that take one list per request (perplexity, anthropic): the allow list "
                        "(trusted domains, default) or the block list (denied and low-credibility domains)")
    e.add_argument("--trusted-from", type=float, default=None, metavar="TRUST",
                   help="trust from which a prior-table domain is boosted or included (default 0.7)")
    e.add_argument("--output", "-o", default="-", help="write here ('-' for stdout, the default)")
    add_policy_options(e)
    add_scorer_options(e, judge_flags=False)
    e.set_defaults(func=_export)

    c = sub.add_parser("check", help="report which search results (a search API's JSON response, or JSON lines) "
                                     "break the policy, and print them reranked and filtered")
    c.add_argument("--input", "-i", default="-", help="the results: one JSON response or JSON lines ('-' for stdin)")
    c.add_argument("--query", "-q", default="", help="the query (default: each response's own 'query' field)")
    c.add_argument("--only-allowed", action="store_true",
                   help="also report every result outside the policy's allow list (what an include filter promised)")
    c.add_argument("--top-n", type=int, default=None, help="keep at most this many results per response")
    add_policy_options(c)
    add_scorer_options(c, judge_flags=False)
    c.set_defaults(func=_check)


def _policy(args: argparse.Namespace) -> Any:
    from authorag.compose import args_environ
    from authorag.policy import RerankPolicy, make_policy, policy_from_env
    from authorag.settings import flag_values

    return make_policy(policy_from_env(args_environ(args), **flag_values(args, RerankPolicy)))


def _scorer(args: argparse.Namespace) -> Any:
    """The composition without an LLM judge (export scores the whole prior table; check is prior-only too)."""
    import dataclasses

    from authorag.compose import load_scorer, settings_from_args

    return load_scorer(dataclasses.replace(settings_from_args(args, judge_flags=False), judge="none"))


def _export(args: argparse.Namespace) -> int:
    from authorag.websearch.export import DEFAULT_TRUSTED_FROM, compile_policy
    from authorag.websearch.formats import FORMATS

    policy = _policy(args)  # validates the options before any work
    trusted_from = DEFAULT_TRUSTED_FROM if args.trusted_from is None else args.trusted_from
    compiled = compile_policy(policy, _scorer(args), trusted_from)
    export = FORMATS[args.format](compiled, args.side)
    if args.output == "-":
        sys.stdout.write(export.text)
    else:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(export.text)
    for line in export.summary():
        sys.stderr.write(f"authorag export: {line}\n")
    return 0


def _check(args: argparse.Namespace) -> int:
    from authorag import adapters
    from authorag.websearch.check import check_responses, parse_responses
    from authorag.websearch.results import ResultFilter

    policy = _policy(args)
    adapters.check_top("top_n", args.top_n)
    responses = parse_responses(read_text(args.input), args.input)
    reranker, mode = adapters.build_reranker(_scorer(args), "rank", policy)
    report = check_responses(ResultFilter(reranker, mode, args.top_n), responses, args.query, args.only_allowed)
    print(json.dumps({"version": JSON_VERSION, **report}, ensure_ascii=False, indent=1))
    sys.stderr.write(f"authorag check: {report['violations']} of {report['results']} results break the policy\n")
    return 0


__all__ = ["EXPORT_FORMATS", "register"]
