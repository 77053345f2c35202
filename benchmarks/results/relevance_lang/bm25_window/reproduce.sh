#!/bin/bash
# relevance_lang/bm25_window/: BM25's window on the no-harm pairs, before (BASE, the
# commit before the de/es/fr stop lists dropped their auxiliaries' forms) and after (this tree),
# seed 0, each split (dev: the choice; test: reported once, never tuned on):
#   {before,after}/tracks/{dev,test}: `authorag bench tracks --relevance bm25` (every track; the
#     shared sets are read from the data folder given as the first argument or $AUTHORAG_SHARED_DATA);
#   {before,after}/v1/{dev,test}: the v1 hand-written tracks with BM25;
#   {before,after}/cascade/dev: the v2 tracks with the cascade (the stop lists are its words' too).
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/bm25_window;
# compare.md and compare.json are copied here. About 4 minutes on 2 cores.
#   bash benchmarks/results/relevance_lang/bm25_window/reproduce.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../../.."
DATA=${1:-${AUTHORAG_SHARED_DATA:?give the shared data folder as the first argument or in AUTHORAG_SHARED_DATA}}
BASE=${BASE:-b6e5b01}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/bm25_window
COMMITTED=benchmarks/results/relevance_lang/bm25_window
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"

# run SRC NAME ARGS...: `authorag ARGS` with the package in SRC, into USER_OUT/NAME, copied here
run() {
  local src=$1 name=$2
  shift 2
  rm -rf "${USER_OUT:?}/$name"
  PYTHONPATH=$src nice "$PY" -P -m authorag "$@" --seed 0 --out "$USER_OUT/$name"
  mkdir -p "$COMMITTED/$name"
  cp "$USER_OUT/$name/compare.md" "$USER_OUT/$name/compare.json" "$COMMITTED/$name/"
}

for side in before after; do
  src=$PWD
  [ "$side" = before ] && src=$BEFORE
  for split in dev test; do
    run "$src" "$side/tracks/$split" bench tracks --data-dir "$DATA" --split "$split" --relevance bm25
    run "$src" "$side/v1/$split" bench compare --methods default \
      --tracks trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard --split "$split" --track-relevance bm25
  done
  if PYTHONPATH=$src "$PY" -c "import transformers" 2>/dev/null; then
    run "$src" "$side/cascade/dev" bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
      --split dev --relevance cascade
  fi
done
for name in tracks/dev tracks/test v1/dev v1/test cascade/dev; do
  [ -f "$COMMITTED/before/$name/compare.json" ] || continue
  echo "## $name"
  "$PY" scripts/diff_compare.py "$COMMITTED/before/$name/compare.json" "$COMMITTED/after/$name/compare.json"
done > "$COMMITTED/diff.md"
