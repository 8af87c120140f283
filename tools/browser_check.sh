#!/usr/bin/env bash
# The browser checks (ctest label "browser"): `dcsim report` pages of fresh runs of several scenarios,
# up to the 54-day Llama 3 run, each made into a report and opened in headless Chromium
# (tests/browser/check_report.py), and `--timeline` files opened in a real trace viewer,
# speedscope (tests/browser/check_timeline_viewer.py; tools/install_viewer.sh fetches it from
# npm). The normal suite runs only the smoke checks; this is the fuller set, registered for the
# "Browser" ctest configuration. Its own job: about two minutes.
#
#   bash tools/browser_check.sh [ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
bash tools/install_viewer.sh
ctest --test-dir build -C Browser -L browser --output-on-failure "$@"
