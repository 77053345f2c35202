#!/bin/bash
# Should page evidence be on by default? Page evidence on against off on every track, both halves
# of the hand-written sets, seed 0 (the decision and what lost where: README.md here).
#   tracks/{dev,test}/          `authorag bench tracks`, BM25, every track, run on a copy of this commit
#                               whose ScorerSettings default has page_evidence=True, so its `default`
#                               column is page evidence on and `page-evidence-off` the baseline;
#   tracks/cascade/{dev,test}/  the three hand-written v2 tracks again with the cascade relevance;
#   compare/{dev,test}/         `authorag bench compare --methods default,default:page_evidence=true`
#                               (Δ = on − off) on the v1 trust and no-harm tracks, and on dev also
#                               graded-trec2019 and ragauth-trec2019-resampled (no halves);
#   eval/                       `scripts/eval_page_evidence.py`: the tier alone, text on an unknown
#                               domain (TREC HM 2019 pages, CoAID, Fake.br; off is a constant, 0.500);
#   reach/                      `scripts/page_evidence_reach.py`: where the tier speaks on the v2 sets
#                               and whether any order changes; the pages it moves with real URLs.
# The shared sets are read from the data folder (first argument, else $AUTHORAG_SHARED_DATA); runs
# go to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/page_evidence_default,
# then compare.md/compare.json (eval: page_evidence_eval.*; reach: page_evidence_reach.*) are copied here. Needs the embeddings
# extra for the cascade rows. About 15 minutes on a shared 2-core machine.
#   bash benchmarks/results/page_evidence/default_study/reproduce.sh /path/to/shared/data
set -euo pipefail
cd "$(dirname "$0")/../../../.."
DATA=${1:-${AUTHORAG_SHARED_DATA:?give the shared data folder as the first argument or in AUTHORAG_SHARED_DATA}}
PY=${PY:-$PWD/.venv/bin/python}
RUNS=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/page_evidence_default
OUT=$PWD/benchmarks/results/page_evidence/default_study
# A copy of this commit with page evidence on by default (the one line that says so, checked).
FLIP=$(mktemp -d)
trap 'rm -rf "$FLIP"' EXIT
git archive HEAD authorag | tar -x -C "$FLIP"
sed -i 's/^    page_evidence: bool = field(default=False,/    page_evidence: bool = field(default=True,/' "$FLIP/authorag/compose.py"
(cd "$FLIP" && PYTHONPATH=$FLIP "$PY" -c "from authorag.compose import ScorerSettings as S; assert S().page_evidence, 'flip failed'")
copy() { mkdir -p "$OUT/$2"; cp "$RUNS/$1"/compare.md "$RUNS/$1"/compare.json "$OUT/$2/"; }
for split in dev test; do
  rm -rf "${RUNS:?}/tracks/$split" "${RUNS:?}/tracks/cascade/$split" "${RUNS:?}/compare/$split"
  (cd "$FLIP" && PYTHONPATH=$FLIP nice "$PY" -m authorag bench tracks --data-dir "$DATA" --split "$split" \
    --relevance bm25 --seed 0 --out "$RUNS/tracks/$split")
  copy "tracks/$split" "tracks/$split"
  (cd "$FLIP" && PYTHONPATH=$FLIP nice "$PY" -m authorag bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
    --split "$split" --relevance cascade --seed 0 --out "$RUNS/tracks/cascade/$split")
  copy "tracks/cascade/$split" "tracks/cascade/$split"
  tracks=trust-pairs,no-harm-pairs,no-harm-lists
  [ "$split" = dev ] && tracks=$tracks,graded-trec2019,ragauth-trec2019-resampled
  PYTHONPATH=$PWD nice "$PY" -m authorag bench compare --methods default,default:page_evidence=true \
    --tracks "$tracks" --split "$split" --track-relevance bm25 --seed 0 --out "$RUNS/compare/$split"
  copy "compare/$split" "compare/$split"
done
PYTHONPATH=$PWD nice "$PY" scripts/eval_page_evidence.py --data-dir "$DATA" --limit 2000 --seed 0 --out "$RUNS/eval"
mkdir -p "$OUT/eval"
cp "$RUNS"/eval/page_evidence_eval.json "$RUNS"/eval/page_evidence_eval.md "$OUT/eval/"
PYTHONPATH=$PWD nice "$PY" scripts/page_evidence_reach.py --data-dir "$DATA" --seed 0 --out "$RUNS/reach"
mkdir -p "$OUT/reach"
cp "$RUNS"/reach/page_evidence_reach.json "$RUNS"/reach/page_evidence_reach.md "$OUT/reach/"
