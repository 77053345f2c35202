"""CPU time of reading a request's words in one language: BM25 relevance and query-term coverage
(with keyword stuffing) over 20 new ~200-word pages, the pages of ``scripts/bench_server.py``.

In process, no HTTP: the part of a request that lexical relevance costs, measured as process CPU
time (less sensitive than req/s to other work on a shared machine). Runs with whatever
``authorag`` is on the path, so one command measures two checkouts:

    PYTHONPATH=/path/to/before python scripts/bench_lexical_words.py --language de --json before.json
    PYTHONPATH=$PWD python scripts/bench_lexical_words.py --language de --json after.json
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import PAGE_LANGUAGES, payload

import authorag
from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.coverage import coverage_and_stuffing
from authorag.types import Candidate

Request = tuple[str, list[Candidate]]


def cpu_model() -> str | None:
    """The CPU's model name as Linux reports it (None elsewhere): CPU times differ between machines."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), None)
    except OSError:
        return None


def requests(language: str, n: int, pages: int, words: int) -> list[Request]:
    """``n`` requests of ``pages`` new pages each (the server benchmark's ``--fresh-texts`` pages)."""
    out: list[Request] = []
    for variant in range(1, n + 1):
        body = payload(pages, variant=variant, words=words, fresh_texts=True, language=language)
        cands = [Candidate.create(f"https://p{i}.example/{variant}", text=doc.split("text: ", 1)[1])
                 for i, doc in enumerate(body["documents"])]
        out.append((body["query"], cands))
    return out


SCORERS = ("both", "bm25", "coverage")
"""What ``--scorer`` times: BM25 and coverage (default), or one of them."""


def cpu_ms(reqs: list[Request], language: str, repeat: int, scorer: str = "both") -> float:
    """Best of ``repeat`` passes: process CPU ms per request for BM25 and coverage (``scorer``: or one of them)."""
    bm25 = BM25Relevance(language=language)

    def one_pass() -> None:
        for query, cands in reqs:
            if scorer != "coverage":
                bm25.score(query, cands)
            if scorer != "bm25":
                coverage_and_stuffing(query, [c.text for c in cands], language)

    one_pass()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        one_pass()
        best = min(best, (time.process_time() - t0) / len(reqs))
    return 1000 * best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="CPU ms per request of BM25 and coverage in one language.")
    ap.add_argument("--language", default="de", choices=list(PAGE_LANGUAGES))
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--words", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scorer", default="both", choices=SCORERS, help="time BM25 and coverage, or one of them")
    ap.add_argument("--query", help="the requests' query (default: the server benchmark's, in --language)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    reqs = requests(args.language, args.requests, args.pages, args.words)
    if args.query is not None:
        reqs = [(args.query, cands) for _, cands in reqs]
    ms = cpu_ms(reqs, args.language, args.repeat, args.scorer)
    print(f"{args.language}: {ms:.3f} ms CPU per request of {args.pages} pages of {args.words} words "
          f"({args.scorer}), best of {args.repeat} passes over {args.requests} requests")
    if args.json:
        args.json.write_text(json.dumps({
            "command": "scripts/bench_lexical_words.py", "package": str(Path(authorag.__file__).parent),
            "language": args.language, "requests": args.requests, "pages": args.pages, "words": args.words,
            "repeat": args.repeat, "scorer": args.scorer, "query": reqs[0][0] if reqs else None,
            "cpu_ms_per_request": round(ms, 3), "cpus": os.cpu_count(),
            "load_average": os.getloadavg()[0], "python": platform.python_version(),
            "snowballstemmer": version("snowballstemmer"), "cpu_model": cpu_model()}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
