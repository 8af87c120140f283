#pragma once
// `dcsim bench inference`: issue 17's serving case at scale, through the same path as `dcsim run`:
//  - serve-128-replicas-1h: one simulated hour of 128 llama3-8b replicas (TP1 on 16 HGX H100
//    nodes) at 1,000 requests/s, about 3.6 M requests (target: under 60 s and 4 GiB). Reports
//    wall_s, peak_rss_mb, events, requests and requests simulated per wall second.
//  - serve-fluid-vs-iteration: a day of a 32-128-replica llama3-70b TP8 fleet (HPA, diurnal 320
//    requests/s) at resolution iteration and fluid: each one's wall time and events, the speed-up
//    (goal: at least 100x) and each headline's relative error. About 100 s, nearly all iteration.

#include <nlohmann/json.hpp>

namespace dcsim::tools::bench {

nlohmann::json run_inference_bench();

}  // namespace dcsim::tools::bench
