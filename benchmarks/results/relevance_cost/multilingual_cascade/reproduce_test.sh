#!/bin/bash
# relevance_cost/multilingual_cascade/before_test/, after_test/: the held-out test halves of
# trust-pairs-v2, no-harm-pairs-v2 and rerank-lists-v2 with the default relevance (cascade), before
# (the code at BEFORE) and after, read once after every choice was made on the dev halves
# (reproduce.sh). Writes to the user results folder first ($AUTHORAG_RESULTS or
# ~/.local/share/authorag/bench), then keeps compare.md/compare.json here. About 5 minutes.
#   bash benchmarks/results/relevance_cost/multilingual_cascade/reproduce_test.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BEFORE=${BEFORE:-8d1f0e3}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost/multilingual_cascade
COMMITTED=benchmarks/results/relevance_cost/multilingual_cascade
PY=${PY:-$PWD/.venv/bin/python}
mkdir -p "$USER_OUT"
rm -rf "$USER_OUT/before_test" "$USER_OUT/after_test"
base=$(mktemp -d "${TMPDIR:-/tmp}/authorag-before.XXXXXX")
trap 'rm -rf "$base"' EXIT
git archive "$BEFORE" | tar -x -C "$base"
for run in before after; do
    src=$PWD
    [ "$run" = before ] && src=$base
    (cd "$src" && PYTHONPATH=$src "$PY" -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
        --split test --relevance cascade --seed 0 --out "$USER_OUT/${run}_test")
    mkdir -p "$COMMITTED/${run}_test"
    cp "$USER_OUT/${run}_test/compare.md" "$USER_OUT/${run}_test/compare.json" "$COMMITTED/${run}_test/"
done
