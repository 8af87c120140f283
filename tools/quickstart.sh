#!/usr/bin/env bash
# Fresh Debian 12 machine to first results: installs what is missing, builds, runs the quickstart
# scenario into out/quickstart and prints its headline results.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
./build/dcsim run scenarios/quickstart.json -o out/quickstart
