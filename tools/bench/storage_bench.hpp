#pragma once
// `dcsim bench storage`: issue 18's checkpoint case at scale, through the same path as `dcsim run`:
//  - checkpoint-16384-gpus: one synchronous checkpoint (5.67 TB) of a Llama-3-405B job on 2,048
//    HGX H100 nodes (TP 8 x PP 16 x DP 16) into a 100-host, 800-drive store with three replicas,
//    on a two-tier ECMP front-end of one 400G port per host: 2,048 x 100 client flows plus the
//    replica forwards (target: under 5 s and 2 GiB). Reports wall_s, peak_rss_mb, events, flows,
//    the write's simulated time and the store's client write rate.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_storage_bench();

}  // namespace dcsim::tools::bench
