#!/bin/bash
# relevance_lang/decompound/: German query compounds split into their parts, before (BASE, the commit
# before the change, `git archive`) and after (this tree). Dev halves only:
#   rows/{before,after}/KIND{2,3}-REL.txt: scripts/noharm_dev_rows.py KIND {2|3} REL for KIND in trust,
#       pairs, lists and REL in cascade, bm25 (the failing dev rows and the share held);
#   v1/{before,after}/: `bench compare --methods default` on the v1 dev tracks (English), BM25 and cascade;
#   dev_splits.txt: the German dev queries whose compounds split (dev_splits.py);
#   cost/{before,after}_{de,de-split,en}_{1,2}.json: scripts/bench_lexical_words.py --scorer bm25 (CPU ms
#       of BM25 relevance per request of 20 new ~200-word pages), before, after, before, after.
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/relevance_lang/decompound;
# the files above are copied here.
#   bash benchmarks/results/relevance_lang/decompound/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BASE=${BASE:-e5f1e04}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_lang/decompound
COMMITTED=benchmarks/results/relevance_lang/decompound
SPLIT_QUERY="Hilft Harnwegssaft gegen Blasenbakterien?"  # both compounds' parts are words of the pages
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"

for side in before after; do
  src=$PWD; [ "$side" = before ] && src=$BEFORE
  mkdir -p "$USER_OUT/rows/$side" "$COMMITTED/rows/$side" "$COMMITTED/v1/$side"
  for rel in cascade bm25; do
    for kind in trust pairs lists; do
      for v in 2 3; do
        PYTHONPATH=$src nice "$PY" -P scripts/noharm_dev_rows.py "$kind" "$v" "$rel" > "$USER_OUT/rows/$side/$kind$v-$rel.txt"
      done
    done
  done
  cp "$USER_OUT/rows/$side/"*.txt "$COMMITTED/rows/$side/"
  rm -rf "${USER_OUT:?}/v1/$side"
  PYTHONPATH=$src nice "$PY" -P -m authorag bench compare --methods default \
    --tracks trust-pairs,no-harm-pairs,no-harm-hard,no-harm-lists --track-relevance bm25,cascade \
    --rerank-relevance none --split dev --seed 0 --out "$USER_OUT/v1/$side"
  cp "$USER_OUT/v1/$side/compare.md" "$USER_OUT/v1/$side/compare.json" "$COMMITTED/v1/$side/"
done
PYTHONPATH=$PWD "$PY" -P "$COMMITTED/dev_splits.py" > "$COMMITTED/dev_splits.txt"

mkdir -p "$USER_OUT/cost" "$COMMITTED/cost"
for pass in 1 2; do
  for side in before after; do
    src=$PWD; [ "$side" = before ] && src=$BEFORE
    for run in de de-split en; do
      lang=${run%-split}; query=(); [ "$run" = de-split ] && query=(--query "$SPLIT_QUERY")
      PYTHONPATH=$src nice "$PY" -P scripts/bench_lexical_words.py --language "$lang" --scorer bm25 "${query[@]}" \
        --json "$USER_OUT/cost/${side}_${run}_$pass.json"
    done
  done
done
cp "$USER_OUT/cost/"*.json "$COMMITTED/cost/"
