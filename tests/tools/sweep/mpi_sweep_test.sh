#!/usr/bin/env bash
# `mpirun -np 2 dcsim sweep` writes the same results.csv, byte for byte, as a threaded run of the
# same sweep (issue 14). Run by CTest (label "mpi"); exits 77 (skipped) with the reason when this
# build has no MPI support or no mpirun is installed.
#   mpi_sweep_test.sh DCSIM SOURCE_DIR WORK_DIR WITH_MPI(ON|OFF)
set -euo pipefail
dcsim=$1 source_dir=$2 work=$3 with_mpi=$4
source "$(dirname "$0")/../mpi_test_setup.sh"
cat >"$work/sweep.json" <<JSON
{ "name": "mpi", "scenario": "$source_dir/tests/data/sweeps/tiny.json", "replications": 2,
  "parameters": [ { "path": "cluster.nodes", "values": [2, 4] },
                  { "path": "workload.generators.0.gpu_utilization", "values": [0.5, 0.7, 0.9] } ] }
JSON
"$dcsim" sweep "$work/sweep.json" -o "$work/threads" --jobs 2 --quiet
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
