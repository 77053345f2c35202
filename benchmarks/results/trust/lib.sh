# Shared by the trust reproduce scripts (sourced after they cd to the repository root).

# folders [NAME]: set USER_OUT (trust/NAME in the user results folder: $AUTHORAG_RESULTS or
# ~/.local/share/authorag/bench), COMMITTED (benchmarks/results/trust/NAME; without NAME, trust
# itself) and PY (.venv's python unless PY is set).
folders() {
  USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/trust${1:+/$1}
  COMMITTED=benchmarks/results/trust${1:+/$1}
  PY=${PY:-$PWD/.venv/bin/python}
}

# dev_compare METHODS OUT: every dev track (the hand-written dev halves, graded-trec2019 and the
# RAG stand-in), relevance bm25, rank, dense and upstream, seed 0, into the user folder OUT.
dev_compare() {
  rm -rf "${2:?}"
  PYTHONPATH=$PWD "$PY" -m authorag bench compare --methods "$1" \
    --tracks trust-pairs,no-harm-pairs,no-harm-lists,graded-trec2019,ragauth-trec2019-resampled --split dev \
    --track-relevance bm25,rank,dense,upstream --rerank-relevance none --seed 0 --out "$2"
}

# keep OUT COMMITTED: copy a run's compare.md and compare.json into the committed folder.
keep() {
  mkdir -p "$2"
  cp "$1/compare.md" "$1/compare.json" "$2/"
}

# experiment NAME SCRIPT: run an experiment script (scripts/eval_*.py, which writes compare.md and
# compare.json to --out) into the user folder trust/NAME, then keep its table in trust/NAME.
experiment() {
  folders "$1"
  mkdir -p "$USER_OUT"
  rm -f "$USER_OUT/compare.md" "$USER_OUT/compare.json"
  PYTHONPATH=$PWD "$PY" "$2" --out "$USER_OUT"
  keep "$USER_OUT" "$COMMITTED"
}
