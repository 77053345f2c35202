#!/bin/bash
# The page-evidence tier: per-layer ablation (credibility AUC on the TREC HM 2019 pages no table
# knows, calibration, RAG authority-filter rows, the corroboration experiment), every track of
# `bench compare` for default:page_evidence=false vs the default, and the speed check. Seed 0, every
# model leave-topic-out. About 15 minutes on 2 cores (the corroboration experiment encodes 276
# pages with MiniLM: authorag[embeddings]).
#   bash benchmarks/results/page_evidence/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=benchmarks/results/page_evidence
PY=.venv/bin/python
$PY -m authorag.benchmarks.page_evidence.eval --out "$OUT" --pool
rm -rf "$OUT"/runs
$PY -m authorag bench compare --methods default:page_evidence=false,default \
  --rerank-relevance bm25 --option credibility_weight=0.5 --seed 0 --out "$OUT"
rm -rf "$OUT"/runs
$PY scripts/bench_page_evidence.py --repeats 200 --out "$OUT/speed.json"
