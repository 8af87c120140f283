#include "tools/bench/operations_bench.hpp"

#include <malloc.h>

#include <chrono>
#include <string>

#include "models/model_registries.hpp"
#include "sim/discard_trace_sink.hpp"
#include "tools/bench/process_memory.hpp"
#include "tools/bench/reliability_bench.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::bench {

namespace {

nlohmann::json run_case(const std::string& name, const char* scenario_json, const models::ModelRegistries& registries) {
  malloc_trim(0);  // hand back what the previous case freed, so the peak below is this case's
  reset_peak_rss();
  const auto wall0 = std::chrono::steady_clock::now();
  const auto scenario =
      scenario::load_scenario_json(nlohmann::json::parse(scenario_json), name, {}, std::nullopt, registries);
  sim::DiscardTraceSink sink;
  const run::RunStats stats = run::simulate(scenario, registries, sink);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return {{"name", name},
          {"wall_s", wall_s},
          {"peak_rss_mb", peak_rss_mb()},
          {"events", stats.events},
          {"simulated_s", stats.simulated_s}};
}

// Mean job: 31.9 nodes (1..128 in powers of two) x 2.08 h; a job every 65 s offers
// 31.9 x 2.08 h / 65 s = 3,680 nodes, 90% of 4,096.
constexpr const char* kBackfill = R"({
  "name": "backfill-1e6-jobs-4096-nodes", "seed": 1,
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 4096, "nodes_per_rack": 4},
  "workload": {"generators": [{"name": "j", "count": 1000000,
    "interarrival": {"kind": "exponential", "mean": "65 s"},
    "work": {"kind": "uniform", "low": "10 min", "high": "4 h"},
    "nodes": [1, 2, 4, 8, 16, 32, 64, 128]}]},
  "policies": {"scheduler": "easy_backfill"}})";

// As scenarios/llama3-405b-54-days.json.
constexpr const char* kLlama3 = R"({
  "name": "llama3-16k-gpus-54-days", "seed": 405, "duration": "54 d",
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2176, "nodes_per_rack": 4},
  "workload": {"training": [{"name": "llama3-405b", "model": "llama3-405b", "nodes": 2048,
    "parallelism": {"tp": 8, "pp": 16, "zero_stage": 1}, "micro_batch_size": 1, "global_batch": 2048,
    "recompute": "full", "steps": 1000000, "checkpoint": {"interval": 500, "target": "nvme"}}]},
  "policies": {"failover": "checkpoint_restart"},
  "reliability": {"faults": "llama3_405b"}})";

constexpr const char* kFleet = R"({
  "name": "reliability-131k-gpus-1-year", "seed": 131, "duration": "365 d",
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 16384, "nodes_per_rack": 4},
  "workload": {"training": [
    {"name": "t0", "model": "llama3-70b", "nodes": 1024, "parallelism": {"tp": 8, "pp": 4, "zero_stage": 1},
     "micro_batch_size": 1, "global_batch": 1024, "steps": 100000000, "checkpoint": {"interval": 100}}
    PLACEHOLDER]},
  "policies": {"failover": "hot_spares", "failover_params": {"interval": "30 min"}},
  "reliability": {"faults": "llama3_405b"}})";

std::string fleet_json() {
  std::string jobs;
  for (int i = 1; i < 15; ++i) {
    jobs += ", {\"name\": \"t" + std::to_string(i) +
            "\", \"model\": \"llama3-70b\", \"nodes\": 1024, \"parallelism\": {\"tp\": 8, \"pp\": 4, \"zero_stage\": 1}, "
            "\"micro_batch_size\": 1, \"global_batch\": 1024, \"steps\": 100000000, \"checkpoint\": {\"interval\": 100}}";
  }
  std::string s = kFleet;
  s.replace(s.find("PLACEHOLDER"), 11, jobs);
  return s;
}

}  // namespace

nlohmann::json run_operations_bench() {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  nlohmann::json cases = nlohmann::json::array();
  cases.push_back(run_case("backfill-1e6-jobs-4096-nodes", kBackfill, registries));
  cases.push_back(run_case("llama3-16k-gpus-54-days", kLlama3, registries));
  cases.push_back(run_case("reliability-131k-gpus-1-year", fleet_json().c_str(), registries));
  for (auto& c : run_reliability_bench()) cases.push_back(std::move(c));
  return cases;
}

}  // namespace dcsim::tools::bench
