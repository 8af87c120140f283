#!/usr/bin/env bash
# `mpirun -np 2 dcsim design` writes the same evaluations.csv and pareto.csv, byte for byte, as a
# threaded run of the same design (issue 37): each rank evaluates its share of every batch and
# reads the others' back from the shared evaluation cache. Run by CTest (label "mpi"); exits 77
# (skipped) with the reason when this build has no MPI support or no mpirun is installed.
#   mpi_design_test.sh DCSIM SOURCE_DIR WORK_DIR WITH_MPI(ON|OFF)
set -euo pipefail
dcsim=$1 source_dir=$2 work=$3 with_mpi=$4
source "$(dirname "$0")/../mpi_test_setup.sh"
cat >"$work/design.json" <<JSON
{ "name": "mpi", "scenario": "$source_dir/tests/data/design/tiny-training.json",
  "variables": [ { "path": "cluster.nodes", "values": [1, 2, 4] },
                 { "path": "facility.gpu_power_limit", "range": { "low": 400, "high": 700, "unit": "W", "grid_points": 3 } } ],
  "couplings": [ { "path": "workload.training.0.nodes", "from": "cluster.nodes" } ],
  "constraints": [ { "key": "power/peak_w", "max": 30000 } ],
  "objectives": [ { "key": "jobs/llama3-8b/tokens_per_s", "goal": "maximize" } ],
  "strategy": { "name": "grid", "params": { "batch": 4 } } }
JSON
"$dcsim" design "$work/design.json" -o "$work/threads" --jobs 2 --quiet
timeout 300 mpirun --oversubscribe -np 2 "$dcsim" design "$work/design.json" -o "$work/mpi" --jobs 1 --quiet
cmp "$work/threads/evaluations.csv" "$work/mpi/evaluations.csv"
cmp "$work/threads/pareto.csv" "$work/mpi/pareto.csv"
rows=$(($(wc -l <"$work/mpi/evaluations.csv") - 1))
if [[ $rows -ne 9 ]]; then
  echo "expected 9 evaluations (3 node counts x 3 power caps), got $rows" >&2
  exit 1
fi
echo "mpi design: evaluations.csv and pareto.csv identical to the threaded run (9 candidates, 2 ranks)"
