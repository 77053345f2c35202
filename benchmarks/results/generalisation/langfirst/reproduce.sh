#!/bin/bash
# generalisation/langfirst/: a page that restates the question gets no lead on relevance in the
# window (authorag.rerankers.fusion.restated_no_lead), before (BASE, the commit before the change)
# and after (this tree), dev split only (the test halves are read by the lead, never tuned on):
#   {before,after}/dev/v23-{bm25,cascade}: `authorag bench tracks` on trust-pairs-v2, no-harm-pairs-v2,
#     rerank-lists-v2, trust-pairs-v3, no-harm-pairs-v3 and rerank-lists-v3 (per kind and
#     language rows in compare.md);
#   {before,after}/dev/v1: `authorag bench compare` on the first hand-written tracks (trust-pairs,
#     no-harm-pairs, no-harm-hard, no-harm-lists), both relevances.
# Cascade needs the [embeddings] extra. Runs go to the user results folder
# ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/langfirst; compare.md and compare.json are
# copied here. Sequential (a shared 2-core machine).
#   bash benchmarks/results/generalisation/langfirst/reproduce.sh
#   SIDES=after bash benchmarks/results/generalisation/langfirst/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BASE=${BASE:-7918086}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/langfirst
COMMITTED=benchmarks/results/generalisation/langfirst
SIDES=${SIDES:-before after}
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"

# keep OUT: copy a run's tables to the committed folder
keep() {
  mkdir -p "$COMMITTED/${1#"$USER_OUT"/}"
  cp "$1/compare.md" "$1/compare.json" "$COMMITTED/${1#"$USER_OUT"/}/"
}

for side in $SIDES; do
  src=$PWD; [ "$side" = before ] && src=$BEFORE
  out=$USER_OUT/$side/dev
  for rel in cascade bm25; do
    rm -rf "${out:?}/v23-$rel"
    PYTHONPATH=$src nice "$PY" -P -m authorag bench tracks \
      --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2,trust-pairs-v3,no-harm-pairs-v3,rerank-lists-v3 \
      --split dev --relevance "$rel" --seed 0 --out "$out/v23-$rel"
    keep "$out/v23-$rel"
  done
  rm -rf "${out:?}/v1"
  PYTHONPATH=$src nice "$PY" -P -m authorag bench compare --methods default \
    --tracks trust-pairs,no-harm-pairs,no-harm-hard,no-harm-lists --split dev --track-relevance bm25,cascade \
    --rerank-relevance none --seed 0 --out "$out/v1"
  keep "$out/v1"
done
