#!/bin/bash
# hard/: the harder no-harm pairs (no-harm-hard: the off-topic trusted page shares more of the
# question's words or its subject; not selected by relevance alone being right), dev and test
# halves, relevance alone, the default and stricter on-topic windows (0.7, 0.8, 0.9), relevance
# bm25, rank, dense, upstream and similarity. Runs go to the user results folder
# ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/trust/hard; compare.md and compare.json are
# copied here. About 2 minutes on 2 cores. Called by reproduce.sh.
#   bash benchmarks/results/trust/reproduce_hard.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. benchmarks/results/trust/lib.sh
folders hard
for split in dev test; do
  rm -rf "${USER_OUT:?}/$split"
  PYTHONPATH=$PWD "$PY" -m authorag bench compare \
    --methods relevance-only,default,default:on_topic=0.7,default:on_topic=0.8,default:on_topic=0.9 \
    --tracks no-harm-hard --split "$split" --track-relevance bm25,rank,dense,upstream,similarity \
    --rerank-relevance none --seed 0 --out "$USER_OUT/$split"
  keep "$USER_OUT/$split" "$COMMITTED/$split"
done
