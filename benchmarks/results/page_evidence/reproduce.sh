#!/bin/bash
# Page evidence (opt-in): the held-out evaluation (TREC HM 2019 pages, CoAID, Fake.br; text alone on
# an unknown domain), every trust track of `bench compare` with page evidence on against the default
# (off), and the speed check. Seed 0. Needs the shared data folder (DATA, default /work/shared/data)
# for CoAID and Fake.br; runs write to the user results folder, then the files are copied here.
#   bash benchmarks/results/page_evidence/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=benchmarks/results/page_evidence
DATA=${DATA:-/work/shared/data}
RUNS=${AUTHORAG_RESULTS:-$HOME/.local/share/authorag/bench}/page_evidence
PY=.venv/bin/python
$PY scripts/eval_page_evidence.py --data-dir "$DATA" --limit 2000 --seed 0 --out "$RUNS"
cp "$RUNS"/page_evidence_eval.json "$RUNS"/page_evidence_eval.md "$OUT"/
$PY -m authorag bench compare --methods default:page_evidence=true,default \
  --tracks trust-pairs,no-harm-pairs,no-harm-lists,graded-trec2019,ragauth-trec2019-resampled \
  --split test --track-relevance bm25 --seed 0 --out "$RUNS/compare"
cp "$RUNS"/compare/compare.md "$RUNS"/compare/compare.json "$OUT"/
$PY -m authorag bench compare --methods default:page_evidence=true,default \
  --tracks trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
  --split test --track-relevance bm25 --seed 0 --out "$RUNS/compare_v2"
cp "$RUNS"/compare_v2/compare.md "$OUT"/compare_v2.md
cp "$RUNS"/compare_v2/compare.json "$OUT"/compare_v2.json
# Speed: this tier and the tier before the rebuild (commit 2705fe9, a temporary worktree), run at
# the same time so that the machine's load hits both alike; the target compares their added cost.
PREV=$(mktemp -d)/prev
git worktree add --detach "$PREV" 2705fe9 >/dev/null
(cd "$PREV" && PYTHONPATH=$PWD "$OLDPWD/$PY" scripts/bench_page_evidence.py --repeats 100 --out "$RUNS/speed_previous.json") &
$PY scripts/bench_page_evidence.py --repeats 100 --out "$RUNS/speed.json"
wait
git worktree remove --force "$PREV"
cp "$RUNS"/speed.json "$RUNS"/speed_previous.json "$OUT"/
