"""Demonstration of ``authorag audit`` on real answers: the local model answers RAGAuth-open
questions from retrieved pages with [n] citations, then the answers are audited.

Sizes are kept small on purpose (the default machine has 2 shared cores): ``--answers`` topics
(first instance of each, in topic order), ``--docs`` pages per question (the instance's first
pages, i.e. what an unfiltered pipeline would keep), ``--snippet`` characters of each page.

Usage (writes to a folder you choose; the committed copy lives in docs/results/audit/):
    python scripts/audit_demo.py --out docs/results/audit/ragauth-demo            # generate + audit
    python scripts/audit_demo.py --out DIR --skip-generate                         # audit only
    python scripts/audit_demo.py --out docs/results/audit/ragauth-demo --html FILE  # page of the committed run

The audit step is exactly:
    python -m authorag audit DIR/answers.jsonl --judge local --rubrics --out DIR --html DIR/report.html \
        --text-budget SNIPPET
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from authorag.audit.html_page import render_html
from authorag.benchmarks.rag.tasks import load_rag_task
from authorag.judges.backends import load_backend
from authorag.judges.backends.base import ChatRequest

SYSTEM = ("You answer health questions using only the numbered documents you are given. Cite the "
          "documents you use with their numbers in square brackets, like [2], right after each sentence.")
PROMPT_VERSION = "audit_demo_answer_v1"


def _snippet(text: str, budget: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= budget else text[:budget].rsplit(" ", 1)[0] + " ..."


def generate(out: Path, answers: int, docs: int, snippet: int) -> None:
    backend = load_backend("local", cache=True)
    task = load_rag_task()
    first = {}
    for inst in task.instances:
        first.setdefault(inst.topic_id, inst)
    rows = []
    for inst in list(first.values())[:answers]:
        sources = [{"id": str(j + 1), "url": d.url, "text": _snippet(d.text, snippet),
                    "nist_credibility": d.level, "stance": d.meta["stance"]}
                   for j, d in enumerate(inst.documents[:docs])]
        listing = "\n\n".join(f"[{s['id']}] {s['url']}\n{s['text']}" for s in sources)
        user = (f"Documents:\n{listing}\n\nQuestion: {inst.question}\n\nAnswer in two to four sentences "
                "and cite the documents you use as [n].")
        start = time.perf_counter()
        c = backend.complete(ChatRequest(messages=[{"role": "system", "content": SYSTEM},
                                                   {"role": "user", "content": user}],
                                         max_tokens=160, prompt_version=PROMPT_VERSION))
        rows.append({"id": inst.id, "system": f"local:{backend.model}", "question": inst.question,
                     "answer": c.text.strip(), "debate": True, "gold": "yes" if inst.gold else "no",
                     "sources": [{k: s[k] for k in ("id", "url", "text")} for s in sources],
                     "source_labels": [{"id": s["id"], "nist_credibility": s["nist_credibility"],
                                        "stance": s["stance"]} for s in sources],
                     "generation": {"prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens,
                                    "latency_s": round(time.perf_counter() - start, 2), "cached": c.cached}})
        print(f"generated {len(rows)}/{answers}: {inst.id}", file=sys.stderr)
    with (out / "answers.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def _pct(num: int, den: int) -> str:
    return f"{num}/{den}" + (f" ({100 * num / den:.0f} %)" if den else "")


def _count(values: list[Any]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in sorted(Counter(values).items(), key=lambda kv: str(kv[0])))


def _distributions(reports: list[dict[str, Any]], answers: dict[str, dict[str, Any]]) -> list[str]:
    """How the local model's verdicts are spread (a judge that always says the same is weak)."""
    sts = [s for r in reports for s in r["statements"]]
    cites = [c for r in reports for c in r["citations"]]
    return [
        (f"- answers opening with 'Yes': {sum(answers[r['id']]['answer'].startswith('Yes') for r in reports)} of "
        f"{len(reports)}; gold answers: {_count([answers[r['id']]['gold'] for r in reports])}"),
        f"- confidence: {_count([r['confidence'] for r in reports])}",
        f"- statement relevance: {_count([s['relevant'] for s in sts])}; stance: {_count([s['stance'] for s in sts])}",
        f"- support cells: {_count([v for r in reports for row in r['support_matrix'] or [] for v in row or []])}",
        (f"- intent-purpose alignment per citation: {_count([c['intent_purpose_alignment'] for c in cites])}; "
        f"fidelity: {_count([c['answer_source_fidelity'] for c in cites])}; verified misguidance: "
        f"{_count([c['verified_misguidance'] for c in cites])}"),
        (f"- rubric digits: {_count([v for r in reports for s in r['sources'] for v in (s.get('rubrics') or {}).values()])}; "
        f"rubric_score per source: {_count([s.get('rubric_score') for r in reports for s in r['sources']])}"),
    ]


def summarize(out: Path) -> str:
    """summary.md: cost per answer and checks of the local model's verdicts against each other
    and against the NIST labels shipped with RAGAuth-open (not used by the audit itself)."""
    answers = {r["id"]: r for r in map(json.loads, (out / "answers.jsonl").read_text().splitlines())}
    reports = [json.loads(line) for line in (out / "reports.jsonl").read_text().splitlines()]
    lines = ["# Audit demonstration: local model on RAGAuth-open", "",
             f"Made by: `{(out / 'command.txt').read_text().splitlines()[0]}`", "",
             "| answer | gold | statements | cited | C: citations | S: support links | LLM calls | prompt tok | completion tok | cache hits | parse failures |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    both = agree = cred_known = cred_agree = n_sources = 0
    gen_calls = gen_tokens = 0
    for r in reports:
        a = answers[r["id"]]
        t = {**r["cost"]["totals"], **r["cost"].get("uncached", {})}
        g = a["generation"]
        gen_calls += 1
        gen_tokens += g["prompt_tokens"] + g["completion_tokens"]
        lines.append(f"| {r['id']} | {a['gold']} | {r['counts']['statements']} | {r['counts']['cited_sources']}/"
                     f"{r['counts']['sources']} | {r['counts']['citations']} | {r['counts']['support_links']} | "
                     f"{t['calls']} | {t['prompt_tokens']} | {t['completion_tokens']} | {t['cache_hits']} | "
                     f"{t['parse_failures']} |")
        for c in r["citations"]:
            row = (r["support_matrix"] or [None] * (c["statement"] + 1))[c["statement"]]
            if row is None or c["answer_source_fidelity"] is None:
                continue
            col = [s["id"] for s in r["sources"]].index(c["source"])
            both += 1
            agree += bool(row[col]) == c["answer_source_fidelity"]
        labels = {x["id"]: x["nist_credibility"] for x in a["source_labels"]}
        for s in r["sources"]:
            n_sources += 1
            if s["credible"] is not None and s["id"] in labels:
                cred_known += 1
                cred_agree += int(s["credible"]) == labels[s["id"]]
    used = [r["cost"].get("uncached", r["cost"]["totals"]) for r in reports]  # runs before "uncached": spent
    calls = [u["calls"] for u in used]
    toks = [u["prompt_tokens"] + u["completion_tokens"] for u in used]
    all_uncached = all("uncached" in r["cost"] for r in reports)
    how = ("Calls and tokens count every call at its original cost, cache hits included (what the audit "
           "costs without the judge cache)." if all_uncached else
           "Tokens are those this run spent: a cache hit counts its call but 0 tokens "
           f"({sum(r['cost']['totals']['cache_hits'] for r in reports)} cache hits in this run).")
    lines += ["", how, "", (f"Audit cost per answer: {sum(calls) / len(calls):.1f} LLM calls, "
              f"{sum(toks) / len(toks):.0f} tokens (min {min(calls)}, max {max(calls)} calls). "
              f"Generating the answers: {gen_calls} calls, {gen_tokens / max(1, gen_calls):.0f} tokens each."), "",
              "## Checks of the verdicts", "",
              f"- support cell vs fidelity verdict for the same citation agree: {_pct(agree, both)}",
              (f"- sources with a known `credible` flag: {_pct(cred_known, n_sources)}; of those, agreeing with "
               f"the NIST credibility label: {_pct(cred_agree, cred_known)}"),
              *_distributions(reports, answers), "",
              "## Aggregates", "", (out / "aggregate.md").read_text()]
    text = "\n".join(lines) + "\n"
    (out / "summary.md").write_text(text)
    return text


def write_html(out: Path, target: Path) -> None:
    """The HTML audit page of ``out``'s reports.jsonl and aggregate.json (no LLM call)."""
    reports = [json.loads(line) for line in (out / "reports.jsonl").read_text(encoding="utf-8").splitlines()]
    aggregates = json.loads((out / "aggregate.json").read_text(encoding="utf-8"))["systems"]
    target.write_text(render_html(reports, aggregates, title="authorag citation audit: local model on RAGAuth-open"),
                      encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--answers", type=int, default=10)
    p.add_argument("--docs", type=int, default=4)
    p.add_argument("--snippet", type=int, default=350)
    p.add_argument("--skip-generate", action="store_true")
    p.add_argument("--summarize-only", action="store_true", help="only rewrite summary.md from the files")
    p.add_argument("--html", metavar="FILE", help="only write the HTML page of DIR's reports (no LLM call)")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.summarize_only:
        print(summarize(out))
        return 0
    if args.html:
        write_html(out, Path(args.html))
        return 0
    if not args.skip_generate:
        generate(out, args.answers, args.docs, args.snippet)
    cmd = [sys.executable, "-m", "authorag", "audit", str(out / "answers.jsonl"), "--judge", "local",
           "--rubrics", "--out", str(out), "--html", str(out / "report.html"), "--text-budget", str(args.snippet)]
    (out / "command.txt").write_text(
        f"python scripts/audit_demo.py --out {out} --answers {args.answers} --docs {args.docs} "
        f"--snippet {args.snippet}\n# audit step: {' '.join(['python', *cmd[1:]])}\n")
    start = time.perf_counter()
    rc = subprocess.call(cmd, stdout=subprocess.DEVNULL)
    print(f"audit took {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if rc == 0:
        summarize(out)
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
