#!/bin/bash
# generalisation/lowcues/: fabricated and sensational pages stop setting the relevance bar (accented
# cue words read, the "alarm" low-cue family, a candidate whose text shows a low cue never the
# window's relevance reference), before (BASE, the commit before these changes) and after (this
# tree), each split, the default method:
#   {before,after}/{dev,test}/v2-bm25, v2-cascade: `authorag bench tracks` on trust-pairs-v2,
#     no-harm-pairs-v2 and rerank-lists-v2 (per kind and language rows in compare.md);
#   {before,after}/{dev,test}/v1: `authorag bench compare` on the first hand-written tracks
#     (trust-pairs, no-harm-pairs, no-harm-lists, no-harm-hard), relevance-only and the default.
# Tune on dev only; test is reported once, never tuned on. Cascade needs the [embeddings] extra.
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/lowcues;
# compare.md and compare.json are copied here. Sequential (a shared 2-core machine).
#   bash benchmarks/results/generalisation/lowcues/reproduce.sh
#   SPLITS=dev SIDES=after bash benchmarks/results/generalisation/lowcues/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BASE=${BASE:-8d1f0e3}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/lowcues
COMMITTED=benchmarks/results/generalisation/lowcues
SPLITS=${SPLITS:-dev test}
SIDES=${SIDES:-before after}
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"

# keep OUT: copy a run's tables to the committed folder
keep() {
  mkdir -p "$COMMITTED/${1#"$USER_OUT"/}"
  cp "$1/compare.md" "$1/compare.json" "$COMMITTED/${1#"$USER_OUT"/}/"
}

for split in $SPLITS; do
  for side in $SIDES; do
    src=$PWD; [ "$side" = before ] && src=$BEFORE
    out=$USER_OUT/$side/$split
    for rel in bm25 cascade; do
      rm -rf "${out:?}/v2-$rel"
      PYTHONPATH=$src nice "$PY" -P -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
        --split "$split" --relevance "$rel" --seed 0 --out "$out/v2-$rel"
      keep "$out/v2-$rel"
    done
    rm -rf "${out:?}/v1"
    PYTHONPATH=$src nice "$PY" -P -m authorag bench compare --methods relevance-only,default \
      --tracks trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard --split "$split" --track-relevance bm25 \
      --rerank-relevance none --seed 0 --out "$out/v1"
    keep "$out/v1"
  done
done
