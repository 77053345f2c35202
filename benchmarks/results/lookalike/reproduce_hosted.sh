#!/bin/bash
# The level of hosted user pages (hosted_authority 0.4, the default, against 0.2 and 0.3), with page
# evidence off as in the default: the v1 rerank tracks (authorag bench compare, method variants, dev
# split) in this checkout, and the v2 tracks (authorag bench tracks, dev, seed 0, BM25) in two
# temporary exports of HEAD, one with DEFAULT_HOSTED_AUTHORITY set to 0.2 (bench tracks has no
# method variants). Files copied to hosted_level/.
#   bash benchmarks/results/lookalike/reproduce_hosted.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATA=$(cd "${1:?give the shared data folder}" && pwd)
OUT=$PWD/benchmarks/results/lookalike/hosted_level
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/lookalike-hosted
mkdir -p "$OUT/v1" "$OUT/v2_hosted_0.4" "$OUT/v2_hosted_0.2"
PYTHONPATH="$PWD" python -m authorag bench compare \
  --methods relevance-only,default,default:hosted_authority=0.2,default:hosted_authority=0.3 \
  --tracks trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard --split dev --track-relevance bm25 --out "$USER_OUT/v1"
cp "$USER_OUT/v1/compare.md" "$USER_OUT/v1/compare.json" "$OUT/v1/"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for level in 0.4 0.2; do
  mkdir -p "$TMP/$level"
  git archive HEAD | tar -x -C "$TMP/$level"
  sed -i "s/^DEFAULT_HOSTED_AUTHORITY = 0.4/DEFAULT_HOSTED_AUTHORITY = $level/" "$TMP/$level/authorag/tiers/tiered.py"
  (cd "$TMP/$level" && PYTHONPATH="$TMP/$level" python -m authorag bench tracks --data-dir "$DATA" --split dev \
     --relevance bm25 --seed 0 --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2,c3-credibility,coaid-covid \
     --out "$USER_OUT/v2_$level")
  cp "$USER_OUT/v2_$level/compare.md" "$USER_OUT/v2_$level/compare.json" "$OUT/v2_hosted_$level/"
done
