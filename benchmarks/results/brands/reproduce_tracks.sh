#!/bin/bash
# The dev half of the v2 tracks, both relevance modes, before (78cd20d, the branch point: no brand
# targets) and after (this checkout). The test half is not run. About 12 minutes on one core
# (cascade relevance: about 5 minutes a run). Runs in the user results folder; files go to tracks/.
#   bash benchmarks/results/brands/reproduce_tracks.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=benchmarks/results/brands/tracks
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/brands-tracks
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
git archive 78cd20d | tar -x -C "$TMP"
for rel in cascade bm25; do
  for side in before after; do
    if [ "$side" = before ]; then SRC="$TMP"; else SRC="$PWD"; fi
    (cd "$SRC" && PYTHONPATH="$SRC" python -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
      --split dev --relevance "$rel" --seed 0 --out "$USER_OUT/$side/$rel") > /dev/null
    mkdir -p "$OUT/$side/$rel"
    cp "$USER_OUT/$side/$rel/compare.md" "$USER_OUT/$side/$rel/compare.json" "$OUT/$side/$rel/"
  done
done
