#!/bin/bash
# meaning/: the meaning's own share of the window (policy meaning_on_topic; default None, the
# square root of on_topic: 0.742 at the default 0.55) against the words' share itself
# (meaning_on_topic=0.55, the rule before) and fixed shares 0.7, 0.8, 0.9. Only a relevance that
# judges meaning reads it, so relevance dense and similarity (the same MiniLM cosines handed over
# as scores declared to judge meaning). Δ columns against relevance alone and against the rule before.
#   dev/:  every dev track, the harder no-harm pairs included (where the share was chosen);
#   test/: the test halves, relevance alone, the default and the rule before (never tuned on).
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/trust/meaning;
# compare.md and compare.json are copied here. About 3 minutes on 2 cores. Called by reproduce.sh.
#   bash benchmarks/results/trust/reproduce_meaning.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. benchmarks/results/trust/lib.sh
folders meaning
SHARES=default:meaning_on_topic=0.55,default:meaning_on_topic=0.7,default:meaning_on_topic=0.8,default:meaning_on_topic=0.9
for split in dev test; do
  tracks=trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard
  methods=relevance-only,default,default:meaning_on_topic=0.55
  if [ "$split" = dev ]; then tracks=$tracks,graded-trec2019,ragauth-trec2019-resampled; methods=relevance-only,default,$SHARES; fi
  rm -rf "${USER_OUT:?}/$split"
  PYTHONPATH=$PWD "$PY" -m authorag bench compare --methods "$methods" --tracks "$tracks" --split "$split" \
    --track-relevance dense,similarity --rerank-relevance none --seed 0 \
    --delta-against relevance-only,default:meaning_on_topic=0.55 --out "$USER_OUT/$split"
  keep "$USER_OUT/$split" "$COMMITTED/$split"
done
