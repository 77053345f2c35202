#!/bin/bash
# Trust and no-harm tracks: relevance alone, the reranker as it shipped before trust fusion
# ("today", computed by that commit's own code), the current default and the alternatives the
# design was chosen over; seed 0; relevance bm25, rank, dense and upstream (MiniLM cosine handed
# over as each document's 0-1 score).
#   dev/:  the dev half of the hand-written sets, plus graded-trec2019 (nDCG) and
#          ragauth-trec2019-resampled (authority filter and the fused top-k), which have no halves;
#   test/: the test half of the hand-written sets (the held-out check: never tuned on);
#   grid/: dev only, source-signal weight x on-topic share around the default (how it was chosen);
#   similarity/: relevance "similarity" (upstream cosines declared to judge meaning), dev and test.
#   lead/: dense relevance reading 64, 128 (the default) or all 256 tokens of each page, dev
#          (reproduce_lead.sh, run at the end).
#   weight/: weight 0.5 to 1.0 at on topic 0.55, and authority alone, dev (reproduce_weight.sh, run at the end).
#   hard/: the harder no-harm pairs, dev and test (reproduce_hard.sh, run at the end).
#   meaning/: the meaning's own share of the window, dense and similarity relevance, dev and test
#          (reproduce_meaning.sh, run at the end).
#   relevance/: BM25 against dense as the relevance the default computes, paired on the same units,
#          dev and test (reproduce_relevance.sh, run at the end).
# "today" runs in a temporary git worktree of $BEFORE (the last commit before trust fusion) and
# is imported (`bench compare --import-method`), so it is the old code's own answer, prior
# sources and policy included. Runs go to the user results folder
# ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/trust; only compare.md and compare.json
# are copied here. About 40 CPU minutes on 2 cores.
#   bash benchmarks/results/trust/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
BEFORE=${BEFORE:-6149c2b}
ALTERNATIVES="default:fusion=linear,default:fusion=prior,default:fusion=rrf,default:weight=0.3,default:weight=0.7"
ALTERNATIVES="$ALTERNATIVES,default:on_topic=0.5,default:on_topic=0.7,default:weight=0.4,on_topic=0.6"
ALTERNATIVES="$ALTERNATIVES,default:signal=blend,default:page_evidence=false"
METHODS=${METHODS:-relevance-only,today,default,$ALTERNATIVES}
. benchmarks/results/trust/lib.sh
folders
OLD=$(mktemp -d)
trap 'git worktree remove --force "$OLD/tree" >/dev/null 2>&1 || true; rm -rf "$OLD"' EXIT
git worktree add --detach "$OLD/tree" "$BEFORE" >/dev/null
for split in dev test; do
  tracks=trust-pairs,no-harm-pairs,no-harm-lists
  if [ "$split" = dev ]; then tracks=$tracks,graded-trec2019,ragauth-trec2019-resampled; fi
  common=(--tracks "$tracks" --split "$split" --track-relevance bm25,rank,dense,upstream --rerank-relevance none --seed 0)
  rm -rf "${USER_OUT:?}/before/$split" "${USER_OUT:?}/$split"
  (cd "$OLD/tree" && PYTHONPATH=$PWD "$PY" -m authorag bench compare --methods today "${common[@]}" \
    --out "$USER_OUT/before/$split")
  PYTHONPATH=$PWD "$PY" -m authorag bench compare --methods "$METHODS" "${common[@]}" \
    --import-method "today=$USER_OUT/before/$split" --delta-against relevance-only,today --out "$USER_OUT/$split"
  keep "$USER_OUT/$split" "$COMMITTED/$split"
done
# similarity/: relevance "similarity" (the same MiniLM cosines handed over as upstream scores,
# declared to judge meaning), which the pre-trust code does not know: relevance alone and the
# default only, every track, dev and test.
for split in dev test; do
  tracks=trust-pairs,no-harm-pairs,no-harm-lists
  if [ "$split" = dev ]; then tracks=$tracks,graded-trec2019,ragauth-trec2019-resampled; fi
  rm -rf "${USER_OUT:?}/similarity/$split"
  PYTHONPATH=$PWD "$PY" -m authorag bench compare --methods relevance-only,default --tracks "$tracks" --split "$split" \
    --track-relevance upstream,similarity --rerank-relevance none --seed 0 --out "$USER_OUT/similarity/$split"
  keep "$USER_OUT/similarity/$split" "$COMMITTED/similarity/$split"
done
GRID=relevance-only
for w in 0.2 0.3 0.4 0.5; do for o in 0.5 0.55 0.6 0.7; do GRID="$GRID,default:weight=$w,on_topic=$o"; done; done
dev_compare "$GRID" "$USER_OUT/grid"
keep "$USER_OUT/grid" "$COMMITTED/grid"
# lead/: dense relevance reading 64, 128 (the default) or all 256 tokens of each page.
bash benchmarks/results/trust/reproduce_lead.sh
# weight/: how much trust may weigh among on-topic candidates.
bash benchmarks/results/trust/reproduce_weight.sh
# hard/: the harder no-harm pairs.
bash benchmarks/results/trust/reproduce_hard.sh
# meaning/: the meaning's own share of the window.
bash benchmarks/results/trust/reproduce_meaning.sh
# relevance/: BM25 against dense as the relevance the default computes.
bash benchmarks/results/trust/reproduce_relevance.sh
