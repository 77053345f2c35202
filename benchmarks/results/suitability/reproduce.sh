#!/usr/bin/env bash
# Refresh the committed suitability results (results.json, report.md) in this folder.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# LLM layer on the embedded 1.5B model: a few minutes of CPU, serialized with other heavy jobs.
PYTHONPATH=. .venv/bin/python scripts/bench_suitability.py --out benchmarks/results/suitability --llm local
