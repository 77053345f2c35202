"""Build the page-evidence model shipped as ``authorag/data/page_evidence.json``.

Trains :mod:`authorag.evidence.train` on every vendored TREC HM 2019 page (NIST credibility, 276
pages, 29 topics): ridge logistic regression over the URL, source-type and text layers, Platt
scaling on leave-topic-out logits. No weak labels: UT1 and CRED-1 list the domains of 2 of the
276 pages, so they can teach the page layers nothing (domain-name evidence is the learned
prior's job). Deterministic: the same data gives the same file.

Evaluation never uses this file on the tracks built from these pages: the bench swaps in models
fitted without the scored page's topics (:mod:`authorag.benchmarks.page_evidence.crossfit`).

Run:
    PYTHONPATH=$PWD .venv/bin/python scripts/build_page_evidence.py            # writes the shipped file
    PYTHONPATH=$PWD .venv/bin/python scripts/build_page_evidence.py --out /tmp/pe.json --l2 30
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from authorag.benchmarks.page_evidence.crossfit import labelled_pages, model_meta
from authorag.evidence.train import DEFAULT_L2, FitConfig, fit_page_model

OUT = Path("authorag/data/page_evidence.json")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--l2", type=float, default=DEFAULT_L2, help=f"ridge strength (default {DEFAULT_L2:g})")
    args = p.parse_args(argv)
    pages = labelled_pages()
    cfg = FitConfig(l2=args.l2)
    model = fit_page_model(pages.matrix, pages.labels, pages.topics, cfg, meta=model_meta(pages, cfg))
    model.save(args.out)
    print(f"wrote {args.out}: {len(pages.labels)} pages, base rate {model.base_rate:.3f}, "
          f"platt a={model.platt[0]:.3f} b={model.platt[1]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
