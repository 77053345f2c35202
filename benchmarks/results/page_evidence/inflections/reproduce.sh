#!/bin/bash
# Page-evidence moves after inflections of one cue word count once (virus/viruses, cure/cures/cured:
# authorag.evidence.text._roots): scripts/page_evidence_moves.py on this commit, dev half by
# registrable domain, seed 0; compare with ../default_study/moves/dev (the commit before the fix).
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/page_evidence_inflections;
# the .md and .json are copied here.
#   bash benchmarks/results/page_evidence/inflections/reproduce.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../../.."
DATA=${1:-${AUTHORAG_SHARED_DATA:?give the shared data folder as the first argument or in AUTHORAG_SHARED_DATA}}
PY=${PY:-$PWD/.venv/bin/python}
RUNS=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/page_evidence_inflections
OUT=$PWD/benchmarks/results/page_evidence/inflections
PYTHONPATH=$PWD nice "$PY" scripts/page_evidence_moves.py --data-dir "$DATA" --split dev --seed 0 --out "$RUNS/moves/dev"
mkdir -p "$OUT/moves/dev"
cp "$RUNS/moves/dev"/page_evidence_moves.json "$RUNS/moves/dev"/page_evidence_moves.md "$OUT/moves/dev/"
