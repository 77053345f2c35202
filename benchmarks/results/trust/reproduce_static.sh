#!/bin/bash
# static/: can a torch-free meaning signal (MiniLM distilled to one vector per word piece) cap the
# relevance window as dense relevance does? Relevance alone and the default at the default meaning
# share and stricter ones, with the static cosines of a page's lead (24 word pieces) and of the
# whole page, BM25 as the reference; every dev track (scripts/eval_static_meaning.py). Builds the
# table once into the user results folder (needs the embeddings extra). Not run by reproduce.sh:
# an experiment that lost (README.md, "A meaning signal without a model"). About 5 minutes.
#   bash benchmarks/results/trust/reproduce_static.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. benchmarks/results/trust/lib.sh
experiment static scripts/eval_static_meaning.py
