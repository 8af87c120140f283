#!/usr/bin/python3
"""The sanitizer run's leak suppressions stay Open MPI's: tools/lsan-openmpi.supp has only `leak:`
rules naming Open MPI's libraries (never a dcsim source, function or binary), and both ways of
running the sanitized suite read it (CMakePresets.json's "asan" test preset, tools/sanitize.sh).

Usage: check_sanitize_setup.py [SOURCE_DIR]   (default: the repository containing this file)
"""

import json
import pathlib
import re
import sys

OPEN_MPI_LIBRARY = re.compile(r"^(lib(mpi|open-pal|open-rte)[.]so|libevent_core)$")


def main():
    source = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]
    failures = []
    rules = [line.strip() for line in (source / "tools/lsan-openmpi.supp").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    if not rules:
        failures.append("tools/lsan-openmpi.supp has no rule")
    for rule in rules:
        kind, _, pattern = rule.partition(":")
        if kind != "leak" or not OPEN_MPI_LIBRARY.match(pattern):
            failures.append(f"tools/lsan-openmpi.supp: '{rule}' is not a leak rule for an Open MPI library")
    presets = json.loads((source / "CMakePresets.json").read_text())
    asan = [p for p in presets["testPresets"] if p["name"] == "asan"]
    lsan = asan[0].get("environment", {}).get("LSAN_OPTIONS", "") if asan else ""
    if "suppressions=${sourceDir}/tools/lsan-openmpi.supp" not in lsan:
        failures.append(f"CMakePresets.json: the asan test preset's LSAN_OPTIONS does not read the file: '{lsan}'")
    if "suppressions=$PWD/tools/lsan-openmpi.supp" not in (source / "tools/sanitize.sh").read_text():
        failures.append("tools/sanitize.sh does not export LSAN_OPTIONS with the file")
    if failures:
        sys.exit("\n".join(failures))
    print(f"check_sanitize_setup: {len(rules)} rules, all for Open MPI's libraries; read by the preset and the script")


if __name__ == "__main__":
    main()
