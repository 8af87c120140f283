#!/usr/bin/env bash
# `mpirun -np 2 dcsim sweep` writes the same results.csv, byte for byte, as a threaded run of the
# same sweep (issue 14). Run by CTest (label "mpi"); exits 77 (skipped) with the reason when this
# build has no MPI support or no mpirun is installed.
#   mpi_sweep_test.sh DCSIM SOURCE_DIR WORK_DIR WITH_MPI(ON|OFF)
set -euo pipefail
dcsim=$1 source_dir=$2 work=$3 with_mpi=$4
if [[ "$with_mpi" != "ON" && "$with_mpi" != "1" && "$with_mpi" != "TRUE" ]]; then
  echo "skipped: this build has no MPI support (DCSIM_WITH_MPI=OFF or CMake found no MPI; Debian: libopenmpi-dev openmpi-bin)"
  exit 77
fi
if ! command -v mpirun >/dev/null; then
  echo "skipped: no mpirun on PATH (Debian: openmpi-bin)"
  exit 77
fi
# Under AddressSanitizer (tools/sanitize.sh), unwind allocations fully, so that Open MPI's own
# leaks are recognised by tools/lsan-openmpi.supp (the file says why); no effect otherwise.
if [[ -n "${ASAN_OPTIONS:-}" ]]; then export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"; fi
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cat >"$work/sweep.json" <<JSON
{ "name": "mpi", "scenario": "$source_dir/tests/data/sweeps/tiny.json", "replications": 2,
  "parameters": [ { "path": "cluster.nodes", "values": [2, 4] },
                  { "path": "workload.generators.0.gpu_utilization", "values": [0.5, 0.7, 0.9] } ] }
JSON
"$dcsim" sweep "$work/sweep.json" -o "$work/threads" --jobs 2 --quiet
# Open MPI refuses root unless told; --oversubscribe: more ranks than cores is fine for a test.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 300 mpirun --oversubscribe -np 2 "$dcsim" sweep "$work/sweep.json" -o "$work/mpi" --jobs 1 --quiet
cmp "$work/threads/results.csv" "$work/mpi/results.csv"
rows=$(($(wc -l <"$work/mpi/results.csv") - 1))
if [[ $rows -ne 12 ]]; then
  echo "expected 12 rows (2 x 3 points x 2 replications), got $rows" >&2
  exit 1
fi
# Both ranks ran their share: every variant folder has its summary.
for v in "$work"/mpi/v00{00..11}; do
  [[ -f "$v/summary.json" ]] || { echo "missing $v/summary.json" >&2; exit 1; }
done
echo "mpi sweep: results.csv identical to the threaded run (12 variants, 2 ranks)"
