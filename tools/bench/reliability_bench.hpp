#pragma once
// `dcsim bench operations`: the operations cases of issue 12, each {"name", "wall_s",
// "peak_rss_mb", "events", ...}. For now the random fault process alone:
//  - reliability-131k-gpus-1-year: 16,384 HGX H100 nodes (131,072 GPUs, 131,072 NICs, the
//    Llama 3 fabric's 23/7 cables per NIC), every Llama 3 class (exponential: superposition),
//    one simulated year, faults and repairs counted by the callbacks;
//  - reliability-131k-gpus-1-year-weibull: the same with every class Weibull (shape 0.7), which
//    renews per instance and keeps every instance's next fault in a heap.
// The target for the full case (with the cluster reacting, hot spares) is under 10 s and
// 2 GiB. peak_rss_mb is the process's peak so far (VmHWM), so cases run in the order listed.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_reliability_bench();

}  // namespace dcsim::tools::bench
