"""Where a request's CPU goes with the server's default relevance (the cascade), per language.

In-process (no HTTP), with the server's settings (``ServerConfig()``: its default relevance, one
encoder thread as a 2-worker server on 2 cores gives each, ``--encode-batch`` pages per pass), on
the requests ``scripts/bench_server.py --languages-cost`` sends (20 new ~200-word pages each, in
English, German or Spanish). For each language: CPU ms per request of the whole service call, then
of each step it takes, timed alone on other requests of the same kind (so no page is remembered):
the query's language, query-term coverage and keyword stuffing, BM25, the low-credibility cues,
the cascade's choice of pages, encoding the pages it chose (cutting each to its tokens included)
and encoding the query (remembered after the first request: the benchmark's query never changes).

Usage:
    .venv/bin/python scripts/profile_cascade.py --requests 30 --json out.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import payload

from authorag.relevance.bm25 import BM25Relevance
from authorag.relevance.cascade import CascadeRelevance
from authorag.relevance.coverage import address_words, coverage_and_stuffing
from authorag.relevance.language import detect_language
from authorag.rerankers.window_text import low_cues
from authorag.server.config import ServerConfig
from authorag.server.encoding import configure_encoding, default_encode_threads
from authorag.server.schemas import RerankRequest
from authorag.server.service import RerankService


def _cpu_ms(step: Callable[[int], object], n: int) -> float:
    """CPU ms per call of ``step(i)`` for i in 0..n-1."""
    t0 = time.process_time()
    for i in range(n):
        step(i)
    return round(1000 * (time.process_time() - t0) / n, 2)


def profile(language: str, n: int, svc: RerankService) -> dict[str, Any]:
    """CPU ms per request of the service call and of each step, for ``n`` requests in ``language``."""
    first = 1 + {"en": 0, "de": 1, "es": 2}[language] * 10 * n  # no two languages or sets share a page
    reqs = [RerankRequest.model_validate_json(json.dumps(payload(20, v, 200, True, language)))
            for v in range(first, first + 2 * n + 1)]
    svc.rerank(reqs[0], "v1")  # loads the language's encoder, remembers the query
    out: dict[str, Any] = {"service total": _cpu_ms(lambda i: svc.rerank(reqs[1 + i], "v1"), n)}
    cascade = svc.reranker.relevance
    assert isinstance(cascade, CascadeRelevance), f"the server's default relevance is {cascade!r}"
    own = reqs[n + 1:]
    cands = [_candidates(r) for r in own]
    texts = [[c.text for c in cs] for cs in cands]
    # first, while no detection of these pages is remembered (detect_language remembers its last ones)
    out["language detection"] = _cpu_ms(lambda i: detect_language(own[i].query, texts[i]), n)
    lang = detect_language(own[0].query, texts[0])
    reader = cascade.multilingual if lang.language != "en" and cascade.multilingual is not None else cascade.english
    chosen = [[t for t, e in zip(ts, cascade.score_encoded(r.query, cs)[1]) if e] for r, ts, cs in zip(own, texts, cands)]
    encoder = reader.dense.encoder
    out["coverage and stuffing"] = _cpu_ms(lambda i: coverage_and_stuffing(
        own[i].query, texts[i], lang.lexical, [address_words(c.url) for c in cands[i]]), n)
    out["BM25"] = _cpu_ms(lambda i: BM25Relevance(language=lang.lexical).score(own[i].query, cands[i]), n)
    out["low-credibility cues"] = _cpu_ms(lambda i: low_cues(texts[i], lang.language), n)
    out[f"encode the chosen pages ({reader.name})"] = _cpu_ms(lambda i: encoder.encode(chosen[i]), n)
    out["encode the query"] = _cpu_ms(lambda i: encoder.encode_query(own[i].query), n)
    out["pages encoded per request"] = sum(len(c) for c in chosen) / n
    return out


def _candidates(request: RerankRequest) -> list[Any]:
    from authorag import adapters
    from authorag.server.documents import read_documents

    docs = read_documents(request.documents, None, rank_fields=None, max_chars=20_000, max_tokens=None)
    return adapters.candidates_of(docs.urls, docs.texts, None, "rank")[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=30, help="requests per language and step (default 30)")
    ap.add_argument("--languages", nargs="+", default=["en", "de", "es"], choices=["en", "de", "es"])
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    config = ServerConfig()
    svc = RerankService(config)
    threads = default_encode_threads(2) if config.encode_threads is None else config.encode_threads
    svc.warm_up()  # as a server worker: then its threads (e5 reads them when it loads, with the first German query)
    configure_encoding(svc.reranker.relevance, threads, config.encode_batch)
    report: dict[str, Any] = {"command": "scripts/profile_cascade.py " + " ".join(argv or sys.argv[1:]),
                              "relevance": config.relevance, "encode_threads": threads,
                              "encode_batch": config.encode_batch, "requests": args.requests,
                              "cpus": os.cpu_count(), "load_average_before": os.getloadavg()[0], "languages": {}}
    for language in args.languages:
        report["languages"][language] = steps = profile(language, args.requests, svc)
        for name, value in steps.items():
            print(f"{language}  {value:>9}  {name}")
    report["load_average_after"] = os.getloadavg()[0]
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
