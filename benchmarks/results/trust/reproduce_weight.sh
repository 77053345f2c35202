#!/bin/bash
# weight/: how much of the order among on-topic candidates trust may decide, and how wide the
# window is. Relevance alone, the default (weight 0.5, on topic 0.55), weights 0.6, 0.7, 0.8, 0.9
# and 1.0 at on topic 0.55, authority alone inside an open window (weight 1.0, on topic 0: every
# candidate on topic, trust decides), and stricter windows (on topic 0.7, 0.8, 0.9 at weight 0.5),
# every track, dev, relevance bm25, rank, dense and upstream. It answers why the default does not
# let trust weigh more (the RAG stand-in's top 1 wants trust, graded nDCG wants relevance) and
# what a stricter window costs (hard/ shows what it protects).
# Runs go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/trust/weight;
# compare.md and compare.json are copied here. Called by reproduce.sh.
#   bash benchmarks/results/trust/reproduce_weight.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. benchmarks/results/trust/lib.sh
folders weight
METHODS=relevance-only,default
for w in 0.6 0.7 0.8 0.9 1.0; do METHODS="$METHODS,default:weight=$w"; done
METHODS="$METHODS,default:weight=1.0,on_topic=0.0"
for o in 0.7 0.8 0.9; do METHODS="$METHODS,default:on_topic=$o"; done
dev_compare "$METHODS" "$USER_OUT"
keep "$USER_OUT" "$COMMITTED"
