#!/bin/bash
# Page evidence reads Portuguese: the held-out evaluation (text alone on an unknown domain) with the pt
# cue lists, run once after the lists were committed (b364be7) and never tuned on it. Fake.br is
# evaluation only; the TREC HM 2019 pages and CoAID rows come from the same run (the pt lists do not
# touch them). Seed 0. Needs the shared data folder (DATA, default /work/shared/data); the run writes
# to the user results folder, then the files are copied here.
# Fake.br pages are grouped by registrable domain for the CI (estadao.com.br, not com.br).
#   bash benchmarks/results/page_evidence/pt/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
OUT=benchmarks/results/page_evidence/pt
DATA=${DATA:-/work/shared/data}
RUNS=${AUTHORAG_RESULTS:-$HOME/.local/share/authorag/bench}/page_evidence/pt
PY=.venv/bin/python
PYTHONPATH=$PWD $PY scripts/eval_page_evidence.py --data-dir "$DATA" --limit 2000 --seed 0 --out "$RUNS"
cp "$RUNS"/page_evidence_eval.json "$RUNS"/page_evidence_eval.md "$OUT"/
# The window reads pt low cues for a pt query; the v2 dev half has no pt page, so its tracks must not
# move: the same `bench tracks` run before (BASE, the commit before the pt lists) and after, copied to
# window_dev/{before,after}/ (identical but for the timings).
BASE=${BASE:-69ee659}
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"
for side in before after; do
  src=$PWD; [ "$side" = before ] && src=$BEFORE
  rm -rf "${RUNS:?}/window_dev/$side"
  PYTHONPATH=$src nice "$PWD/$PY" -P -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2 --split dev \
    --relevance bm25 --seed 0 --out "$RUNS/window_dev/$side"
  mkdir -p "$OUT/window_dev/$side"
  cp "$RUNS/window_dev/$side/compare.md" "$RUNS/window_dev/$side/compare.json" "$OUT/window_dev/$side/"
done
