#!/bin/bash
# load_prior() and the look-alike index's first build, before (8d1f0e3, the branch point) and
# after (this checkout: targets from the registries and lists under government suffixes), in
# one session, alternated three times (before_1, after_1, before_2, ...), 5 fresh processes each.
#   bash benchmarks/results/lookalike/reproduce_speed_targets.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
BEFORE=${BEFORE:-8d1f0e3}
OUT=benchmarks/results/lookalike/speed_targets
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
git archive "$BEFORE" | tar -x -C "$TMP"
for i in 1 2 3; do
  PYTHONPATH="$TMP" python scripts/bench_lookalike_load.py --runs 5 --out "$OUT/before_$i.json" > /dev/null
  PYTHONPATH="$PWD" python scripts/bench_lookalike_load.py --runs 5 --out "$OUT/after_$i.json" > /dev/null
done
