#!/bin/bash
# Should page evidence be on by default, and with which upward lift? Page evidence on against off,
# seed 0, for three variants of the lift (authorag.evidence.tier.LIFT_FAMILIES, the high cue families
# that may lift a page above the unknown level):
#   lift-all      attribution and sources (the families of authorag.evidence.text.HIGH_FAMILIES);
#   no-lift       none: the tier only lowers a page on a present low cue, or abstains;
#   sources-only  named studies and sources, not attributed statements.
# Each variant runs on a copy of this commit whose ScorerSettings default has page_evidence=True and
# whose LIFT_FAMILIES is the variant's (the two lines that say so, checked). Per variant and split:
#   <variant>/tracks/<split>/          `authorag bench tracks`, BM25: the hand-written v2 and v3 tracks
#                                      (their halves) and Fake.br and CoAID (their halves by registrable
#                                      domain, shared_sets.domain_half); lift-all adds the URL-only
#                                      tracks (C3, Décodex, Wikipedia lists), which no lift can move
#                                      (the high cues are read from text only, and these have none);
#   <variant>/tracks/cascade/<split>/  the three hand-written v2 tracks with the cascade relevance (lift-all,
#                                      or every variant with CASCADE=1: about 10 minutes a run here; a
#                                      variant only takes lifts away, and on the dev half lift-all lifts
#                                      no v2 page: moves/ and reach/);
#   <variant>/compare/<split>/         `authorag bench compare --methods default:page_evidence=false,default`
#                                      (Δ = on − off) on the v1 trust and no-harm tracks (their halves),
#                                      plus, on dev, graded-trec2019 and ragauth-trec2019-resampled
#                                      (no halves: read whole, on dev only).
#   moves/<split>/                     scripts/page_evidence_moves.py on this commit: which cues move which
#                                      CoAID and Fake.br pages of the half, which way (the diagnosis).
# Decide on dev (SPLITS=dev), read test once afterwards (SPLITS=test). The shared sets are read
# from the data folder (first argument, else $AUTHORAG_SHARED_DATA); runs go to the user results
# folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/page_evidence_default, then
# compare.md/compare.json are copied here. Needs the embeddings extra for the cascade rows.
#   SPLITS=dev VARIANTS="lift-all no-lift sources-only" bash benchmarks/results/page_evidence/default_study/reproduce.sh /path/to/shared/data
# EVAL=1 also runs scripts/eval_page_evidence.py and scripts/page_evidence_reach.py on this commit
# (eval/, reach/: the tier alone, text on an unknown domain; where it speaks on the v2 sets).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
DATA=${1:-${AUTHORAG_SHARED_DATA:?give the shared data folder as the first argument or in AUTHORAG_SHARED_DATA}}
PY=${PY:-$PWD/.venv/bin/python}
RUNS=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/page_evidence_default
OUT=$PWD/benchmarks/results/page_evidence/default_study
SPLITS=${SPLITS:-dev test}
VARIANTS=${VARIANTS:-lift-all no-lift sources-only}
FLIP=$(mktemp -d)
trap 'rm -rf "$FLIP"' EXIT
copy() { mkdir -p "$OUT/$2"; cp "$RUNS/$1"/compare.md "$RUNS/$1"/compare.json "$OUT/$2/"; }
families() {
  case $1 in
    lift-all) echo 'frozenset(HIGH_FAMILIES)' ;;
    no-lift) echo 'frozenset[str]()' ;;
    sources-only) echo 'frozenset({"sources"})' ;;
    *) echo "unknown variant $1 (lift-all, no-lift, sources-only)" >&2; exit 2 ;;
  esac
}
flip() {  # $1 variant: a copy of this commit with page evidence on and the variant's lift families
  rm -rf "${FLIP:?}"/*
  git archive HEAD authorag | tar -x -C "$FLIP"
  sed -i 's/^    page_evidence: bool = field(default=False,/    page_evidence: bool = field(default=True,/' "$FLIP/authorag/compose.py"
  sed -i "s/^LIFT_FAMILIES: frozenset\[str\] = .*/LIFT_FAMILIES: frozenset[str] = $(families "$1")/" "$FLIP/authorag/evidence/tier.py"
  (cd "$FLIP" && PYTHONPATH=$FLIP "$PY" -c "
from authorag.compose import ScorerSettings as S
from authorag.evidence.tier import LIFT_FAMILIES as L
assert S().page_evidence, 'flip failed'
assert L == {'lift-all': {'attribution', 'sources'}, 'no-lift': set(), 'sources-only': {'sources'}}['$1'], L")
}
run() { (cd "$FLIP" && PYTHONPATH=$FLIP nice "$PY" -m authorag "$@"); }
for split in $SPLITS; do
  PYTHONPATH=$PWD nice "$PY" scripts/page_evidence_moves.py --data-dir "$DATA" --split "$split" --seed 0 \
    --out "$RUNS/moves/$split"
  mkdir -p "$OUT/moves/$split"
  cp "$RUNS/moves/$split"/page_evidence_moves.json "$RUNS/moves/$split"/page_evidence_moves.md "$OUT/moves/$split/"
done
for variant in $VARIANTS; do
  flip "$variant"
  for split in $SPLITS; do
    V=$variant
    rm -rf "${RUNS:?}/$V/tracks/$split" "${RUNS:?}/$V/tracks/cascade/$split" "${RUNS:?}/$V/compare/$split"
    tracks=trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2,trust-pairs-v3,no-harm-pairs-v3,rerank-lists-v3,fakebr-pt,coaid-covid
    [ "$variant" = lift-all ] && tracks=$tracks,c3-credibility,decodex-fr,wikipedia-sources
    run bench tracks --tracks "$tracks" --data-dir "$DATA" --split "$split" --relevance bm25 --seed 0 \
      --out "$RUNS/$V/tracks/$split"
    copy "$V/tracks/$split" "$V/tracks/$split"
    if [ "$variant" = lift-all ] || [ "${CASCADE:-0}" = 1 ]; then
      run bench tracks --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 --split "$split" --relevance cascade \
        --seed 0 --out "$RUNS/$V/tracks/cascade/$split"
      copy "$V/tracks/cascade/$split" "$V/tracks/cascade/$split"
    fi
    tracks=trust-pairs,no-harm-pairs,no-harm-lists
    [ "$split" = dev ] && tracks=$tracks,graded-trec2019,ragauth-trec2019-resampled
    run bench compare --methods default:page_evidence=false,default --tracks "$tracks" --split "$split" \
      --track-relevance bm25 --seed 0 --out "$RUNS/$V/compare/$split"
    copy "$V/compare/$split" "$V/compare/$split"
  done
done
if [ "${EVAL:-0}" = 1 ]; then
  PYTHONPATH=$PWD nice "$PY" scripts/eval_page_evidence.py --data-dir "$DATA" --limit 2000 --seed 0 --out "$RUNS/eval"
  mkdir -p "$OUT/eval"
  cp "$RUNS"/eval/page_evidence_eval.json "$RUNS"/eval/page_evidence_eval.md "$OUT/eval/"
  PYTHONPATH=$PWD nice "$PY" scripts/page_evidence_reach.py --data-dir "$DATA" --seed 0 --out "$RUNS/reach"
  mkdir -p "$OUT/reach"
  cp "$RUNS"/reach/page_evidence_reach.json "$RUNS"/reach/page_evidence_reach.md "$OUT/reach/"
fi
