#!/usr/bin/env bash
# Builds every target with AddressSanitizer + UndefinedBehaviorSanitizer (CMakePresets.json, preset
# "asan": GCC, Debug at -O1, into build-asan/) and runs the whole ctest suite under it, CLI and
# notebook tests included (they run the sanitized dcsim). Any ASan error, UBSan report or leak
# aborts the process that hit it, so its test fails and this script exits non-zero.
#
# Its own job, not part of .ci/run: the instrumented build and suite take far longer than CI's
# 15-minute budget for the normal suite (docs/testing.md, "Sanitizers", has the times).
#
#   bash tools/sanitize.sh [CTEST ARGS...]     e.g. -L unit, -R 'sim: '
set -euo pipefail
cd "$(dirname "$0")/.."

# The same options as the test preset's environment, also set here for the build, whose
# catch_discover_tests step runs every test executable to list its cases.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:print_stacktrace=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# Open MPI's own allocations that MPI_Finalize never frees, and only those (the file says why).
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan-openmpi.supp:print_suppressions=0"

jobs="$(nproc)"
bash tools/setup.sh  # the same packages as the normal build; GCC brings libasan and libubsan
start=$(date +%s)
if [[ ! -f build-asan/CMakeCache.txt ]]; then
  nice -n 10 cmake --preset asan >/dev/null
fi
nice -n 10 cmake --build --preset asan --parallel "$jobs"
built=$(date +%s)

rc=0
nice -n 10 ctest --preset asan --parallel "$jobs" "$@" || rc=$?
end=$(date +%s)

echo "sanitize: build $((built - start)) s, suite $((end - built)) s, total $((end - start)) s (wall)"
if [[ $rc -ne 0 ]]; then
  echo "sanitize: FAILED (ctest exit $rc); the failing tests' output above has the sanitizer report" >&2
fi
exit "$rc"
