#!/bin/bash
# Runs `dcsim bench fabric` and the SimGrid baseline of issue 3 alternately, pair by pair, and
# prints each pair's wall times and ratio, then the median ratio per case. On a shared machine
# whose speed drifts, only interleaved pairs give ratios worth quoting (docs/fabric-benchmark.md).
#
# Usage: tools/bench/compare_with_simgrid.sh DCSIM SGBENCH [PAIRS]
#   DCSIM    the dcsim binary (e.g. build/dcsim)
#   SGBENCH  the baseline built from the team's shared/bench/simgrid (not part of this project):
#            cmake -S ../shared/bench/simgrid -B /tmp/build-sgbench -DCMAKE_BUILD_TYPE=Release
#   PAIRS    pairs of the permutation and random-1000 cases (default 11); the ring gets 3
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n 2,10p "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
dcsim=$1 sgbench=$2 pairs=${3:-11}
simgrid_flags="--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=contexts/stack-size:64"

pair() {  # case name, sgbench arguments, repeats
  local ratios=()
  for _ in $(seq 1 "$3"); do
    local ours theirs
    ours=$("$dcsim" bench fabric --case "$1" --json | grep -o '"wall_s": [0-9.e+-]*' | cut -d' ' -f2)
    # shellcheck disable=SC2086  # the flags are meant to split
    theirs=$("$sgbench" --topo=fattree:16 $2 $simgrid_flags 2>&1 | grep -o 'wall_run_s=[0-9.e+-]*' | cut -d= -f2)
    local ratio
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.1f", b / a }')
    ratios+=("$ratio")
    printf '%-32s dcsim %-12s simgrid %-10s ratio %s\n' "$1" "$ours" "$theirs" "$ratio"
  done
  printf '%-32s median ratio %s over %s pairs\n' "$1" \
    "$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }')" "$3"
}

pair fattree16-permutation-1GB "--pattern=perm --size=1e9" "$pairs"
pair fattree16-ring-allreduce-1024 "--pattern=ring --ranks=1024 --size=1e9" 3
pair fattree16-random-1000 "--pattern=random --flows=1000 --size=1e8" "$pairs"
