#pragma once
// The random fault process alone, the last cases of `dcsim bench operations`
// (operations_bench.hpp), each {"name", "wall_s", "peak_rss_mb", "events", ...}:
//  - fault-process-131k-gpus-1-year: 16,384 HGX H100 nodes (131,072 GPUs, 131,072 NICs, the
//    Llama 3 fabric's 23/7 cables per NIC), every Llama 3 class (exponential: superposition),
//    one simulated year, faults and repairs counted by the callbacks;
//  - fault-process-131k-gpus-1-year-weibull: the same with every class Weibull (shape 0.7), which
//    renews per instance and keeps every instance's next fault in a heap.
// The full case, with the cluster reacting and hot spares, is operations_bench's
// reliability-131k-gpus-1-year.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_reliability_bench();

}  // namespace dcsim::tools::bench
