#!/bin/bash
# relevance/: which relevance the default should compute when the caller gives only texts (the
# CLI's `rerank` and the server; BM25 today): the default and relevance alone with each relevance
# pinned (`default:relevance=bm25`, `default:relevance=dense`), paired row by row on the same
# units, so Δ columns compare dense against BM25 alone and against the default with BM25.
#   dev/:  every dev track (the hand-written dev halves, graded-trec2019, the RAG stand-in);
#   test/: the test halves of the hand-written sets.
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/trust/relevance;
# compare.md and compare.json are copied here. Called by reproduce.sh.
#   bash benchmarks/results/trust/reproduce_relevance.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. benchmarks/results/trust/lib.sh
folders relevance
methods=relevance-only:relevance=bm25,default:relevance=bm25,default:relevance=dense,relevance-only:relevance=dense
for split in dev test; do
  tracks=trust-pairs,no-harm-pairs,no-harm-hard,no-harm-lists
  if [ "$split" = dev ]; then tracks=$tracks,graded-trec2019,ragauth-trec2019-resampled; fi
  rm -rf "${USER_OUT:?}/$split"
  PYTHONPATH=$PWD "$PY" -m authorag bench compare --methods "$methods" --tracks "$tracks" --split "$split" \
    --rerank-relevance none --seed 0 \
    --delta-against relevance-only:relevance=bm25,default:relevance=bm25 --out "$USER_OUT/$split"
  keep "$USER_OUT/$split" "$COMMITTED/$split"
done
