#!/bin/bash
# Speed before (78cd20d) and after (this checkout), alternated twice in one session:
# scripts/bench_lookalike_load.py (load_prior() and the look-alike index's first build, 5 fresh
# processes each) and scripts/bench_foundation.py (prior-only rerank of 100 URLs, p50).
#   bash benchmarks/results/brands/reproduce_speed.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
OUT=benchmarks/results/brands/speed
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
git archive 78cd20d | tar -x -C "$TMP"
for i in 1 2; do
  for side in before after; do
    if [ "$side" = before ]; then SRC="$TMP"; else SRC="$PWD"; fi
    (cd "$SRC" && PYTHONPATH="$SRC" python scripts/bench_lookalike_load.py --runs 5 --out "$ROOT/$OUT/load_${side}_$i.json") > /dev/null
    (cd "$SRC" && PYTHONPATH="$SRC" python scripts/bench_foundation.py --repeats 500 --out "$ROOT/$OUT/foundation_${side}_$i.json") > /dev/null
  done
done
