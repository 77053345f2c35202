"""Dev halves only: every v2 / v3 / v4 no-harm pair (v5: lists only; v6 on: pairs only), rerank list and trust pair through the default
reranker, each in the input orders the tracks use; prints the failing rows with each page's trust
and window relevance, then the share held. The test halves are never read.

    PYTHONPATH=SRC python -P scripts/noharm_dev_rows.py {pairs|lists|trust} {2|3|4|5|6|...} {bm25|cascade}
"""
from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

from authorag.adapters import breakdowns, build_reranker, candidates_of
from authorag.benchmarks.tracks.trust_data import LANGUAGE_VERSIONS
from authorag.compose import load_scorer

DATA = Path(__file__).resolve().parents[1] / "authorag" / "benchmarks" / "data"
FILES = {"pairs": "no_harm_pairs_v{}.jsonl.gz", "lists": "rerank_lists_v{}.jsonl.gz", "trust": "trust_pairs_v{}.jsonl.gz"}
ROLES = {"pairs": ("ontopic", "offtopic"), "trust": ("trusted", "untrusted")}
GROUPS = {"trusted": 0, "untrusted": 1, "unknown": 1, "offtopic": 2}
VERSIONS = ("2", "3", "4", "5", *(str(v.number) for v in LANGUAGE_VERSIONS))


def _line(b: dict[str, Any], role: str) -> str:
    norm = b.get("relevance_norm") or -1
    note = (b.get("relevance_note") or "")[:120]
    return f"     {role:<9s} {b['url'][:58]:<58s} trust={b['trust']:.3f} norm={norm:.3f} fused={b['fused']:.3f} {note}"


def _rank(rr: Any, mode: Any, query: str, docs: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    cands, src = candidates_of([x["url"] for x in docs], [x["text"] for x in docs], None, mode)
    ranking = rr.rerank_owned(query, cands)
    return [c.url for c in ranking.candidates], breakdowns(ranking, src)


def pairs(rows: list[dict[str, Any]], kind: str, rr: Any, mode: Any) -> tuple[int, int]:
    first, second = ROLES[kind]
    ok = n = 0
    for d in rows:
        wins: list[bool] = []
        shown: list[dict[str, Any]] = []
        for docs in ([d[first], d[second]], [d[second], d[first]]):
            urls, bd = _rank(rr, mode, d["query"], docs)
            wins.append(urls[0] == d[first]["url"])
            if len(wins) == 1:
                shown = bd
        ok, n = ok + sum(wins), n + 2
        if not all(wins):
            print(f"FAIL{sum(wins)}", d["id"], d.get("kind", d.get("ontopic_kind")), d["lang"], repr(d["query"]))
            for b in shown:
                print(_line(b, first if b["url"] == d[first]["url"] else second))
    return ok, n


def lists(rows: list[dict[str, Any]], rr: Any, mode: Any) -> tuple[int, int]:
    held = total = 0
    for d in rows:
        docs, size = d["candidates"], len(d["candidates"])
        orders = [list(range(size)), list(range(size))[::-1]]
        rng = random.Random(f"0:{d['id']}")
        for _ in range(2):
            order = list(range(size))
            rng.shuffle(order)
            orders.append(order)
        misses: list[int] = []
        shown: list[dict[str, Any]] = []
        for order in orders:
            urls, bd = _rank(rr, mode, d["query"], [docs[i] for i in order])
            pos = {u: k for k, u in enumerate(urls)}
            want = [(a, b) for a in docs for b in docs if GROUPS[a["role"]] < GROUPS[b["role"]]]
            miss = sum(pos[a["url"]] > pos[b["url"]] for a, b in want)
            total, held, misses = total + len(want), held + len(want) - miss, [*misses, miss]
            if len(misses) == 1:
                shown = bd
        if any(misses):
            print(f"FAIL {d['id']} {d['kind']} {d['lang']} q={d['query']!r} misses/order={misses}")
            role = {x["url"]: x["role"] for x in docs}
            for b in shown:
                print(_line(b, role[b["url"]]))
    return held, total


def main(kind: str, version: str, relevance: str) -> None:
    if kind not in FILES or version not in VERSIONS or not (DATA / FILES[kind].format(version)).is_file():
        sys.exit(f"usage: noharm_dev_rows.py {{{'|'.join(FILES)}}} {{{'|'.join(VERSIONS)}}} RELEVANCE; "
                 f"got {kind!r} {version!r}")
    with gzip.open(DATA / FILES[kind].format(version), "rt", encoding="utf-8") as f:
        rows = [r for r in map(json.loads, f) if r["split"] == "dev"]
    rr, mode = build_reranker(scorer=load_scorer(), relevance=relevance)
    ok, n = lists(rows, rr, mode) if kind == "lists" else pairs(rows, kind, rr, mode)
    print(f"[{relevance}] v{version} {kind} {ok}/{n} = {ok / n:.3f}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
