#include "tools/bench/inference_bench.hpp"

#include <cmath>
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

// A day of inference-autoscaling-diurnal.json's service on 128 nodes: llama3-70b TP8, 32-128
// replicas under HPA on batch occupancy, diurnal 320 requests/s mean; RESOLUTION is replaced.
constexpr const char* kFleetDay = R"({
  "name": "serve-fluid-vs-iteration", "seed": 11, "duration": "24 h",
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 128},
  "inference": {"services": [{"name": "chat", "model": "llama3-70b", "engine": {"tp": 8, "max_batch": 64},
    "replicas": 64, "autoscaler": "hpa", "autoscaler_params": {"metric": "batch", "target_utilization": 0.8},
    "min_replicas": 32, "max_replicas": 128, "allocation_delay": "60 s", "resolution": "RESOLUTION",
    "requests": {"arrivals": "diurnal", "rate": 320, "peak_to_trough": 4,
      "input_tokens": {"kind": "lognormal", "median": 1024, "sigma": 0.6, "max": 8192},
      "output_tokens": {"kind": "lognormal", "median": 256, "sigma": 0.6, "max": 2048}},
    "gateway": {"rtt": "20 ms"}, "sla": {"ttft": "2 s", "tpot": "200 ms"}, "sample_every": "1 min"}]}})";

// The same day at both resolutions: wall time of each (fluid's includes measuring its curves),
// the speed-up and each headline's relative error (docs/models/inference.md, "Resolution").
nlohmann::json fleet_day_case() {
  nlohmann::json out = {{"name", "serve-fluid-vs-iteration"}};
  ScenarioCaseRun runs[2];
  const char* resolutions[] = {"iteration", "fluid"};
  for (int i = 0; i < 2; ++i) {
    std::string doc = kFleetDay;
    doc.replace(doc.find("RESOLUTION"), 10, resolutions[i]);
    run_scenario_case(doc.c_str(), std::string("serve-fluid-vs-iteration-") + resolutions[i], runs[i]);
    out[std::string(resolutions[i]) + "_wall_s"] = runs[i].wall_s;
    out[std::string(resolutions[i]) + "_events"] = runs[i].stats.events;
  }
  out["speedup"] = runs[1].wall_s > 0.0 ? runs[0].wall_s / runs[1].wall_s : 0.0;
  for (const char* key : {"sla_attainment", "ttft_p99_s", "tpot_p99_s", "output_tokens_per_s", "gpu_hours",
                          "gpu_energy_kwh", "replicas_mean"}) {
    const double it = runs[0].number(std::string("inference/chat/") + key);
    const double fl = runs[1].number(std::string("inference/chat/") + key);
    out[key] = {{"iteration", it}, {"fluid", fl}, {"relative_error", it != 0.0 ? std::abs(fl - it) / std::abs(it) : 0.0}};
  }
  return out;
}

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
  cases.push_back(fleet_day_case());
  return cases;
}

}  // namespace dcsim::tools::bench
