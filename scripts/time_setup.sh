#!/usr/bin/env bash
# Time the first README command's set-up on a fresh copy of the checkout: `scripts/setup.sh`
# (every extra, no judge model: what `bash scripts/demo.sh` runs) into a new .venv, then the
# demo itself; writes wall time, disk use and the machine's load to a JSON file:
#   bash scripts/time_setup.sh docs/results/setup_time.json
# pip's download cache is whatever this machine has (the JSON says its size before the run).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/time_setup.sh OUT.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 -I{} cp --parents {} "$work"/
pip_cache=$(du -sm "${PIP_CACHE_DIR:-$HOME/.cache/pip}" 2>/dev/null | cut -f1 || echo 0)
load_start=$(cut -d' ' -f1 /proc/loadavg)
start=$(date +%s)
(cd "$work" && bash scripts/setup.sh >/dev/null)
setup_s=$(( $(date +%s) - start ))
start=$(date +%s)
(cd "$work" && AUTHORAG_CACHE_DIR="$work/cache" .venv/bin/authorag demo >/dev/null 2>&1)
demo_s=$(( $(date +%s) - start ))
venv_mb=$(du -sm "$work/.venv" | cut -f1)
cat > "$out" <<JSON
{
 "version": 1,
 "command": "bash scripts/time_setup.sh $out",
 "what": "scripts/setup.sh (every extra, dev tools, no judge model) into a fresh .venv, then authorag demo",
 "setup_seconds": $setup_s,
 "demo_seconds": $demo_s,
 "venv_mib": $venv_mb,
 "pip_cache_mib_before": $pip_cache,
 "load_average_start": $load_start,
 "load_average_end": $(cut -d' ' -f1 /proc/loadavg),
 "cpus": $(nproc),
 "date": "$(date -u +%Y-%m-%d)"
}
JSON
cat "$out"
