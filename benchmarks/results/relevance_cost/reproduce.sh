#!/bin/bash
# relevance_cost/: cheaper dense relevance (MiniLM with int8 linear layers, at 128 and 64 tokens)
# against the default (fp32, 128 tokens): relevance alone and the default method on the trust and
# no-harm tracks, dev and test halves, the share of reranked orders identical to the default's,
# and CPU ms per new ~200-word page on one thread in the same run (scripts/eval_relevance_cost.py).
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench),
# then keeps compare.md and compare.json here. Needs the embeddings extra. About 3 minutes.
#   bash benchmarks/results/relevance_cost/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost
COMMITTED=benchmarks/results/relevance_cost
PY=${PY:-$PWD/.venv/bin/python}
mkdir -p "$USER_OUT"
rm -f "$USER_OUT/compare.md" "$USER_OUT/compare.json"
PYTHONPATH=$PWD "$PY" scripts/eval_relevance_cost.py --out "$USER_OUT" --pages 100
cp "$USER_OUT/compare.md" "$USER_OUT/compare.json" "$COMMITTED/"
