#!/bin/bash
# passages/: does dense relevance that reads more of a long page (the best cosine of its first
# 1, 2, 4 or 8 passages of 90 words, passage-max) let trust decide on the RAG stand-in's long pages
# as BM25 does, and keep the no-harm pairs at 1.00 as the lead does? Relevance alone and the
# default, every dev track (scripts/eval_dense_passages.py), BM25 and the product's dense lead as
# references. Not run by reproduce.sh: an experiment that lost (README.md, "Reading more of a
# long page"). Needs the embeddings extra. About 3 minutes on 2 cores.
#   bash benchmarks/results/trust/reproduce_passages.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. benchmarks/results/trust/lib.sh
experiment passages scripts/eval_dense_passages.py
