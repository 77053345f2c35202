#!/bin/bash
# Third round (look-alike targets from the registries and lists under government suffixes, brand
# beside a country code): every track of authorag bench tracks (seed 0, BM25) on the halves in
# SPLITS (default: dev, then test), the URL-only trust pairs (scripts/url_trust_pairs.py) and the
# look-alike evaluation (scripts/eval_lookalikes.py, with this checkout's script and legit lists),
# before (BEFORE, the branch point, in a temporary export) and after (this checkout).
# Runs in the user results folder; the files are copied to tracks_r3/<before|after>/.
#   bash benchmarks/results/lookalike/reproduce_tracks_r3.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=$(cd "${1:?give the shared data folder}" && pwd)
BEFORE=${BEFORE:-8d1f0e3}
SPLITS=${SPLITS:-dev test}
OUT=$PWD/benchmarks/results/lookalike/tracks_r3
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/lookalike-tracks-r3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
git archive "$BEFORE" | tar -x -C "$TMP"
cp scripts/url_trust_pairs.py scripts/eval_lookalikes.py "$TMP/scripts/"
cp benchmarks/lookalike/legit_institution_words_v1.csv "$TMP/benchmarks/lookalike/"
for split in $SPLITS; do
  (cd "$TMP" && PYTHONPATH="$TMP" python -m authorag bench tracks --data-dir "$DATA" --split "$split" --relevance bm25 \
     --seed 0 --out "$USER_OUT/before/$split")
  PYTHONPATH="$PWD" python -m authorag bench tracks --data-dir "$DATA" --split "$split" --relevance bm25 --seed 0 \
     --out "$USER_OUT/after/$split"
  for when in before after; do
    mkdir -p "$OUT/$when/$split"
    cp "$USER_OUT/$when/$split/compare.md" "$USER_OUT/$when/$split/compare.json" "$OUT/$when/$split/"
  done
done
mkdir -p "$OUT/before" "$OUT/after"
(cd "$TMP" && PYTHONPATH="$TMP" python scripts/url_trust_pairs.py --out "$OUT/before/url_trust_pairs.json" > /dev/null)
PYTHONPATH="$PWD" python scripts/url_trust_pairs.py --out "$OUT/after/url_trust_pairs.json" > /dev/null
(cd "$TMP" && PYTHONPATH="$TMP" python scripts/eval_lookalikes.py --data-dir "$DATA" --top 1000 \
   --out "$OUT/before/lookalike.json" > /dev/null)
cp benchmarks/results/lookalike/lookalike.json "$OUT/after/lookalike.json"
