#!/usr/bin/env bash
# Builds the libFuzzer targets (CMakePresets.json, preset "fuzz": clang, -O1 -g,
# -fsanitize=fuzzer,address,undefined, into build-fuzz/) and fuzzes each in turn:
#   scenario_loader  JSON text -> parse_json_text + load_scenario_json (the built-in registries)
#   quantity         sim::parse_duration and sim::parse_quantity for every QuantityKind
#   flow_csv         read_flow_csv / read_size_csv on in-memory CSV text
#   job_trace        import_job_trace (swf, alibaba_openb, csv) on in-memory text
# Each starts from its seed corpus (tests/fuzz/corpus/<target>/) and the inputs that once crashed
# it (tests/fuzz/regressions/<target>/); new interesting inputs go to build-fuzz/corpus/<target>/,
# crashes to build-fuzz/findings/<target>/ (copy them into tests/fuzz/regressions/<target>/ with
# the fix, where the normal suite replays them: ctest -R 'fuzz replay').
#
# Its own job, not part of .ci/run (which replays the corpora only).
#
#   bash tools/fuzz.sh [BUDGET] [TARGET...]
#     BUDGET  60s (seconds of fuzzing per target, the default) or 1000000 (executions per target)
#     TARGET  scenario_loader, quantity, flow_csv, job_trace (default: all four)
# Extra libFuzzer flags through FUZZ_FLAGS, e.g. FUZZ_FLAGS="-jobs=2 -workers=2".
set -euo pipefail
cd "$(dirname "$0")/.."

budget="${1:-60s}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(scenario_loader quantity flow_csv job_trace)
case "$budget" in
  *s) limit=(-max_total_time="${budget%s}") ;;
  *[!0-9]*|'') echo "fuzz.sh: BUDGET is seconds (60s) or a number of executions (1000000), got '$budget'" >&2; exit 2 ;;
  *) limit=(-runs="$budget") ;;
esac

bash tools/setup.sh --fuzz
if [[ ! -f build-fuzz/CMakeCache.txt ]]; then
  nice -n 10 cmake --preset fuzz >/dev/null
fi
nice -n 10 cmake --build --preset fuzz --target "${targets[@]/%/_fuzz}"

rc=0
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t findings=build-fuzz/findings/$t
  mkdir -p "$corpus" "$findings"
  # Up to sizes where bugs of size live: a 4,096-byte cap hid the 5,000-digit quantity that crashed
  # the duration parser and the 400 KB file of nested brackets that made the loader allocate 4.2 GB
  # (regressions/quantity/*-5000-digits, regressions/scenario_loader/nested-brackets-50000).
  # libFuzzer grows inputs towards the cap gradually (-len_control), so small inputs still come first.
  case $t in
    scenario_loader) max_len=1048576 ;;  # 1 MiB: whole scenarios, and hostile ones
    quantity) max_len=16384 ;;
    *) max_len=65536 ;;                  # CSV files of some thousand rows
  esac
  echo "== fuzz $t (${limit[*]})"
  # rss/timeout: a scenario may ask for a huge fabric or cluster; an input that allocates past
  # 2 GiB or runs for 10 s is a finding, not a reason to swap.
  nice -n 10 "build-fuzz/tests/fuzz/$t"_fuzz "${limit[@]}" -max_len="$max_len" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$findings/" -print_final_stats=1 ${FUZZ_FLAGS:-} \
    "$corpus" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" || rc=1
done
exit $rc
