#pragma once
// `dcsim bench fabric`: the fabric model against the SimGrid 3.32 CM02 baseline
// (/work/shared/bench/simgrid/sgbench.cpp), on the same platform and workloads:
// 3-tier k=16 fat-tree (1,024 hosts), every link 100 Gb/s and 500 ns, SimGrid's d-mod-k routes.
//
// Cases (names are stable; scripts select them):
//   fattree16-permutation-1GB      every host sends 1 GB to a random derangement partner
//   fattree16-ring-allreduce-1024  ring all-reduce of 1 GB over 1,024 ranks: 2 x 1024 x 1023
//                                  flows of 1e9/1024 B, SimGrid's rendezvous semantics
//   fattree16-random-1000          1,000 / 10,000 / 100,000 concurrent random-pair flows of
//   fattree16-random-10000         U[1 MB, 100 MB] bytes, all at t=0, run to completion
//   fattree16-random-100000        (optional: selected by name only, not in the default set)
//   fattree16-random-3000, -30000  scaling points (selected by name only)
//   fattreeK-random-F              F random-pair flows on a k=K fat-tree (K even, 4 to 128), by
//                                  name only: K and F grown together keep the flows per host
//                                  fixed (fattree74-random-100000: 101,306 hosts, ~1 per host)
// The workloads use std::mt19937_64(42) with libstdc++'s distributions, exactly as sgbench does,
// so both simulators see the same hosts and sizes (a deliberate exception to "never std::
// distributions": it exists to reproduce the baseline's draws; models never do this).
//
// Each result: {"name","hosts","flows","wall_s","setup_s","flows_per_s","peak_rss_mb","makespan_s",
// "mean_fct_s","max_min_precision","active_flows_per_completion","rate_changes_per_completion",
// "solved_flows_per_completion","full_solve_share","fill_rounds_per_completion",
// "filled_flows_per_completion"}. wall_s times the simulation only (as sgbench's wall_run_s),
// setup_s the building of the fabric before it (topology, routing tables, solver storage).
// peak_rss_mb is the process's high-water mark (VmHWM) after the case (run one case per
// process for a per-case figure). The others explain the cost: at an event that finished a flow, the mean number of
// flows active, of flows whose max-min rate moved (the lower bound of any exact re-solve), of
// flows the incremental re-solve visited (its set at the fixed point), the share of such events
// whose re-solve escalated to every flow, the mean number of fill rounds, and the flows those
// fills computed, summed over rounds (the solver's work). 0 for the ring case (not measured).
// DCSIM_BENCH_PROGRESS set in the environment: a progress line on stderr every 1,000 completions.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

// Empty: the default set (every case except the optional large ones). Unknown names throw
// sim::InputError listing the valid ones.
// precision: MaxMinSolver::set_precision (the default, kRelTol, is exact max-min as SimGrid's).
nlohmann::json run_fabric_bench(const std::vector<std::string>& case_names, double precision = 1e-9);

}  // namespace dcsim::tools::bench
