"""CLI commands ``authorag score`` and ``authorag priors {info,compile,...}``."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, get_args

from authorag.cli._util import JSON_VERSION, Subparsers, read_lines
from authorag.compose import add_scorer_options
from authorag.priors.lookalike import IMPERSONATION
from authorag.types import UNKNOWN_LEVEL, Tier


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``score`` and ``priors`` to the CLI."""
    p = sub.add_parser(
        "score", help="score the authority of URLs or domains",
        description="Score how authoritative the source of each URL or domain is, with the default "
                    "composition every surface uses (reserved names, look-alikes, hosted user pages, prior "
                    "table; opt-in: page evidence for sources no table knows (here read "
                    "from the URL alone, as there is no page text), the learned prior and an LLM judge). "
                    "Prints a table (tab-separated when piped) or, with --json, one object per input in "
                    "input order.",
        epilog="examples: authorag score nih.gov https://someone.blogspot.com/x; "
               "authorag score -i urls.txt --json; authorag score --judge local riverside-family-clinic.net")
    p.add_argument("urls", nargs="*", metavar="URL_OR_DOMAIN",
                   help="a URL (https://www.nih.gov/health) or a domain (nih.gov); give any number")
    p.add_argument("--input", "-i", metavar="FILE",
                   help="also read URLs or domains from FILE, one per line ('-' for stdin; blank lines "
                        "and lines starting with # are skipped)")
    p.add_argument("--json", action="store_true", help="print a JSON array (input order)")
    add_scorer_options(p)
    p.set_defaults(func=_score)

    pr = sub.add_parser("priors", help="inspect and build domain priors")
    psub = pr.add_subparsers(dest="priors_command", metavar="SUBCOMMAND", required=True)
    info = psub.add_parser("info", help="list prior sources, coverage, licences and suffix rules")
    info.add_argument("--json", action="store_true")
    info.set_defaults(func=_info)
    comp = psub.add_parser("compile", help="rebuild authorag/data/prior_sources.csv.gz from the vendored files")
    comp.add_argument("--out", help="write here instead of the package data folder")
    comp.set_defaults(func=_compile)
    _add_extension_parsers(psub)


def _add_extension_parsers(psub: Subparsers[argparse.ArgumentParser]) -> None:
    from authorag.cli import priors_learned, priors_pagerank, priors_store

    priors_pagerank.add_parsers(psub)
    priors_learned.add_parsers(psub)
    priors_store.add_parsers(psub)


def _score(args: argparse.Namespace) -> int:
    from authorag.adapters import source_authority
    from authorag.compose import load_scorer, settings_from_args
    from authorag.types import Candidate

    from_file = read_lines(args.input) if args.input else []
    inputs = list(args.urls) + from_file
    if not inputs:
        message = ("give URLs or domains as arguments or with --input FILE" if not args.input else
                   f"{'stdin' if args.input == '-' else args.input} has no URL or domain (one per line; "
                   "blank lines and lines starting with # are skipped), and no URL_OR_DOMAIN was given")
        print(f"authorag score: {message}", file=sys.stderr)
        return 2
    cands = [Candidate.create(u, id=str(i)) for i, u in enumerate(inputs)]
    settings = settings_from_args(args)
    scorer = load_scorer(settings)
    details = scorer.score(cands)
    from authorag.cli.priors_store import store_provenance
    from authorag.suitability.classifier import SourceTypeClassifier

    types = SourceTypeClassifier().classify_many(cands)
    rows: list[dict[str, Any]] = [{"version": JSON_VERSION, **source_authority(c.url, c, d, t.to_dict()), "scorer": scorer.name}
            for c, d, t in zip(cands, details, types)]
    provenance = store_provenance(settings.prior_files)
    if args.json:
        for r in rows:  # provenance of each imported store that contributed to the row
            used = {k: provenance[k] for k in r["raw"] if k in provenance}
            if used:
                r["provenance"] = used
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        _print_table(rows)
        for source, line in provenance.items():
            print(f"{source}: {line}")
    return 0


_COLUMNS = ("input", "domain", "trust", "why", "recognition", "credibility", "tier", "page evidence", "sources")
_VERDICT = ("page.status", "page.why")
"""Credibility sources of page evidence's verdict: shown in their own column, not among the sources."""
LEGEND = (f"trust 0-1 orders sources: {UNKNOWN_LEVEL:g} = nothing known; below {UNKNOWN_LEVEL:g} = known low credibility (it outweighs "
          "fame); recognition = links and popularity (not trust); credibility = reporting reliability where "
          f"a source rates it; tier = which layer answered ({', '.join(get_args(Tier))})")


def _table_cells(r: dict[str, Any]) -> tuple[str, ...]:
    rec = "unknown" if r["authority"] is None else f"{r['authority']:.3f}"
    cred = "unknown" if r["credibility"] is None else f"{r['credibility']:.2f}"
    srcs = ", ".join(f"{k}={v:.2f}" for k, v in {**r["sources"], **r["credibility_sources"]}.items()
                     if k not in _VERDICT)
    status = r["raw"].get("page.status")
    page = f"{status}: {r['raw'].get('page.why')}" if status else "-"
    why = r["trust_reason"]
    if IMPERSONATION in r["credibility_sources"] and r["note"]:
        why = f"{why}: {r['note']}"  # the imitated domain, said where the trust is
    return (r["input"], r["domain"] or "-", f"{r['trust']:.3f}", why, rec, cred, r["tier"], page,
            srcs or (r["note"] or ""))


def _print_table(rows: list[dict[str, Any]]) -> None:
    """A rich table on a terminal; tab-separated lines with a header when piped (nothing cut)."""
    if not sys.stdout.isatty():
        for cells in (_COLUMNS, *map(_table_cells, rows)):
            sys.stdout.write("\t".join(c.replace("\t", " ").replace("\n", " ") for c in cells) + "\n")
        print(LEGEND, file=sys.stderr)
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(*_COLUMNS)
    t.columns[0].overflow = "fold"  # a URL is the row's key: wrap it, never cut it
    for r in rows:
        t.add_row(*_table_cells(r))
    Console().print(t)
    Console().print(LEGEND, style="dim")


def _info(args: argparse.Namespace) -> int:
    from authorag.priors import DEFAULT_RULES, SOURCES, load_source

    sources: list[dict[str, Any]] = [{"name": s.name, "axis": s.axis, "entries": len(load_source(s.name)), "confidence": s.confidence,
                "default": not s.optin, "licence": s.licence, "description": s.description} for s in SOURCES.values()]
    rules: list[dict[str, Any]] = [{"suffix": r.suffix, "authority": r.authority, "confidence": r.confidence, "label": r.label}
             for r in DEFAULT_RULES]
    if args.json:
        print(json.dumps({"version": JSON_VERSION, "sources": sources, "rules": rules}, indent=1))
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table("source", "axis", "entries", "conf", "default", "licence", "description", title="prior sources")
    for s in sources:
        t.add_row(s["name"], s["axis"], str(s["entries"]), f"{s['confidence']:.1f}", "yes" if s["default"] else "opt-in",
                  s["licence"], s["description"])
    Console().print(t)
    Console().print("suffix rules: " + ", ".join(f".{r['suffix']}={r['authority']}" for r in rules))
    return 0


def _compile(args: argparse.Namespace) -> int:
    from importlib import resources
    from pathlib import Path

    from authorag.priors.sources import COMPILED_FILE, compile_sources

    out = Path(args.out) if args.out else Path(str(resources.files("authorag.data").joinpath(COMPILED_FILE)))
    out.write_bytes(compile_sources())
    print(f"wrote {out}")
    return 0
