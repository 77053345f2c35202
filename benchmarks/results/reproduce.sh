#!/usr/bin/env bash
# Reproduce every number in benchmarks/results/report.md.
#   bash benchmarks/results/reproduce.sh cheap   # priors, learned, hybrid, bounds, references (minutes)
#   bash benchmarks/results/reproduce.sh llm     # local 1.5B judge rows on samples (about an hour on 2 CPUs)
#   bash benchmarks/results/reproduce.sh llm2    # list/pair/with-text judges, LLM RAG filters (about 45 min)
#   bash benchmarks/results/reproduce.sh suite   # AuthorityBench suite, paper protocol, local model (see SUITE below)
#   bash benchmarks/results/reproduce.sh report  # tables + plots from the results folders
#   bash benchmarks/results/reproduce.sh tracks  # comparison tracks x methods -> benchmarks/results/tracks/compare.md (~10 min)
# This script is the only writer of benchmarks/results/: it passes --out and --overwrite explicitly.
# A bench run without --out writes to the user results folder ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
A=${AUTHORAG:-.venv/bin/authorag}
OUT=benchmarks/results/runs
RANK_TASKS="domainauth-web-fine domainauth-web-coarse domainauth-news-fine domainauth-news-coarse credauth-mbfc credauth-baly"
ENTITY_TASKS="entityauth-basketball-fine entityauth-basketball-coarse entityauth-movies-fine entityauth-movies-coarse entityauth-songs-fine entityauth-songs-coarse"
N="--lists 500 --pairs 500 --seed 0 --quiet --overwrite --out $OUT"

cheap() {
  for t in $RANK_TASKS; do
    for m in oracle random prior learned hybrid; do $A bench run --task "$t" --method "$m" $N >/dev/null; done
  done
  for t in credauth-mbfc credauth-baly; do
    for m in prior-cred chatgpt-yang2023; do $A bench run --task "$t" --method "$m" $N >/dev/null; done
  done
  for t in $ENTITY_TASKS; do
    for m in oracle random; do $A bench run --task "$t" --method "$m" $N >/dev/null; done
  done
  rag
}

rag() {
  R="--task ragauth-trec2019 --seed 0 --quiet --overwrite --out $OUT"
  for m in oracle random learned hybrid; do $A bench run $R --method "$m" >/dev/null; done
  # credibility blend of the authority signal (RerankPolicy.credibility_weight)
  for cw in 0 0.5 1; do
    $A bench run $R --method prior --option credibility_weight=$cw --tag cw$cw >/dev/null
  done
  $A bench run $R --method prior --relevance dense --tag dense >/dev/null
}

llm() {
  # Local Qwen2.5-Coder-1.5B point judge (expected digit from logprobs), judge cache on.
  L="--backend local --seed 0 --quiet --overwrite --out $OUT"
  $A bench run --task credauth-baly --method judge-point-score --lists 10 --pairs 20 $L >/dev/null
  $A bench run --task domainauth-news-fine --method judge-point-score --lists 10 --pairs 20 $L >/dev/null
  $A bench run --task domainauth-web-fine --method judge-point-score --lists 10 --pairs 20 $L >/dev/null
  $A bench run --task credauth-mbfc --method judge-point-score --lists 10 --pairs 20 $L >/dev/null
  $A bench run --task entityauth-movies-fine --method judge-point-score --lists 10 --pairs 20 $L >/dev/null
  $A bench run --task domainauth-news-fine --method hybrid-judge --lists 10 --pairs 20 $L >/dev/null
}

llm2() {
  # More judge forms.
  L="--backend local --seed 0 --quiet --overwrite --out $OUT"
  $A bench run --task domainauth-news-fine --method judge-list-score --lists 10 --pairs 20 $L >/dev/null
  $A bench run --task credauth-baly --method judge-pair-score --lists 10 --pairs 20 $L >/dev/null
  # RAGAuth with LLM filters and a generator: see suite() (the paper's protocol)
}

suite() {
  # The paper's tables with the local 1.5B model, at a size that fits 2 shared CPUs: DomainAuth-web
  # fine with the point judge on 50 lists, the other judge forms on 5 lists, 20 + 20 PE pairs,
  # RAGAuth on 2 instances. Resumable: conditions with a result.json are skipped (delete the
  # folder to re-measure); the judge cache replays calls already made.
  $A bench suite paper --backend local --lists 50 --group-lists 5 --pairs 20 --instances 2 \
    --only domainauth-web-fine --only ragauth --out benchmarks/results/suite-paper
}

tracks() {
  # One comparison table (markdown + JSON, bootstrap CIs) of every comparison track, plus the
  # rerank-mode grid on ragauth-trec2019-resampled with BM25 and dense relevance.
  rm -rf benchmarks/results/tracks/runs  # compare re-creates its per-run folders (bench run never overwrites)
  $A bench compare --methods "${TRACK_METHODS:-table-const,table-learned,hybrid}" --rerank-relevance bm25,dense \
    --lists 500 --pairs 500 --seed 0 --out benchmarks/results/tracks >/dev/null
}

report() { $A bench report --results $OUT --out benchmarks/results; }

"${1:-cheap}"
