"""Demonstration of ``authorag audit`` on real answers: the local model answers RAGAuth-open
questions from retrieved pages with [n] citations, then the answers are audited.

Sizes are kept small on purpose (the default machine has 2 shared cores): ``--answers`` topics
(first instance of each, in topic order), ``--docs`` pages per question (the instance's first
pages, i.e. what an unfiltered pipeline would keep), ``--snippet`` characters of each page.

Usage (writes to a folder you choose; the committed copy lives in docs/results/audit/):
    python scripts/audit_demo.py --out docs/results/audit/ragauth-demo            # generate + audit
    python scripts/audit_demo.py --out DIR --skip-generate                         # audit only

The audit step is exactly:
    python -m authorag audit DIR/answers.jsonl --judge local --rubrics --out DIR --json
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from authorag.benchmarks.rag_tasks import load_rag_task
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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--answers", type=int, default=10)
    p.add_argument("--docs", type=int, default=4)
    p.add_argument("--snippet", type=int, default=350)
    p.add_argument("--skip-generate", action="store_true")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if not args.skip_generate:
        generate(out, args.answers, args.docs, args.snippet)
    cmd = [sys.executable, "-m", "authorag", "audit", str(out / "answers.jsonl"), "--judge", "local",
           "--rubrics", "--out", str(out), "--text-budget", str(args.snippet)]
    (out / "command.txt").write_text(
        f"python scripts/audit_demo.py --out {out} --answers {args.answers} --docs {args.docs} "
        f"--snippet {args.snippet}\n# audit step: {' '.join(['python', *cmd[1:]])}\n")
    start = time.perf_counter()
    rc = subprocess.call(cmd, stdout=subprocess.DEVNULL)
    print(f"audit took {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
