#include "tools/bench/economics_bench.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>

#include "models/model_registries.hpp"
#include "sim/discard_trace_sink.hpp"
#include "sim/error.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::bench {

namespace {

// Jobs of 4 to 32 nodes, a mean of 18 nodes x 12 h every 2 h offers 108 of 128 nodes (84%); two
// Llama 3 8B training jobs of 8 nodes run alongside. Faults at Llama 3's rates, hot spares.
constexpr const char* kScenario = R"({
  "name": "economics-1024-gpus-30-days", "seed": 13, "duration": "30 d",
  "cluster": {"node": {"preset": "hgx-h100"}, "nodes": 128, "nodes_per_rack": 4},
  "workload": {
    "generators": [{"name": "batch", "count": 400, "interarrival": {"kind": "exponential", "mean": "2 h"},
                    "work": {"kind": "lognormal", "median": "10 h", "sigma": 0.6}, "nodes": [4, 8, 16, 32, 32],
                    "gpu_utilization": 0.85}],
    "training": [
      {"name": "llama-a", "model": "llama3-8b", "nodes": 8, "parallelism": {"tp": 1, "zero_stage": 1},
       "global_batch": 512, "steps": 400000, "checkpoint": {"interval": 500, "target": "nvme"}},
      {"name": "llama-b", "model": "llama3-8b", "nodes": 8, "parallelism": {"tp": 1, "zero_stage": 1},
       "global_batch": 512, "steps": 400000, "arrival": "3 d", "checkpoint": {"interval": 500, "target": "nvme"}}]},
  "policies": {"scheduler": "easy_backfill", "failover": "checkpoint_restart"},
  "reliability": {"faults": "llama3_405b"},
  "facility": {"tick": "5 min", "rack_limit": "55 kW",
    "cooling": {"mode": "d2c", "d2c_capture": 0.8, "rdhx": true, "rdhx_active": true, "rdhx_capacity": "50 kW",
                "control": "pi_target", "target_gpu": "65 C"},
    "plant": {"supply": "25 C", "chiller": true, "dry_cooler": true},
    "outdoor": {"kind": "sinusoid", "mean": "15 C", "amplitude": "8 C"}},
  "uplink": {"ports": [{"speed": "100 Gb/s", "count": 2}]}
})";

constexpr const char* kEconomics = R"({
  "site_prices": "us", "egress_per_month": "200 TB",
  "stored": "500 TB", "repair_default": "2000 USD",
  "electricity_tariff": {"points": [{"hour": 0, "price": "0.06 USD/kWh"}, {"hour": 16, "price": "0.20 USD/kWh"},
                                    {"hour": 21, "price": "0.06 USD/kWh"}]},
  "cloud": [{"offer": "aws-p5-on-demand"}, {"offer": "aws-p5-reserved-3y"}, {"offer": "aws-p5-spot"}]
})";

struct Timing {
  double wall_s = std::numeric_limits<double>::infinity();
  std::uint64_t events = 0;
};

void run_once(const nlohmann::json& doc, const models::ModelRegistries& registries, Timing& best) {
  const auto wall0 = std::chrono::steady_clock::now();
  const auto scenario = scenario::load_scenario_json(doc, doc.at("name").get<std::string>(), {}, std::nullopt,
                                                     registries);
  sim::DiscardTraceSink sink;
  const run::RunStats stats = run::simulate(scenario, registries, sink);
  best.wall_s = std::min(best.wall_s, std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count());
  best.events = stats.events;
}

}  // namespace

nlohmann::json run_economics_bench(int repeats) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  const nlohmann::json off = nlohmann::json::parse(kScenario);
  nlohmann::json on = off;
  on["name"] = "economics-1024-gpus-30-days-priced";
  on["economics"] = nlohmann::json::parse(kEconomics);
  Timing off_t;
  Timing on_t;
  for (int i = 0; i < repeats; ++i) {  // alternately, so drift in the machine's load hits both
    run_once(off, registries, off_t);
    run_once(on, registries, on_t);
  }
  if (off_t.events != on_t.events) {
    throw sim::InternalError("economics added events to the run (" + std::to_string(off_t.events) + " without, " +
                             std::to_string(on_t.events) + " with; pricing must only listen: this is a bug)");
  }
  return {{"cases",
           {{{"name", "economics-off"}, {"wall_s", off_t.wall_s}, {"events", off_t.events}},
            {{"name", "economics-on"}, {"wall_s", on_t.wall_s}, {"events", on_t.events}}}},
          {"repeats", repeats},
          {"ratio", on_t.wall_s / off_t.wall_s}};
}

}  // namespace dcsim::tools::bench
