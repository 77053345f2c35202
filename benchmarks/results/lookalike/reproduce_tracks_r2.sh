#!/bin/bash
# Second round (hijacked source, municipalities, leave-source-out look-alike targets): the fast
# tracks of authorag bench tracks (trust-pairs-v2, no-harm-pairs-v2, rerank-lists-v2, decodex-fr;
# seed 0, BM25) on the dev and test halves, and the URL-only trust pairs (scripts/url_trust_pairs.py),
# before (BEFORE, the branch point, in a temporary export) and after (this checkout).
# Runs in the user results folder; the files are copied to tracks_r2/<before|after>/<split>/.
#   bash benchmarks/results/lookalike/reproduce_tracks_r2.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=$(cd "${1:?give the shared data folder}" && pwd)
BEFORE=${BEFORE:-2e1251b}
OUT=$PWD/benchmarks/results/lookalike/tracks_r2
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/lookalike-tracks-r2
TRACKS=trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2,decodex-fr
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
git archive "$BEFORE" | tar -x -C "$TMP"
cp scripts/url_trust_pairs.py "$TMP/scripts/"
for split in dev test; do
  (cd "$TMP" && PYTHONPATH="$TMP" python -m authorag bench tracks --data-dir "$DATA" --split "$split" --relevance bm25 \
     --seed 0 --tracks "$TRACKS" --out "$USER_OUT/before/$split")
  PYTHONPATH="$PWD" python -m authorag bench tracks --data-dir "$DATA" --split "$split" --relevance bm25 --seed 0 \
     --tracks "$TRACKS" --out "$USER_OUT/after/$split"
  for when in before after; do
    mkdir -p "$OUT/$when/$split"
    cp "$USER_OUT/$when/$split/compare.md" "$USER_OUT/$when/$split/compare.json" "$OUT/$when/$split/"
  done
done
# the Wikipedia track leaves out both Wikipedia sources: with them its look-alike targets (dev half)
(cd "$TMP" && PYTHONPATH="$TMP" python -m authorag bench tracks --data-dir "$DATA" --split dev --relevance bm25 \
   --seed 0 --tracks wikipedia-sources --out "$USER_OUT/before/dev_wikipedia")
PYTHONPATH="$PWD" python -m authorag bench tracks --data-dir "$DATA" --split dev --relevance bm25 --seed 0 \
   --tracks wikipedia-sources --out "$USER_OUT/after/dev_wikipedia"
for when in before after; do
  mkdir -p "$OUT/$when/dev_wikipedia"
  cp "$USER_OUT/$when/dev_wikipedia/compare.md" "$USER_OUT/$when/dev_wikipedia/compare.json" "$OUT/$when/dev_wikipedia/"
done
(cd "$TMP" && PYTHONPATH="$TMP" python scripts/url_trust_pairs.py --out "$OUT/before/url_trust_pairs.json" > /dev/null)
PYTHONPATH="$PWD" python scripts/url_trust_pairs.py --out "$OUT/after/url_trust_pairs.json" > /dev/null
