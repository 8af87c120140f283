#include "tools/bench/inference_bench.hpp"

#include <malloc.h>

#include <chrono>
#include <string>
#include <variant>

#include "models/model_registries.hpp"
#include "sim/trace_sink.hpp"
#include "tools/bench/process_memory.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

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

double summary_number(const sim::MemoryTraceSink& sink, const std::string& key) {
  const auto& v = sink.summary(key).value;
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  return 0.0;
}

}  // namespace

nlohmann::json run_inference_bench() {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  nlohmann::json cases = nlohmann::json::array();
  malloc_trim(0);
  reset_peak_rss();
  const auto wall0 = std::chrono::steady_clock::now();
  const auto scenario = scenario::load_scenario_json(nlohmann::json::parse(kServe), "serve-128-replicas-1h", {},
                                                     std::nullopt, registries);
  sim::MemoryTraceSink sink;  // the service's series are 6 x 360 points; its latencies are histograms
  const run::RunStats stats = run::simulate(scenario, registries, sink);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const double requests = summary_number(sink, "inference/chat/requests");
  cases.push_back({{"name", "serve-128-replicas-1h"},
                   {"wall_s", wall_s},
                   {"peak_rss_mb", peak_rss_mb()},
                   {"events", stats.events},
                   {"simulated_s", stats.simulated_s},
                   {"requests", requests},
                   {"requests_per_wall_s", requests / wall_s},
                   {"ttft_p99_s", summary_number(sink, "inference/chat/ttft_p99_s")},
                   {"output_tokens_per_s", summary_number(sink, "inference/chat/output_tokens_per_s")}});
  return cases;
}

}  // namespace dcsim::tools::bench
