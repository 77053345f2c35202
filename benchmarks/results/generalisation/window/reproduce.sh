#!/bin/bash
# generalisation/window/: the trust window on the hand-written tracks, before (BASE, the commit
# before the window changes) and after (this tree), each split, BM25 and dense relevance:
#   {before,after}/{dev,test}/v2-bm25, v2-dense: `authorag bench tracks` on trust-pairs-v2,
#     no-harm-pairs-v2 and rerank-lists-v2 (the multi-topic, multilingual sets);
#   {before,after}/{dev,test}/v1: `authorag bench compare` on the first hand-written tracks
#     (trust-pairs, no-harm-pairs, no-harm-lists, no-harm-hard), relevance-only and the default.
# Tune on dev only; test is reported, never tuned on. Dense needs the [embeddings] extra.
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/window;
# compare.md and compare.json are copied here. Sequential (a shared 2-core machine).
#   bash benchmarks/results/generalisation/window/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BASE=${BASE:-2e1251b}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/window
COMMITTED=benchmarks/results/generalisation/window
SPLITS=${SPLITS:-dev test}
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"

# keep OUT: copy a run's tables to the committed folder
keep() {
  mkdir -p "$COMMITTED/${1#"$USER_OUT"/}"
  cp "$1/compare.md" "$1/compare.json" "$COMMITTED/${1#"$USER_OUT"/}/"
}

for split in $SPLITS; do
  for side in before after; do
    src=$PWD; [ "$side" = before ] && src=$BEFORE
    out=$USER_OUT/$side/$split
    for rel in bm25 dense; do
      rm -rf "${out:?}/v2-$rel"
      PYTHONPATH=$src nice "$PY" -P -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
        --split "$split" --relevance "$rel" --seed 0 --out "$out/v2-$rel"
      keep "$out/v2-$rel"
    done
    rm -rf "${out:?}/v1"
    PYTHONPATH=$src nice "$PY" -P -m authorag bench compare --methods relevance-only,default \
      --tracks trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard --split "$split" --track-relevance bm25,dense \
      --rerank-relevance none --seed 0 --out "$out/v1"
    keep "$out/v1"
  done
done
