#!/bin/bash
# Trust and no-harm tracks: relevance alone, the reranker as shipped before trust fusion
# (today), the current default and two of today's knobs, seed 0, relevance bm25, rank, dense and
# upstream (MiniLM cosine as each document's 0-1 score).
#   dev/:  the dev half of the hand-written sets, plus graded-trec2019 (nDCG) and
#          ragauth-trec2019-resampled (authority filter and the fused top-k), which have no halves;
#   test/: the test half of the hand-written sets (the held-out check: do not tune on it).
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/trust;
# only compare.md and compare.json are copied here. A few CPU minutes on 2 cores (MiniLM embeds
# every page once). Other methods: METHODS=relevance-only,today,default:fusion=rrf bash ...
#   bash benchmarks/results/trust/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
METHODS=${METHODS:-relevance-only,today,default,default:weight=0.7,default:fusion=rrf,weight=0.5}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/trust
COMMITTED=benchmarks/results/trust
for split in dev test; do
  tracks=trust-pairs,no-harm-pairs,no-harm-lists
  if [ "$split" = dev ]; then tracks=$tracks,graded-trec2019,ragauth-trec2019-resampled; fi
  rm -rf "${USER_OUT:?}/$split"
  PYTHONPATH=$PWD .venv/bin/python -m authorag bench compare --methods "$METHODS" --tracks "$tracks" \
    --split "$split" --track-relevance bm25,rank,dense,upstream --rerank-relevance none --seed 0 --out "$USER_OUT/$split"
  mkdir -p "$COMMITTED/$split"
  cp "$USER_OUT/$split/compare.md" "$USER_OUT/$split/compare.json" "$COMMITTED/$split/"
done
