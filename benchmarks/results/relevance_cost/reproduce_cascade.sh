#!/bin/bash
# relevance_cost/cascade/: cascade relevance (words for every page, MiniLM int8 at 64 tokens for the
# eight with most of the question's words) against dense relevance (MiniLM fp32, 128 tokens, every
# page), the default method and relevance alone, dev half:
#   v1_dev/      bench compare on trust-pairs, no-harm-pairs, no-harm-lists, no-harm-hard (both in one run)
#   v2_dense/    bench tracks on trust-pairs-v2, no-harm-pairs-v2, rerank-lists-v2, --relevance dense
#   v2_cascade/  the same, --relevance cascade
#   encoded.md   the share of pages the cascade encodes per track and on bench_server.py's requests
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then
# keeps the tables here. Needs the embeddings extra. About 25 minutes on a quiet 2-core machine.
#   bash benchmarks/results/relevance_cost/reproduce_cascade.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost/cascade
COMMITTED=benchmarks/results/relevance_cost/cascade
PY=${PY:-$PWD/.venv/bin/python}
export PYTHONPATH=$PWD
mkdir -p "$USER_OUT" "$COMMITTED"
rm -rf "$USER_OUT/v1_dev" "$USER_OUT/v2_dense" "$USER_OUT/v2_cascade" "$USER_OUT/encoded"
"$PY" -m authorag bench compare --methods relevance-only,default \
    --tracks trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard --split dev \
    --track-relevance dense,cascade --seed 0 --out "$USER_OUT/v1_dev"
for rel in dense cascade; do
    "$PY" -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 --split dev \
        --relevance "$rel" --seed 0 --out "$USER_OUT/v2_$rel"
done
"$PY" scripts/eval_relevance_cascade.py --out "$USER_OUT/encoded"
for run in v1_dev v2_dense v2_cascade; do
    mkdir -p "$COMMITTED/$run"
    cp "$USER_OUT/$run/compare.md" "$USER_OUT/$run/compare.json" "$COMMITTED/$run/"
done
cp "$USER_OUT/encoded/encoded.md" "$USER_OUT/encoded/encoded.json" "$COMMITTED/"
