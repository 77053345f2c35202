"""Where page evidence speaks on the generalisation tracks, and why turning it on moves so little.

Usage: PYTHONPATH=$PWD .venv/bin/python scripts/page_evidence_reach.py [--data-dir /work/shared/data]
       [--seed 0] [--out FOLDER]

For each half of the hand-written v2 sets (trust-pairs-v2, no-harm-pairs-v2, rerank-lists-v2),
every page is scored with page evidence on and put in one class (:func:`page_class`): not asked
(a table, a suffix rule, a look-alike check or a known credibility answers), abstained (no known
cue, a low cue too weak to move the page, a language it does not read, no text), or spoke (down
or up). It also gives the pages' word counts, every page that spoke with its case and whether
the order with page evidence off already had that case right, and how many (case, input order)
units change order when page evidence is on (BM25 relevance). With ``--data-dir``, for CoAID and
Fake.br with their real URLs (the ``bench tracks`` samples): the pages on domains no table knows,
by label, and the pages whose trust page evidence moves, by label and direction.

Writes ``page_evidence_reach.json`` and ``.md`` to ``--out`` (default: the user results folder,
``$AUTHORAG_RESULTS`` or ``~/.local/share/authorag/bench``, sub-folder ``page_evidence_reach``).
"""
from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from authorag.types import UNKNOWN_LEVEL, AuthorityDetail

SPLITS = ("dev", "test")
V2 = ("trust-pairs-v2", "no-harm-pairs-v2", "rerank-lists-v2")


def page_class(detail: AuthorityDetail) -> str:
    """What page evidence did for one scored page: ``not asked``, ``spoke down``, ``spoke up`` or
    ``abstained: <why>`` (``no known cue``, ``low cue too weak``, else the first part of the tier's
    reason: ``no page text``, ``page text under 12 words``, the language it does not read...)."""
    raw = {s.name: s.raw for s in detail.credibility_sources}
    status = raw.get("page.status")
    if status is None:
        return "not asked"
    if status == "spoke":
        return "spoke down" if (detail.page_trust or UNKNOWN_LEVEL) < UNKNOWN_LEVEL else "spoke up"
    why = str(raw.get("page.why", ""))
    head = why.split(";")[0]
    if "too weak" in why:
        return "abstained: low cue too weak"
    return "abstained: no known cue" if head.startswith("no known cue in") else f"abstained: {head}"


def _rerankings() -> dict[str, Any]:
    from authorag.benchmarks.tracks.rerank import Reranking
    from authorag.benchmarks.tracks.rerank_methods import RerankSetup, composition_scorer, parse_method
    from authorag.policy import make_policy

    out: dict[str, Any] = {}
    for side, spec in (("on", "default:page_evidence=true"), ("off", "default:page_evidence=false")):
        parsed = parse_method(spec)
        out[side] = Reranking(RerankSetup(spec, composition_scorer(parsed, ()), make_policy(dict(parsed.policy)), None))
    return out


def v2_reach(split: str, seed: int = 0) -> dict[str, Any]:
    """The classes, word counts, pages that spoke and order changes of one half of the v2 sets."""
    from authorag.benchmarks.tracks.rerank import case_orders
    from authorag.benchmarks.tracks.trust_data import load_cases
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.types import Candidate

    scorer, rr = load_scorer(ScorerSettings(page_evidence=True)), _rerankings()
    classes: Counter[str] = Counter()
    words: list[int] = []
    spoke: list[dict[str, Any]] = []
    units = changed = 0
    for task in V2:
        for case in load_cases(task, split):
            urls, texts = [p.url for p in case.pages], [p.text for p in case.pages]
            details = scorer.score([Candidate.create(u, text=t) for u, t in zip(urls, texts)])
            off_right = True
            for order in case_orders(case, "bm25", seed=seed):
                ranked = {side: [order[i] for i in rr[side].order("bm25", case.query, [urls[i] for i in order],
                                                                   [texts[i] for i in order])] for side in rr}
                units, changed = units + 1, changed + (ranked["on"] != ranked["off"])
                groups = [case.pages[i].group for i in ranked["off"]]
                off_right = off_right and groups == sorted(groups)
            for page, detail in zip(case.pages, details):
                cls = page_class(detail)
                classes[cls] += 1
                words.append(len(page.text.split()))
                if cls.startswith("spoke"):
                    spoke.append({"case": case.id, "kind": case.kind, "role": page.role, "url": page.url,
                                  "trust": round(detail.page_trust or UNKNOWN_LEVEL, 3), "class": cls,
                                  "off_order_right": off_right, "why": detail.note})
    return {"pages": sum(classes.values()), "classes": dict(sorted(classes.items())),
            "words": {"median": statistics.median(words), "min": min(words), "max": max(words)},
            "spoke": spoke, "units": units, "units_changed": changed}


def real_url_moves(pages: Sequence[Any]) -> dict[str, Any]:
    """Pages (``LabelledPage``) on domains no table knows, and the pages page evidence moves, by label."""
    from authorag.compose import ScorerSettings, load_scorer
    from authorag.trust import DEFAULT_TRUST_RULE
    from authorag.types import Candidate

    cands = [Candidate.create(p.url, text=p.text, id=str(n)) for n, p in enumerate(pages)]
    on = load_scorer(ScorerSettings(page_evidence=True)).score(cands)
    off = load_scorer(ScorerSettings(page_evidence=False)).score(cands)
    unknown: Counter[str] = Counter()
    moved: Counter[str] = Counter()
    for page, a, b in zip(pages, on, off):
        label = "true" if page.label else "fake"
        unknown[label] += b.tier == "unknown"
        x, y = DEFAULT_TRUST_RULE.value(a), DEFAULT_TRUST_RULE.value(b)
        if abs(x - y) > 1e-9:
            moved[f"{label} {'up' if x > y else 'down'}"] += 1
    return {"pages": len(pages), "unknown_domain": dict(sorted(unknown.items())), "moved": dict(sorted(moved.items()))}


def _markdown(record: dict[str, Any], command: str) -> str:
    lines = ["# Where page evidence speaks on the generalisation tracks", "",
             f"Generated by `{command}`; do not edit by hand.", "",
             "| v2 half | pages | classes | words median (min–max) | pages that spoke | (case, order) units changed |",
             "|---|---|---|---|---|---|"]
    for split, r in record["v2"].items():
        classes = ", ".join(f"{k} {v}" for k, v in r["classes"].items())
        w = r["words"]
        lines.append(f"| {split} | {r['pages']} | {classes} | {w['median']} ({w['min']}–{w['max']}) | "
                     f"{len(r['spoke'])} | {r['units_changed']} of {r['units']} |")
    lines += ["", "| v2 half | case | kind | page | class | trust | order right with page evidence off |",
              "|---|---|---|---|---|---|---|"]
    lines += [f"| {split} | {s['case']} | {s['kind']} | {s['role']} | {s['class']} | {s['trust']:.3f} | "
              f"{'yes' if s['off_order_right'] else 'no'} |" for split, r in record["v2"].items() for s in r["spoke"]]
    if record["real_url"]:
        lines += ["", "| track (real URL) | pages | on unknown domains | trust moved by page evidence |", "|---|---|---|---|"]
        lines += [f"| {t} | {r['pages']} | {r['unknown_domain']} | {r['moved']} |" for t, r in record["real_url"].items()]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    from authorag.settings import results_dir

    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--data-dir", type=Path, help="the shared data folder (CoAID, Fake.br); without it those rows are left out")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, help="output folder (default: the user results folder's page_evidence_reach/)")
    args = p.parse_args(argv)
    record: dict[str, Any] = {"seed": args.seed, "v2": {s: v2_reach(s, args.seed) for s in SPLITS}, "real_url": {}}
    if args.data_dir is not None:
        from authorag.benchmarks.generalisation import shared_sets as ss

        record["real_url"] = {"coaid-covid": real_url_moves(ss.load_coaid(args.data_dir, ss.MAX_PER_DOMAIN, args.seed)),
                              "fakebr-pt": real_url_moves(ss.load_fakebr(args.data_dir, ss.MAX_PER_DOMAIN, args.seed))}
    out = args.out if args.out is not None else results_dir() / "page_evidence_reach"
    out.mkdir(parents=True, exist_ok=True)
    command = "python scripts/page_evidence_reach.py" + (f" --data-dir {args.data_dir}" if args.data_dir else "") + \
        f" --seed {args.seed}"
    (out / "page_evidence_reach.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    (out / "page_evidence_reach.md").write_text(_markdown(record, command), encoding="utf-8")
    print(json.dumps({"folder": str(out), "units_changed": {s: r["units_changed"] for s, r in record["v2"].items()}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
