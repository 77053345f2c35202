"""CLI commands ``authorag rerank`` (JSONL in, JSONL out) and ``authorag demo`` (the main job)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from authorag._cliutil import JSON_VERSION, Subparsers, read_jsonl, write_jsonl
from authorag.errors import ConfigError

RELEVANCE_CHOICES = ("upstream", "bm25", "dense", "none")


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``rerank`` and ``demo`` to the CLI."""
    from authorag.priors.cli import add_scorer_options

    p = sub.add_parser("rerank", help="rerank candidates (JSONL: url, text, optional id and score)")
    p.add_argument("--query", "-q", required=True)
    p.add_argument("--input", "-i", default="-", help="candidates JSONL ('-' for stdin)")
    _add_policy_options(p)
    add_scorer_options(p)
    p.set_defaults(func=_rerank)

    d = sub.add_parser("demo", help="rerank a bundled TREC health question and show before/after")
    _add_policy_options(d, relevance_default="bm25", weight_default=0.5)
    add_scorer_options(d, judge_default="local")
    d.set_defaults(func=_demo)


def _add_policy_options(p: argparse.ArgumentParser, relevance_default: str = "upstream",
                        weight_default: float | None = None) -> None:
    p.add_argument("--mode", choices=["rerank", "filter"], default="rerank")
    p.add_argument("--fusion", choices=["linear", "rrf"], default="linear")
    p.add_argument("--weight", type=float, default=weight_default,
                   help="share of authority in the fused score [0, 1] (default 0.3)")
    p.add_argument("--credibility-weight", type=float, default=None,
                   help="share of credibility in the authority signal where known (default 0.5)")
    p.add_argument("--top-k", type=int, default=None)
    p.add_argument("--min-authority", type=float, default=None)
    p.add_argument("--allow", action="append", default=[], metavar="PATTERN", help="e.g. '*.gov', 'who.int'")
    p.add_argument("--deny", action="append", default=[], metavar="PATTERN")
    p.add_argument("--relevance", choices=RELEVANCE_CHOICES, default=relevance_default,
                   help="relevance signal fused with authority: the input's 'score' field (upstream), "
                        "BM25 or dense over the candidates' text, or none")
    p.add_argument("--suitability", action="store_true",
                   help="fuse source-type x query-topic suitability into the source signal (off by default)")
    p.add_argument("--suitability-matrix", metavar="YAML", default=None,
                   help="your suitability matrix (implies --suitability); default the shipped matrix_v1.yaml")
    p.add_argument("--suitability-weight", type=float, default=None,
                   help="share of suitability in the source signal [0, 1] (default 0.5)")


def build_reranker(args: argparse.Namespace) -> Any:
    """An AuthorityReranker configured from parsed CLI options."""
    from authorag.priors.cli import build_scorer
    from authorag.rerankers.authority import AuthorityReranker, RerankPolicy

    policy = RerankPolicy().replace(mode=args.mode, fusion=args.fusion, weight=args.weight,
                                    credibility_weight=args.credibility_weight, top_k=args.top_k,
                                    min_authority=args.min_authority, allow=tuple(args.allow), deny=tuple(args.deny),
                                    suitability_weight=args.suitability_weight)
    relevance = None
    if args.relevance in ("bm25", "dense"):
        from authorag.rerankers.relevance import load_relevance

        relevance = load_relevance(args.relevance)
    suitability = None
    if args.suitability or args.suitability_matrix is not None:
        from authorag.suitability import load_suitability

        suitability = load_suitability(args.suitability_matrix)
    return AuthorityReranker(build_scorer(args), relevance=relevance, policy=policy, suitability=suitability)


def _candidates(path: str, use_upstream: bool) -> tuple[list[Any], list[dict[str, Any]]]:
    from authorag.types import Candidate

    cands: list[Candidate] = []
    rows: list[dict[str, Any]] = []
    for n, obj in read_jsonl(path):
        if "_example" in obj:
            continue
        url = obj.get("url", "")
        if not isinstance(url, str):
            raise ConfigError(f"{path}:{n}: 'url' must be a string, got {type(url).__name__}")
        scores: dict[str, float] = {}
        if use_upstream and obj.get("score") is not None:
            try:
                scores["relevance"] = float(obj["score"])
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"{path}:{n}: 'score' must be a number, got {obj['score']!r}") from exc
        cid = str(obj.get("id", len(cands)))
        cands.append(Candidate.create(url, str(obj.get("text", "")), id=cid, scores=scores))
        rows.append(obj)
    return cands, rows


def _rerank(args: argparse.Namespace) -> int:
    reranker = build_reranker(args)  # validates the options before reading any input
    cands, rows = _candidates(args.input, args.relevance == "upstream")
    ranking = reranker.rerank(args.query, cands)
    index = {id(c): i for i, c in enumerate(cands)}
    by_id = {c.id: rows[index[id(c)]] for c in cands}
    suit = ranking.provenance.get("suitability")
    write_jsonl(output_row(by_id[c.id], rank, c, None if suit is None else suit["candidates"][c.id])
                for rank, c in enumerate(ranking.candidates, start=1))
    return 0


def output_row(row: dict[str, Any], rank: int, cand: Any,
               source_type: dict[str, Any] | None = None) -> dict[str, Any]:
    """An input row with ``rank``, fused ``score`` and the ``authority`` breakdown added
    (with the ``source_type`` fields when the rerank ran with suitability)."""
    breakdown = {"version": JSON_VERSION, "domain": cand.domain, "host": cand.host,
                 **cand.authority.to_dict(), **(source_type or {}), "scores": dict(cand.scores)}
    return {**row, "rank": rank, "score": cand.scores["fused"], "authority": breakdown}


def _demo(args: argparse.Namespace) -> int:
    from authorag.rerankers.demo import run_demo

    return run_demo(build_reranker(args), sys.stdout)
