#!/usr/bin/env bash
# Installs what is missing, builds (Release) and runs every test with ctest, in parallel.
# This is what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
bash tools/install_viewer.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" "$@"
