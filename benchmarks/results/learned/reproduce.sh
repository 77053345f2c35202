#!/bin/bash
# Table + constant vs the default composition with the old (head-only) and the
# tail-aware learned tier, on every comparison track, leave-source-out (needs `bench compare`).
# About 25 CPU seconds once the leave-source-out learned priors are cached (about 20 s to train them).
#   bash benchmarks/results/learned/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=benchmarks/results/learned
PYTHONPATH=. .venv/bin/python scripts/compare_learned_tiers.py --out "$OUT"
rm -rf "$OUT"/plain/runs "$OUT"/mbfc/runs
