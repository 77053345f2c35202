#!/bin/bash
# Page evidence reads Portuguese: the held-out evaluation (text alone on an unknown domain) with the pt
# cue lists, run once after the lists were committed (b364be7) and never tuned on it. Fake.br is
# evaluation only; the TREC HM 2019 pages and CoAID rows come from the same run (the pt lists do not
# touch them). Seed 0. Needs the shared data folder (DATA, default /work/shared/data); the run writes
# to the user results folder, then the files are copied here.
#   bash benchmarks/results/page_evidence/pt/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
OUT=benchmarks/results/page_evidence/pt
DATA=${DATA:-/work/shared/data}
RUNS=${AUTHORAG_RESULTS:-$HOME/.local/share/authorag/bench}/page_evidence/pt
PY=.venv/bin/python
PYTHONPATH=$PWD $PY scripts/eval_page_evidence.py --data-dir "$DATA" --limit 2000 --seed 0 --out "$RUNS"
cp "$RUNS"/page_evidence_eval.json "$RUNS"/page_evidence_eval.md "$OUT"/
