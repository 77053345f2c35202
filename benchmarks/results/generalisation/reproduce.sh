#!/bin/bash
# Generalisation tracks (`authorag bench tracks`: evaluation that cannot be fitted to one collection): every track, the default against
# page-evidence-off (table + constant) and relevance-only, bootstrap 95 % CIs, seed 0, BM25
# relevance; the hand-written sets (v2 on) in both halves:
#   dev/:  the dev half (tune here);
#   test/: the test half (report only, never tuned on).
# The shared sets (C3, Fake.br, CoAID, Décodex, Wikipedia WikiProject lists) are read from the data
# folder given as the first argument or $AUTHORAG_SHARED_DATA (never vendored). Runs go to the
# user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/generalisation; only
# compare.md and compare.json are copied here. With NAME=before they are copied to before/ instead
# (the record of the code before the generalisation work changed any default). Then, when the
# embeddings extra is installed, every hand-written track (v2 on) again with the product's default
# relevance (the cascade) into cascade/dev and cascade/test (the shared sets do not read
# relevance). About 5 minutes on 2 cores, the cascade included.
#   bash benchmarks/results/generalisation/reproduce.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=${1:-${AUTHORAG_SHARED_DATA:?give the shared data folder as the first argument or in AUTHORAG_SHARED_DATA}}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/generalisation${NAME:+/$NAME}
COMMITTED=benchmarks/results/generalisation${NAME:+/$NAME}
for split in dev test; do
  rm -rf "${USER_OUT:?}/$split"
  PYTHONPATH=$PWD "$PY" -m authorag bench tracks --data-dir "$DATA" --split "$split" --relevance bm25 --seed 0 \
    --out "$USER_OUT/$split"
  mkdir -p "$COMMITTED/$split"
  cp "$USER_OUT/$split/compare.md" "$USER_OUT/$split/compare.json" "$COMMITTED/$split/"
done
if [ -z "${NAME:-}" ] && PYTHONPATH=$PWD "$PY" -c "import transformers" 2>/dev/null; then
  HAND=$(PYTHONPATH=$PWD "$PY" -c "from authorag.benchmarks.tracks.trust_data import MULTI_SETS; print(','.join(MULTI_SETS))")
  for split in dev test; do
    rm -rf "${USER_OUT:?}/cascade/$split"
    PYTHONPATH=$PWD "$PY" -m authorag bench tracks --tracks "$HAND" \
      --split "$split" --relevance cascade --seed 0 --out "$USER_OUT/cascade/$split"
    mkdir -p "$COMMITTED/cascade/$split"
    cp "$USER_OUT/cascade/$split/compare.md" "$USER_OUT/cascade/$split/compare.json" "$COMMITTED/cascade/$split/"
  done
fi
