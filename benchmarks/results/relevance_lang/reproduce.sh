#!/bin/bash
# relevance_lang/: lexical relevance in the query's language and the window that keeps the page a
# user wants, measured before (BASE, the commit before the change) and after (this tree), with
# BM25 and with dense relevance, on every hand-written track, each split:
#   before/{dev,test}, after/{dev,test}: relevance alone and the default, bm25 and dense;
#   cases/: the multilingual dev cases of scripts/eval_relevance_lang.py, before and after.
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/relevance_lang;
# compare.md, compare.json and cases.json are copied here.
#   bash benchmarks/results/relevance_lang/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
BASE=${BASE:-2705fe9}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_lang
COMMITTED=benchmarks/results/relevance_lang
TRACKS=trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"

# compare SRC OUT SPLIT [WORDS_POWER]: bench compare with the package in SRC into OUT.
compare() {
  rm -rf "${2:?}"
  PYTHONPATH=$1 nice "$PY" -P -c 'import sys
import authorag.rerankers.fusion as fusion
if sys.argv[1]:
    fusion.WORDS_POWER = float(sys.argv[1])
from authorag.cli import main
sys.exit(main(sys.argv[2:]))' "${4:-}" bench compare --methods relevance-only,default --tracks "$TRACKS" \
    --split "$3" --track-relevance bm25,dense --rerank-relevance none --seed 0 --out "$2"
  mkdir -p "$COMMITTED/${2#"$USER_OUT"/}"
  cp "$2/compare.md" "$2/compare.json" "$COMMITTED/${2#"$USER_OUT"/}/"
}

# the runs are independent: in parallel (-P: the package comes from PYTHONPATH, not the cwd)
for split in dev test; do
  compare "$BEFORE" "$USER_OUT/before/$split" "$split" &
  compare "$PWD" "$USER_OUT/after/$split" "$split" &
done
wait
mkdir -p "$USER_OUT/cases" "$COMMITTED/cases"
for side in before after; do
  src=$PWD; [ "$side" = before ] && src=$BEFORE
  PYTHONPATH=$src nice "$PY" scripts/eval_relevance_lang.py --out "$USER_OUT/cases/$side.json"
  cp "$USER_OUT/cases/$side.json" "$COMMITTED/cases/"
done
