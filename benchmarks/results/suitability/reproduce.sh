#!/usr/bin/env bash
# Refresh the committed suitability results (results.json, report.md) in this folder.
set -euo pipefail
cd "$(dirname "$0")/../../.."
PYTHONPATH=. .venv/bin/python scripts/bench_suitability.py --out benchmarks/results/suitability
