#include "tools/bench/storage_bench.hpp"

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

// Two steps with a checkpoint after the first: the run is the checkpoint plus two analytic
// steps. 2,048 nodes and 100 OSD hosts under 68 leaves of 32 ports.
constexpr const char* kCheckpoint = R"({
  "name": "checkpoint-16384-gpus", "seed": 5,
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 2048, "nodes_per_rack": 4},
  "frontend": {"topology": "leaf_spine", "leaves": 68, "hosts_per_leaf": 32, "spines": 16,
               "link_bandwidth_bps": "400 Gbps"},
  "storage": {"hosts": 100, "drives_per_host": 8, "pools": [{"name": "rep3", "replicas": 3}]},
  "workload": {"training": [{"name": "llama3-405b", "model": "llama3-405b", "nodes": 2048,
    "parallelism": {"tp": 8, "pp": 16, "zero_stage": 1}, "micro_batch_size": 1, "global_batch": 2048,
    "recompute": "full", "steps": 2, "checkpoint": {"interval": 1, "target": "store"}}]}})";

double summary_number(const sim::MemoryTraceSink& sink, const std::string& key) {
  const auto& v = sink.summary(key).value;
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  return 0.0;
}

}  // namespace

nlohmann::json run_storage_bench() {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  nlohmann::json cases = nlohmann::json::array();
  malloc_trim(0);
  reset_peak_rss();
  const auto wall0 = std::chrono::steady_clock::now();
  const auto scenario = scenario::load_scenario_json(nlohmann::json::parse(kCheckpoint), "checkpoint-16384-gpus", {},
                                                     std::nullopt, registries);
  sim::MemoryTraceSink sink;
  const run::RunStats stats = run::simulate(scenario, registries, sink);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const double write_s = summary_number(sink, "storage/checkpoint_write_s_max");
  cases.push_back({{"name", "checkpoint-16384-gpus"},
                   {"gpus", 16384},
                   {"osd_hosts", 100},
                   {"wall_s", wall_s},
                   {"peak_rss_mb", peak_rss_mb()},
                   {"events", stats.events},
                   {"flows", summary_number(sink, "frontend/flows_completed")},
                   {"checkpoint_write_s", write_s},
                   {"client_write_bytes_per_s",
                    write_s > 0 ? summary_number(sink, "storage/client_write_bytes") / write_s : 0.0}});
  return cases;
}

}  // namespace dcsim::tools::bench
