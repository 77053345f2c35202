"""Build the page-evidence model shipped as ``authorag/data/page_evidence.json``.

The cue weights are hand-set (:data:`authorag.evidence.model.CUE_WEIGHTS`); this script fits the
calibration (Platt scaling of the cue score, and the base rate) on two collections no evaluation
track is built from: RAMDocs documents (``--data-dir``, the shared data folder) and the
hand-written dev pages (:mod:`authorag.benchmarks.page_evidence.dev_pages`), each weighted
equally. TREC HM 2019, CoAID and Fake.br are never fitted on. Deterministic.

Run:
    PYTHONPATH=$PWD .venv/bin/python scripts/build_page_evidence.py --data-dir /work/shared/data
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from authorag.benchmarks.page_evidence.collections import calibration_pages, fit_calibration
from authorag.evidence.model import PageModel

OUT = Path("authorag/data/page_evidence.json")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--data-dir", type=Path, required=True, help="folder holding ramdocs/RAMDocs_test.jsonl")
    p.add_argument("--questions", type=int, default=300, help="RAMDocs questions read (default 300)")
    args = p.parse_args(argv)
    pages = calibration_pages(args.data_dir, args.questions)
    if "ramdocs" not in pages:
        raise SystemExit(f"{args.data_dir}/ramdocs/RAMDocs_test.jsonl not found: pass --data-dir with the shared data")
    model = fit_calibration(PageModel((1.0, 0.0), 0.5), pages)
    model.save(args.out)
    print(f"wrote {args.out}: platt a={model.platt[0]:.3f} b={model.platt[1]:.3f}, base rate {model.base_rate:.3f}, "
          f"{model.meta['collections']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
