"""Run the suitability benchmarks and write ``results.json`` + ``report.md`` to ``--out``.

    python scripts/bench_suitability.py --out /tmp/suit          # any folder
    bash benchmarks/results/suitability/reproduce.sh             # refreshes the committed results

Source-type accuracy per rule layer on the hand-labelled URL set, and RAG filter accuracy
(authority / suitability / both) on RAGAuth-open and the hand-made non-health set. Needs the
``embeddings`` extra for the MiniLM topic prototypes (``--no-prototypes`` to skip them).
About 45 s on 2 CPUs (most of it loading MiniLM and the prior).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from authorag import __version__
from authorag.benchmarks.suitability import run_all


def report(res: dict[str, Any]) -> str:
    st = res["source_types"]
    lines = ["# Suitability benchmarks", "", f"authorag {__version__}; made by `scripts/bench_suitability.py`.", "",
             f"## Source types: hand-labelled URL set ({st['n']} URLs, {len(st['labels'])} types)", "",
             (f"Hosts also in a rule list: {st['overlap']['curated_list']:.0%} in the hand-made known_sources.csv, "
              f"{st['overlap']['any_list']:.0%} in any list (incl. UT1). {st['note']}"), "",
             "| layer | accuracy | coverage | accuracy when answered |", "|---|---|---|---|"]
    rows = {**st["layers"], "all rules, hosts not in known_sources.csv": st["all_rules_not_in_curated"],
            "all rules, hosts in no list": st["all_rules_not_in_any_list"]}
    for name, m in rows.items():
        lines.append(f"| {name} (n={m['n']}) | {m['accuracy']:.3f} | {m['coverage']:.3f} | {m['accuracy_when_answered']:.3f} |")
    conf = st["layers"]["all_rules"]["confusion"]
    cols = [*st["labels"], "unknown"]
    lines += ["", "Confusion matrix, all rule layers (rows: label, columns: predicted):", "",
              "| label | " + " | ".join(c[:8] for c in cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for g in st["labels"]:
        lines.append(f"| {g} | " + " | ".join(str(conf.get(g, {}).get(c, "")) for c in cols) + " |")
    if "llm_layer" in res:
        lines += llm_report(res["llm_layer"])
    for name, r in res["rag"].items():
        lines += ["", f"## RAG filters: {name} ({r['n_instances']} instances; topics {r['question_topics']})", "",
                  "| filter | k=1 | k=3 | k=5 |", "|---|---|---|---|"]
        for f, ks in r["accuracy"].items():
            ci = r["accuracy_ci95"][f]
            lines.append(f"| {f} | " + " | ".join(f"{ks[k]:.2f} [{ci[k][0]:.2f}, {ci[k][1]:.2f}]" for k in ("1", "3", "5")) + " |")
    if res.get("question_topics_with_prototypes"):
        lines += ["", f"Question topics with MiniLM prototypes: {res['question_topics_with_prototypes']}"]
    tc = res["ragauth_types_vs_credibility"]
    lines += ["", (f"## Predicted source type vs NIST credibility, RAGAuth-open pages ({tc['pages']} pages, "
                  f"all layers with page text; deciding layer {tc['deciding_layer']})"), "",
              "| type | pages | mean NIST credibility |", "|---|---|---|"]
    for t, m in tc["by_type"].items():
        lines.append(f"| {t} | {m['pages']} | {m['mean_credibility']:.2f} |")
    return "\n".join(lines) + "\n"


def llm_report(llm: dict[str, Any]) -> list[str]:
    """The LLM layer's section: every hand-labelled URL, rules vs LLM configurations, paired deltas."""
    lines = ["", (f"## LLM source-type layer ({llm['backend']}, {llm['model']}; {llm['llm_calls']} calls "
                  f"(one per host + path pattern), {llm['wall_s']} s)"), "",
             (f"All {llm['n']} URLs. `fallback`: the rules' type, the model's only where the rules say unknown "
              f"({llm['n_rules_unknown']} URLs). `hybrid`: the classifier's setting, the model's vote joins the "
              f"rules' votes when their confidence is below {llm['llm_below']} ({llm['n_unsure']} URLs). "
              "CIs: 95 % bootstrap; deltas paired on the same URLs."), "",
             "| configuration | accuracy [95% CI] | coverage | Δ accuracy vs rules [95% CI] |", "|---|---|---|---|"]
    for key in ("rules", "llm_only", "fallback", "hybrid"):
        m = llm[key]
        d = llm.get(f"delta_{key}_vs_rules")
        delta = "" if d is None else f"{d['value']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]"
        lines.append(f"| {key} (n={m['n']}) | {m['accuracy']:.3f} [{m['accuracy_ci95'][0]:.3f}, "
                     f"{m['accuracy_ci95'][1]:.3f}] | {m['coverage']:.3f} | {delta} |")
    for subset in ("rules_unknown", "unsure"):
        r, m = llm[f"{subset}_rules"], llm[f"{subset}_llm_only"]
        lines.append(f"| LLM only on the {r['n']} URLs where rules are {subset.replace('rules_', '')} | "
                     f"{m['accuracy']:.3f} [{m['accuracy_ci95'][0]:.3f}, {m['accuracy_ci95'][1]:.3f}] | "
                     f"{m['coverage']:.3f} | rules there: {r['accuracy']:.3f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="results folder (created)")
    ap.add_argument("--no-prototypes", action="store_true", help="skip the MiniLM topic prototypes")
    ap.add_argument("--llm", choices=["local"], default=None,
                    help="also evaluate the LLM source-type layer on the embedded model (minutes of CPU; "
                         "answers kept in the judge cache)")
    args = ap.parse_args(argv)
    res = run_all(prototypes=not args.no_prototypes)
    res["config"] = {"prototypes": not args.no_prototypes, "seed": 0, "version": __version__, "llm": args.llm}
    if args.llm is not None:
        from authorag.benchmarks.suitability import llm_layer_eval
        from authorag.judges.backends import load_backend

        t0 = time.perf_counter()
        res["llm_layer"] = llm_layer_eval(load_backend(args.llm, cache=True))
        res["llm_layer"]["wall_s"] = round(time.perf_counter() - t0, 1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(res, indent=1, sort_keys=True) + "\n")
    (out / "report.md").write_text(report(res))
    print(report(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
