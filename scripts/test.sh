#!/usr/bin/env bash
# The test command: set up .venv (first run installs everything), type-check, lint, run the default suite.
# Extra arguments go to pytest (e.g. `scripts/test.sh -m slow` for the slow tests).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ " $* " == *slow* ]]; then
  bash scripts/setup.sh --model   # slow tests run the 1.5B default judge model
else
  bash scripts/setup.sh
fi
.venv/bin/pyright authorag
.venv/bin/ruff check authorag tests scripts   # the rules: [tool.ruff] in pyproject.toml
.venv/bin/python -m pytest "$@"
