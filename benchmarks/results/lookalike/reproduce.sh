#!/bin/bash
# Look-alike detection with the default scorer: hijacked-journal clones against their authentic
# journals, generated homograph / mixed-script / zero-width variants of the top 1,000 look-alike
# targets, and false alarms on benchmarks/lookalike/legit_lookalike_v1.csv. Needs the shared data
# folder (stop_predatory_journals). Under a minute on one core.
#   bash benchmarks/results/lookalike/reproduce.sh [SHARED_DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=${1:-../shared/data}
python scripts/eval_lookalikes.py --data-dir "$DATA" --top 1000 --out benchmarks/results/lookalike/lookalike.json > /dev/null
