#include "tools/bench/inference_bench.hpp"

#include <string>

#include "tools/bench/scenario_case.hpp"

namespace dcsim::tools::bench {

namespace {

// 1,000 requests/s over 128 replicas: 7.8 per replica per second, prompts around 512 tokens and
// answers around 128 (lognormal), about half of a replica's decode capacity.
constexpr const char* kServe = R"({
  "name": "serve-128-replicas-1h", "seed": 17, "duration": "1 h",
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 16, "nodes_per_rack": 4},
  "inference": {"services": [{"name": "chat", "model": "llama3-8b", "engine": {"tp": 1}, "replicas": 128,
    "router": "least_outstanding",
    "requests": {"arrivals": "poisson", "rate": 1000,
      "input_tokens": {"kind": "lognormal", "median": 512, "sigma": 0.6, "max": 8192},
      "output_tokens": {"kind": "lognormal", "median": 128, "sigma": 0.6, "max": 2048}},
    "sla": {"ttft": "2 s", "tpot": "100 ms"}}]}})";

}  // namespace

nlohmann::json run_inference_bench() {
  ScenarioCaseRun r;  // in memory: the service's series are 6 x 360 points, its latencies histograms
  run_scenario_case(kServe, "serve-128-replicas-1h", r);
  const double requests = r.number("inference/chat/requests");
  nlohmann::json cases = nlohmann::json::array();
  cases.push_back({{"name", "serve-128-replicas-1h"},
                   {"wall_s", r.wall_s},
                   {"peak_rss_mb", r.peak_rss_mb},
                   {"events", r.stats.events},
                   {"simulated_s", r.stats.simulated_s},
                   {"requests", requests},
                   {"requests_per_wall_s", requests / r.wall_s},
                   {"ttft_p99_s", r.number("inference/chat/ttft_p99_s")},
                   {"output_tokens_per_s", r.number("inference/chat/output_tokens_per_s")}});
  return cases;
}

}  // namespace dcsim::tools::bench
