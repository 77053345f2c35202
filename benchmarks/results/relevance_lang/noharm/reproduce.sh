#!/bin/bash
# relevance_lang/noharm/: the window's subject test (authorag.rerankers.fusion.subject_off_topic)
# before (BASE, the commit before it) and after (this tree), dev halves only:
#   rows/{before,after}_{bm25,cascade}_{pairs,lists,trust}{2,3}.txt: scripts/noharm_dev_rows.py, each failing dev
#       row with its pages' trust and window relevance, and the share held (last line);
#   tracks_{before,after}_bm25/: bench tracks on the v2 and v3 tracks, BM25;
#   v1_{before,after}/: bench compare on the v1 tracks (trust-pairs, no-harm-pairs, no-harm-hard,
#       no-harm-lists), BM25 and the cascade.
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/noharm
# first; the files listed are copied here. Needs the embeddings extra for the cascade.
#   bash benchmarks/results/relevance_lang/noharm/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BASE=${BASE:-7918086}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/noharm
COMMITTED=benchmarks/results/relevance_lang/noharm
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"
mkdir -p "$USER_OUT/rows" "$COMMITTED/rows"
for side in before after; do
  src=$PWD; [ "$side" = before ] && src=$BEFORE
  for rel in bm25 cascade; do for kind in pairs lists trust; do for v in 2 3; do
    out="$USER_OUT/rows/${side}_${rel}_${kind}${v}.txt"
    PYTHONPATH=$src nice "$PY" -P "$PWD/scripts/noharm_dev_rows.py" "$kind" "$v" "$rel" > "$out"
    cp "$out" "$COMMITTED/rows/"
  done; done; done
  PYTHONPATH=$src nice "$PY" -P -m authorag bench tracks --split dev --relevance bm25 --seed 0 \
    --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2,trust-pairs-v3,no-harm-pairs-v3,rerank-lists-v3 \
    --out "$USER_OUT/tracks_${side}_bm25"
  mkdir -p "$COMMITTED/tracks_${side}_bm25"
  cp "$USER_OUT/tracks_${side}_bm25/compare.md" "$USER_OUT/tracks_${side}_bm25/compare.json" "$COMMITTED/tracks_${side}_bm25/"
  PYTHONPATH=$src nice "$PY" -P -m authorag bench compare --methods default --split dev --seed 0 \
    --tracks trust-pairs,no-harm-pairs,no-harm-hard,no-harm-lists --track-relevance bm25,cascade \
    --rerank-relevance none --out "$USER_OUT/v1_${side}"
  mkdir -p "$COMMITTED/v1_${side}"
  cp "$USER_OUT/v1_${side}/compare.md" "$USER_OUT/v1_${side}/compare.json" "$COMMITTED/v1_${side}/"
done
