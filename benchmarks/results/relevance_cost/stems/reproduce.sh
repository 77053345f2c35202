#!/bin/bash
# The words' CPU per request (BM25 and coverage with stuffing, 20 new ~200-word pages:
# scripts/bench_lexical_words.py) before and after stemming remembered its words, one run, the same
# .venv (snowballstemmer as constraints.txt pins it): BEFORE is the commit before; its tree is read
# from git. Per language, before then after. Writes to the user results folder, then keeps the files here.
#   bash benchmarks/results/relevance_cost/stems/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BEFORE=${BEFORE:-a20406b}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost/stems
COMMITTED=benchmarks/results/relevance_cost/stems
mkdir -p "$USER_OUT"
base=$(mktemp -d "${TMPDIR:-/tmp}/authorag-before.XXXXXX")
trap 'rm -rf "$base"' EXIT
git archive "$BEFORE" | tar -x -C "$base"
for lang in en de es; do
  PYTHONPATH=$base "$PY" scripts/bench_lexical_words.py --language "$lang" --json "$USER_OUT/before_$lang.json"
  PYTHONPATH=$PWD "$PY" scripts/bench_lexical_words.py --language "$lang" --json "$USER_OUT/after_$lang.json"
done
cp "$USER_OUT"/before_*.json "$USER_OUT"/after_*.json "$COMMITTED/"
