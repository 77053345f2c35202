#!/bin/bash
# lead/: how many tokens of each page dense relevance should read (DenseRelevance(max_tokens=...)):
# 64, 128 (the product's default, LEAD_TOKENS) and the model's own window of 256 (full), for
# relevance alone and the default, every track, dev (the hand-written pages fit in 128 tokens, so
# the test half is the same at 128 and full: test/ did not change with the lead). Runs go to the user results
# folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/trust/lead; compare.md and
# compare.json are copied here. About 12 minutes on 2 cores. Called by reproduce.sh.
#   bash benchmarks/results/trust/reproduce_lead.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. benchmarks/results/trust/lib.sh
folders lead
for tokens in 64 128 full; do
  rm -rf "${USER_OUT:?}/$tokens"
  PYTHONPATH=$PWD "$PY" -m authorag bench compare --methods relevance-only,default \
    --tracks trust-pairs,no-harm-pairs,no-harm-lists,graded-trec2019,ragauth-trec2019-resampled --split dev \
    --track-relevance dense --dense-max-tokens "$tokens" --rerank-relevance none --seed 0 --out "$USER_OUT/$tokens"
  keep "$USER_OUT/$tokens" "$COMMITTED/$tokens"
done
