#pragma once
// `dcsim bench operations`: issue 12's operations cases at scale, each {"name", "wall_s",
// "peak_rss_mb", "events", ...}, every case through the same path as `dcsim run` (scenario JSON,
// loader, every model) into a sink that keeps nothing, so what is timed is the simulation:
//  - backfill-1e6-jobs-4096-nodes: a million generated jobs (1 to 128 nodes, 10 min to 4 h,
//    about 90% offered load) on 4,096 nodes under easy_backfill (target: under 20 s);
//  - llama3-16k-gpus-54-days: scenarios/llama3-405b-54-days.json (16,384 GPUs training for 54
//    days, Llama 3 fault rates, checkpoint_restart at Daly's interval; target: under 1 s);
//  - reliability-131k-gpus-1-year: 16,384 nodes (131,072 GPUs) running 15 Llama 3 70B jobs of
//    1,024 nodes for a year under every Llama 3 fault class, hot_spares (target: under 10 s and
//    2 GiB);
// then the fault process alone (reliability_bench.hpp). Each case's peak RSS is its own where
// the kernel allows resetting the peak (/proc/self/clear_refs), else the process's so far.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_operations_bench();

}  // namespace dcsim::tools::bench
