#!/usr/bin/env bash
# Installs the test-only timeline viewer (speedscope, pinned in tests/browser/viewer/package.json
# and its lock file) from the npm registry into tests/browser/viewer/node_modules, for
# tests/browser/check_timeline_viewer.py. Quiet when it is already there. Never fatal: without
# npm or the registry the viewer test is skipped (exit 77), and this says why.
set -uo pipefail
cd "$(dirname "$0")/../tests/browser/viewer"
[[ -f node_modules/speedscope/dist/release/index.html ]] && exit 0
if ! command -v npm >/dev/null 2>&1; then
  echo "install_viewer.sh: no npm: the timeline viewer test will be skipped" >&2
  exit 0
fi
if ! npm ci --no-audit --no-fund --silent >/dev/null 2>&1; then
  echo "install_viewer.sh: npm ci failed (no registry?): the timeline viewer test will be skipped" >&2
fi
exit 0
