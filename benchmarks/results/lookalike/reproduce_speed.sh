#!/bin/bash
# Prior-only rerank speed before (2705fe9, the branch point) and after, in the same run:
# scripts/bench_foundation.py in a temporary export of the earlier commit and in this checkout,
# alternated twice (before_1, after_1, before_2, after_2), 500 repeats each.
#   bash benchmarks/results/lookalike/reproduce_speed.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
BEFORE=${BEFORE:-2705fe9}
OUT=benchmarks/results/lookalike/speed
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
git archive "$BEFORE" | tar -x -C "$TMP"
for i in 1 2; do
  (cd "$TMP" && PYTHONPATH="$TMP" python scripts/bench_foundation.py --repeats 500 --out "$OLDPWD/$OUT/before_$i.json")
  PYTHONPATH="$PWD" python scripts/bench_foundation.py --repeats 500 --out "$OUT/after_$i.json"
done
