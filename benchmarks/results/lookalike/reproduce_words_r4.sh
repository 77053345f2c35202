#!/bin/bash
# Fourth round (names and acronyms of the word list read as names, so any service word claims
# them; a public body named by a common word still claimed only beside an office word): the
# look-alike evaluation (scripts/eval_lookalikes.py, with this checkout's script and lists, so
# every list is measured on every side) before (BEFORE, the branch point), with the rejected
# rule that also claimed a common word beside a phishing-kind service word (REJECTED) and after
# (this checkout); BEFORE and REJECTED run in temporary exports. Then the tracks the change could
# move (trust-pairs-v2, decodex-fr, wikipedia-sources; dev half, seed 0, BM25) after; the before
# of the tracks is tracks_r3/after/dev (the same code's prior and look-alike rules as BEFORE).
# Runs in the user results folder; files go to words_r4/.
#   bash benchmarks/results/lookalike/reproduce_words_r4.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=$(cd "${1:?give the shared data folder}" && pwd)
BEFORE=${BEFORE:-ce4f2f8}
REJECTED=${REJECTED:-27c36ea}
OUT=$PWD/benchmarks/results/lookalike/words_r4
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/lookalike-words-r4
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT/before" "$OUT/rejected" "$OUT/after/dev"
for side in before rejected; do
  rev=$([ "$side" = before ] && echo "$BEFORE" || echo "$REJECTED")
  mkdir "$TMP/$side"
  git archive "$rev" | tar -x -C "$TMP/$side"
  cp scripts/eval_lookalikes.py "$TMP/$side/scripts/"
  cp benchmarks/lookalike/*.csv "$TMP/$side/benchmarks/lookalike/"
  (cd "$TMP/$side" && PYTHONPATH="$TMP/$side" python scripts/eval_lookalikes.py --data-dir "$DATA" --top 1000 \
     --out "$OUT/$side/lookalike.json" > /dev/null)
done
PYTHONPATH="$PWD" python scripts/eval_lookalikes.py --data-dir "$DATA" --top 1000 --out "$OUT/after/lookalike.json" \
  > /dev/null
PYTHONPATH="$PWD" python -m authorag bench tracks --data-dir "$DATA" --split dev --relevance bm25 --seed 0 \
  --tracks trust-pairs-v2,decodex-fr,wikipedia-sources --out "$USER_OUT/after/dev"
cp "$USER_OUT/after/dev/compare.md" "$USER_OUT/after/dev/compare.json" "$OUT/after/dev/"
