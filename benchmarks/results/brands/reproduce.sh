#!/bin/bash
# Brands phishing imitates (authorag/data/impersonated_brands.csv) as look-alike targets:
# 1. the look-alike evaluation (scripts/eval_lookalikes.py: hijacked journals, generated variants,
#    every false-alarm list incl. legit_brand_sisters_v1.csv, generated brand spoofs)
#    -> benchmarks/results/lookalike/lookalike.json (by that folder's reproduce.sh)
# 2. brand names in the LegitPhish phishing hosts, and how many of those hosts the index flags
#    asked directly, now and with the target file of the branch point (78cd20d) -> legitphish_brands.json
# Needs the shared data folder (stop_predatory_journals) and git. About a minute on one core.
#   bash benchmarks/results/brands/reproduce.sh [SHARED_DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=${1:-../shared/data}
OUT=benchmarks/results/brands
bash benchmarks/results/lookalike/reproduce.sh "$DATA"
BEFORE=$(mktemp --suffix=.csv.gz)
git show 78cd20d:authorag/data/lookalike_targets.csv.gz > "$BEFORE"
python scripts/count_phishing_brands.py --top 60 --before "$BEFORE" --out "$OUT/legitphish_brands.json" > /dev/null
rm -f "$BEFORE"
