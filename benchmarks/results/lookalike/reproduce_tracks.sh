#!/bin/bash
# The generalisation tracks (authorag bench tracks, seed 0, BM25) on this branch, test and dev
# halves; compare with benchmarks/results/generalisation/before/ (main at 2705fe9, the same
# command). Runs in the user results folder; compare.md/json copied to tracks/<split>/.
#   bash benchmarks/results/lookalike/reproduce_tracks.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=${1:?give the shared data folder}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/lookalike-tracks
for split in test dev; do
  PYTHONPATH=$PWD python -m authorag bench tracks --data-dir "$DATA" --split "$split" --relevance bm25 --seed 0 --out "$USER_OUT/$split"
  mkdir -p benchmarks/results/lookalike/tracks/$split
  cp "$USER_OUT/$split/compare.md" "$USER_OUT/$split/compare.json" benchmarks/results/lookalike/tracks/$split/
done
