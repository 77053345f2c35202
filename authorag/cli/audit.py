"""``authorag audit``: audit an AI answer's citations (one JSON object, or a JSONL batch).

Example:
    authorag audit answer.json --json
    authorag audit answers.jsonl --judge local --rubrics --out results/audit
    authorag audit answer.json --judge openai --base-url http://127.0.0.1:8080/v1 --model qwen
    authorag audit answer.json --html audit.html

Sources are scored by the one composition with the scorer flags ``authorag score`` takes
(``--optin``, ``--exclude``, ``--config`` ...); ``--judge`` here is the LLM that checks
support, so the scorer's own judge comes from ``AUTHORAG_JUDGE`` or the config file.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from authorag.cli._util import JSON_VERSION, Subparsers, add_max_input
from authorag.compose import add_scorer_options


def register(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``audit`` command."""
    p = sub.add_parser("audit", help="audit an answer's cited sources (credibility, support, quality)",
                       description="Audit an AI answer's citations: citation/support matrices, source "
                                   "credibility, DeepTRACE metrics, CiteTrace checks, SourceBench rubrics. "
                                   "A .jsonl file (or a JSON list) is a batch with per-system aggregates.")
    p.add_argument("file", metavar="FILE", help="answer JSON ({question, answer, sources}), a JSON list, or .jsonl; - = stdin")
    p.add_argument("--json", action="store_true", help="print the report(s) as JSON")
    p.add_argument("--judge", choices=["local", "openai", "none"], default="none",
                   help="LLM for relevance/stance/support/CiteTrace (default none: no LLM, support metrics null)")
    p.add_argument("--rubrics", action="store_true", help="rate each source on the eight SourceBench rubrics")
    p.add_argument("--decompose", action="store_true", help="split sentences into atomic claims with the judge")
    p.add_argument("--out", metavar="DIR", help="write report(s), aggregates, Markdown and a plot to DIR")
    p.add_argument("--html", metavar="FILE", help="write one self-contained HTML page (heatmaps, sortable "
                                                 "sources, metrics with intervals; a batch adds per-system aggregates)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (--judge openai)")
    p.add_argument("--api-key", help="API key for --judge openai")
    p.add_argument("--model", help="model name (openai) or GGUF path / registered name (local)")
    p.add_argument("--no-cache", action="store_true", help="do not use the persistent judge cache")
    p.add_argument("--on-failure", choices=["raise", "skip"], default="skip",
                   help="a failed LLM step raises, or leaves its value null (default)")
    p.add_argument("--text-budget", type=int, default=500, help="characters of each source's text shown to the judge")
    add_max_input(p)
    add_scorer_options(p, judge_flags=False)
    p.set_defaults(func=_run)


def _read(path: str, max_bytes: int) -> tuple[list[tuple[str, dict[str, Any]]], bool]:
    """(where, object) pairs and whether the input is a batch; each object checked by :func:`_check`."""
    from authorag.cli._util import load_json, read_jsonl, read_text
    from authorag.errors import ConfigError

    if path.endswith(".jsonl"):
        items, batch = [(f"{path}:{n}", obj) for n, obj in read_jsonl(path, max_bytes)], True
    else:
        data = load_json(read_text(path, max_bytes), path, "give one answer object, a list of them, or a .jsonl file")
        if isinstance(data, list):
            items, batch = [(f"{path}[{i}]", o) for i, o in enumerate(data)], True
        elif isinstance(data, dict):
            items, batch = [(path, data)], False
        else:
            raise ConfigError(f"{path}: expected an object with 'question', 'answer' and 'sources'")
    if not items:
        raise ConfigError(f"{path}: no answers in it; give one object with 'question', 'answer' and 'sources'")
    for where, obj in items:
        _check(where, obj)
    return items, batch


_SHAPE = "give {\"question\": ..., \"answer\": ..., \"sources\": [...]} (docs/audit.md, Input)"


def _check(where: str, obj: Any) -> None:
    """An answer with text (the library checks the fields' types as the server does): there is
    nothing to audit in an empty one."""
    from authorag.audit.structured import citation_spans
    from authorag.errors import ConfigError

    if not isinstance(obj, dict):
        raise ConfigError(f"{where}: expected a JSON object with 'question', 'answer' and 'sources', got "
                          f"{type(obj).__name__}")
    fields: dict[str, Any] = obj  # pyright: ignore[reportUnknownVariableType]
    if not fields.get("statements") and not citation_spans(fields)[0].strip():
        raise ConfigError(f"{where}: the answer is empty (no text under 'answer' or a chat message, and no "
                          f"'statements'): nothing to audit; {_SHAPE}")


def _judge(args: argparse.Namespace) -> Any:
    if args.judge == "none":
        return None
    from authorag.audit.llm import AuditJudge
    from authorag.judges.backends import load_backend

    kw: dict[str, Any] = {}
    if args.judge == "openai":
        kw = {k: v for k, v in (("base_url", args.base_url), ("model", args.model), ("api_key", args.api_key)) if v is not None}
    elif args.model is not None:
        kw["model_path"] = args.model
    backend = load_backend(args.judge, cache=not args.no_cache, **kw)
    return AuditJudge(backend, on_failure=args.on_failure, text_budget=args.text_budget)


STATEMENT_WIDTH = 90
"""Characters of a statement the text report shows (longer ones end in an ellipsis; --json has them whole)."""


def _n(v: Any, digits: int) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _summary(report: Any) -> str:
    d = report.to_dict()
    lines = [f"question: {d['question']}", "statements:"]
    support = d["support_matrix"] or [None] * len(d["statements"])
    for i, (st, row) in enumerate(zip(d["statements"], support, strict=True)):
        sup = "?" if row is None else ",".join(s["id"] for s, v in zip(d["sources"], row, strict=True) if v) or "-"
        lines.append(f"  [{i}] cites {','.join(st['citations']) or '-'}; supported by {sup}; "
                     f"relevant {st['relevant']}: {_cut(st['text'], STATEMENT_WIDTH)}")
        if row is not None or d["judge"] is not None:
            lines.append(f"      why: {st['support_reason']}")
    lines.append("sources:")
    for s in d["sources"]:
        extra = "" if "rubric_score" not in s else f" rubric_score {_n(s['rubric_score'], 1)}"
        lines.append(f"  {s['id']}: {s['domain']} tier {s['tier']} authority {_n(s['authority'], 3)} "
                     f"credibility {_n(s['credibility'], 2)} trust {_n(s['trust'], 2)} credible {s['credible']}{extra}")
    lines.append("metrics:")
    for k, v in d["metrics"].items():
        lo, hi = d["intervals"].get(k, (None, None))
        ci = f" (95 % CI {lo:.3f}-{hi:.3f})" if lo is not None and hi is not None else ""
        lines.append(f"  {k}: {v if not isinstance(v, float) else round(v, 3)}{ci}")
    lines += [f"note: {n}" for n in d["notes"]]
    return "\n".join(lines)


def _html_holds(reports: list[Any], batch: bool) -> str:
    """What the HTML page holds, in one line."""
    statements = sum(len(r.statements) for r in reports)
    sources = sum(len(r.sources) for r in reports)
    what = f"{len(reports)} answers with per-system aggregates" if batch else "1 answer"
    return (f"{what}, {statements} statements, {sources} sources: citation and support heatmaps, sortable "
            "sources, metrics with intervals; open it in a browser (no network needed)")


def _cut(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis when longer."""
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def _write(out: Path, reports: list[Any], batch: bool) -> None:
    from authorag.audit.batch import aggregate, markdown, plot

    out.mkdir(parents=True, exist_ok=True)
    if not batch:
        (out / "report.json").write_text(json.dumps(reports[0].to_dict(), indent=1, ensure_ascii=False) + "\n")
        return
    with (out / "reports.jsonl").open("w", encoding="utf-8") as fh:
        for r in reports:
            fh.write(json.dumps(r.to_dict(), ensure_ascii=False) + "\n")
    agg = aggregate(reports)
    (out / "aggregate.json").write_text(json.dumps({"version": JSON_VERSION, "systems": agg}, indent=1) + "\n")
    (out / "aggregate.md").write_text(markdown(agg) + "\n")
    plot(agg, out / "profile.png")


def _run(args: argparse.Namespace) -> int:
    from contextlib import nullcontext

    from authorag.audit.batch import aggregate, audit_many, markdown
    from authorag.audit.pipeline import audit
    from authorag.cli._util import input_cap, show_progress
    from authorag.compose import load_scorer, settings_from_args
    from authorag.errors import ConfigError

    if args.html and not Path(args.html).resolve().parent.is_dir():  # before any LLM call is spent
        raise ConfigError(f"cannot write --html {args.html!r}: its folder does not exist; create it or "
                          "give another path")
    items, batch = _read(args.file, input_cap(args))
    judge = _judge(args)
    scorer = load_scorer(settings_from_args(args, judge_flags=False))
    if judge is not None and batch:  # fail on a bad line before spending LLM calls on the others
        audit_many(items, lambda obj: audit(obj, scorer=scorer))
    with show_progress() if judge is not None else nullcontext():
        reports = audit_many(items, lambda obj: audit(obj, judge=judge, scorer=scorer, rubrics=args.rubrics,
                                                           decompose=args.decompose))
    if args.out:
        _write(Path(args.out), reports, batch)
    if args.html:
        from authorag.audit.html_page import render_html

        page = render_html([r.to_dict() for r in reports], aggregate(reports) if batch else None)
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write --html {args.html!r}: {exc.strerror}; give a writable file path") from exc
        print(f"authorag audit: wrote {args.html} ({len(page.encode('utf-8')) >> 10} KiB): "
              + _html_holds(reports, batch), file=sys.stderr)
    if args.json:
        body: Any = [r.to_dict() for r in reports] if batch else reports[0].to_dict()
        if batch:
            body = {"version": JSON_VERSION, "reports": body, "aggregates": aggregate(reports)}
        print(json.dumps(body, ensure_ascii=False, indent=1))
    else:
        print(markdown(aggregate(reports)) if batch else _summary(reports[0]))
    if args.judge == "none":
        print("(no LLM judge: support is known only where a source repeats a statement, the lexical rule; "
              "use --judge local|openai)", file=sys.stderr)
    return 0


__all__ = ["register"]
