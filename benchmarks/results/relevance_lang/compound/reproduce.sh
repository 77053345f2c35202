#!/bin/bash
# relevance_lang/compound/: German compound heads and zu-infinitives in the lexical path, before
# (BASE, the commit before the change) and after (this tree), one split at a time:
#   {before,after}/SPLIT/v2-cascade: `bench tracks` trust-pairs-v2, no-harm-pairs-v2, rerank-lists-v2, cascade relevance;
#   {before,after}/SPLIT/v2-bm25:    the same tracks, BM25 relevance;
#   {before,after}/SPLIT/v1:         `bench compare` on the English v1 tracks trust-pairs, no-harm-pairs,
#                                    no-harm-lists (relevance-only and default, BM25 and dense relevance).
# The dev half chose the rule; the test half is read once, for the report. Runs go to the user results
# folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/relevance_lang/compound; compare.md and
# compare.json are copied here. Then scripts/compare_tracks.py checks that every English row is identical.
#   SPLIT=dev bash benchmarks/results/relevance_lang/compound/reproduce.sh
#   SPLIT=test bash benchmarks/results/relevance_lang/compound/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BASE=${BASE:-e40823e}
SPLIT=${SPLIT:-dev}
SIDES=${SIDES:-before after}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_lang/compound
COMMITTED=benchmarks/results/relevance_lang/compound
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag | tar -x -C "$BEFORE"

# keep OUT: copy a run's compare files from the user folder to the committed one
keep() {
  mkdir -p "$COMMITTED/${1#"$USER_OUT"/}"
  cp "$1/compare.md" "$1/compare.json" "$COMMITTED/${1#"$USER_OUT"/}/"
}

for side in $SIDES; do
  src=$PWD; [ "$side" = before ] && src=$BEFORE
  out=$USER_OUT/$side/$SPLIT
  for rel in cascade bm25; do
    rm -rf "${out:?}/v2-$rel"
    PYTHONPATH=$src nice "$PY" -P -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
      --split "$SPLIT" --relevance "$rel" --seed 0 --out "$out/v2-$rel"
    keep "$out/v2-$rel"
  done
  rm -rf "${out:?}/v1"
  PYTHONPATH=$src nice "$PY" -P -m authorag bench compare --methods relevance-only,default \
    --tracks trust-pairs,no-harm-pairs,no-harm-lists --split "$SPLIT" --track-relevance bm25,dense \
    --rerank-relevance none --seed 0 --out "$out/v1"
  keep "$out/v1"
done

# what moved, per table and method; English rows (v2 "lang en", every v1 row) must be identical
if [ "$SIDES" = "before after" ] || [ -d "$COMMITTED/before/$SPLIT" ]; then
  {
    for run in v2-cascade v2-bm25 v1; do
      same='lang en'; [ "$run" = v1 ] && same='.'
      for method in default relevance-only; do
        echo "### $run, $method"; echo
        "$PY" scripts/diff_compare.py "$COMMITTED/before/$SPLIT/$run/compare.json" \
          "$COMMITTED/after/$SPLIT/$run/compare.json" --method "$method" --same "$same"
        echo
      done
    done
  } > "$COMMITTED/diff_$SPLIT.md"
fi
