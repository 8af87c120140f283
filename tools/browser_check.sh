#!/usr/bin/env bash
# The browser checks of `dcsim report` (ctest label "browser"): fresh runs of several scenarios,
# up to the 54-day Llama 3 run, each made into a report and opened in headless Chromium
# (tests/browser/check_report.py). The normal suite runs only the quickstart smoke check; this is
# the fuller set, registered for the "Browser" ctest configuration. Its own job: about a minute.
#
#   bash tools/browser_check.sh [ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
ctest --test-dir build -C Browser -L browser --output-on-failure "$@"
