#!/bin/bash
# Dutch, Italian and Portuguese service words, tried and not kept: the look-alike evaluation
# (scripts/eval_lookalikes.py with this checkout's script and lists, so every list is measured on
# both sides) with the rejected words (REJECTED, run in a temporary export) and without them
# (this checkout). Needs the shared data folder (stop_predatory_journals). About two minutes.
#   bash benchmarks/results/brands/reproduce_languages.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=$(cd "${1:?give the shared data folder}" && pwd)
REJECTED=${REJECTED:-c0f9b8b}
OUT=$PWD/benchmarks/results/brands/languages
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT/rejected" "$OUT/shipped"
git archive "$REJECTED" | tar -x -C "$TMP"
cp scripts/eval_lookalikes.py "$TMP/scripts/"
cp benchmarks/lookalike/*.csv "$TMP/benchmarks/lookalike/"
(cd "$TMP" && PYTHONPATH="$TMP" python scripts/eval_lookalikes.py --data-dir "$DATA" --top 1000 \
   --out "$OUT/rejected/lookalike.json" > /dev/null)
PYTHONPATH="$PWD" python scripts/eval_lookalikes.py --data-dir "$DATA" --top 1000 --out "$OUT/shipped/lookalike.json" \
  > /dev/null
