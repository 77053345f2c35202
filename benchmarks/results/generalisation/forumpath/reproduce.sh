#!/bin/bash
# generalisation/forumpath/: forum threads reached by their path are user content
# (authorag.platforms.forum_page) and the window writes "trust orders" only when its relevance is
# equal; before (BASE, the commit before the change) and after (this tree), dev halves only (the
# test halves are read by the lead, never tuned on):
#   {before,after}/{trust_3_cascade,trust_2_cascade,pairs_2_cascade,lists_2_cascade,trust_3_bm25}.txt:
#     `scripts/noharm_dev_rows.py KIND VERSION RELEVANCE` (failing dev rows, then the share held).
# Cascade needs the [embeddings] extra. Runs go to the user results folder
# ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench)/forumpath and are copied here. Sequential
# (a shared 2-core machine).
#   bash benchmarks/results/generalisation/forumpath/reproduce.sh
#   SIDES=after bash benchmarks/results/generalisation/forumpath/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
BASE=${BASE:-a9b1c48}
PY=${PY:-$PWD/.venv/bin/python}
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/forumpath
COMMITTED=$PWD/benchmarks/results/generalisation/forumpath
SIDES=${SIDES:-before after}
BEFORE=$(mktemp -d)
trap 'rm -rf "$BEFORE"' EXIT
git archive "$BASE" authorag scripts | tar -x -C "$BEFORE"

for side in $SIDES; do
  src=$PWD; [ "$side" = before ] && src=$BEFORE
  mkdir -p "$USER_OUT/$side" "$COMMITTED/$side"
  for args in "trust 3 cascade" "trust 2 cascade" "pairs 2 cascade" "lists 2 cascade" "trust 3 bm25"; do
    name=${args// /_}.txt
    # shellcheck disable=SC2086  # the three arguments are split on purpose
    (cd "$src" && PYTHONPATH=$src nice "$PY" -P scripts/noharm_dev_rows.py $args) > "$USER_OUT/$side/$name"
    cp "$USER_OUT/$side/$name" "$COMMITTED/$side/$name"
  done
done
