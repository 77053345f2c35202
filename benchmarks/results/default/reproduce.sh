#!/bin/bash
# Choosing the default composition. Table + constant (the baseline) vs the default
# (reserved > hosted > prior) and its variants on every comparison track (and source_type_adjust), leave-source-out, seed 0,
# 500 LE lists, credibility_weight 0.5 (the reranker's default blend). About 35 CPU seconds.
#   bash benchmarks/results/default/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=benchmarks/results/default
rm -rf "$OUT"/runs
.venv/bin/python -m authorag bench compare \
  --methods table-const,default,default:hosted_authority=0.2,default:hosted_authority=0.3,default:hosted_authority=0.5,default:subdomains=discount,default:hosted=false,default:reserved=false,default:source_type_adjust=true \
  --rerank-relevance none --option credibility_weight=0.5 --seed 0 --out "$OUT"
rm -rf "$OUT"/runs
