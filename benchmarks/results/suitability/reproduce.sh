#!/usr/bin/env bash
# Refresh the committed suitability results (results.json, report.md, speed.json) in this folder.
#   bash benchmarks/results/suitability/reproduce.sh        # rule layers, topics, RAG filters (~1 min)
#   bash benchmarks/results/suitability/reproduce.sh llm    # + the LLM source-type layer on the embedded
#                                                           #   1.5B model on all 303 URLs (~4 min of CPU
#                                                           #   uncached; judge cache on)
#   bash benchmarks/results/suitability/reproduce.sh speed  # only speed.json (seconds)
set -euo pipefail
cd "$(dirname "$0")/../../.."
EXTRA=()
if [ "${1:-}" = "llm" ]; then EXTRA=(--llm local); fi
if [ "${1:-}" != "speed" ]; then
  PYTHONPATH=. .venv/bin/python scripts/bench_suitability.py --out benchmarks/results/suitability "${EXTRA[@]}"
fi
PYTHONPATH=. .venv/bin/python scripts/bench_suitability_speed.py --out benchmarks/results/suitability/speed.json
