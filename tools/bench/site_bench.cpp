#include "tools/bench/site_bench.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tools/bench/process_memory.hpp"
#include "tools/bench/scenario_case.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::bench {

namespace {

// Llama 3 405B's plan (scenarios/llama3-405b-54-days.json): a model replica is TP 8 x PP 16 =
// 16 nodes, so a job's nodes are a multiple of 16; each DP rank takes 16 micro-batches of one
// 8K sequence per step, as at 16K GPUs (2,048 sequences over DP 128), so the batch is the job's
// nodes in sequences. ZeRO stage 2 rather than the scenario's 1: with DP 8 (1,024 GPUs) the
// gradients and optimizer are sharded 16x less than at DP 128 and stage 1 no longer fits.
// Sizes are multiples of 1,024 GPUs (128 nodes): jobs of 2,048 nodes, and one of what is left
// over (a multiple of 128 nodes, DP 8 or more), so every node of the mix trains.
constexpr int kGpusPerStep = 1024;
constexpr int kMaxJobNodes = 2048;

std::string site_scenario(int gpus, double days) {
  const int busy = gpus / 8;
  std::vector<int> job_nodes(static_cast<std::size_t>(busy / kMaxJobNodes), kMaxJobNodes);
  if (busy % kMaxJobNodes > 0) job_nodes.push_back(busy % kMaxJobNodes);
  std::string training;
  for (std::size_t j = 0; j < job_nodes.size(); ++j) {
    training += fmt::format(
        R"({}{{"name": "llama3-405b-{}", "model": "llama3-405b", "nodes": {},
            "parallelism": {{"tp": 8, "pp": 16, "zero_stage": 2, "virtual_stages": 4,
                            "first_stage_layers": 7, "last_stage_layers": 7}},
            "micro_batch_size": 1, "global_batch": {}, "recompute": "selective", "steps": 1000000,
            "checkpoint": {{"interval": 500, "target": "nvme"}}}})",
        j == 0 ? "" : ",", j, job_nodes[j], job_nodes[j]);
  }
  return fmt::format(R"({{
  "name": "site-{}-gpus", "seed": 38, "duration": "{} d",
  "cluster": {{"node": {{"preset": "hgx-h100"}}, "nodes": {}, "nodes_per_rack": 4}},
  "workload": {{"training": [{}]}},
  "policies": {{"failover": "checkpoint_restart"}},
  "reliability": {{"faults": "llama3_405b"}},
  "facility": {{"tick": "60 s", "rack_limit": "55 kW",
    "cooling": {{"mode": "d2c", "d2c_capture": 0.8, "rdhx": true, "rdhx_active": true, "rdhx_capacity": "50 kW",
                "control": "pi_target", "target_gpu": "65 C"}},
    "plant": {{"supply": "25 C", "chiller": true, "dry_cooler": true}},
    "outdoor": {{"kind": "sinusoid", "mean": "15 C", "amplitude": "8 C"}}}},
  "outputs": {{"telemetry_interval": "1 h"}}
}})",
                     gpus, days, busy + busy / 16, training);
}

}  // namespace

nlohmann::json run_site_bench(const std::vector<int>& gpus, double days) {
  nlohmann::json cases = nlohmann::json::array();
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const int g : gpus) {
    if (g < kGpusPerStep || g % kGpusPerStep != 0) {
      throw sim::InternalError(
          fmt::format("bench site: {} GPUs is not a multiple of 1,024 (this is a bug: the "
                      "command checks it)",
                      g));
    }
    ScenarioCaseRun run;
    const std::string name = fmt::format("site-{}-gpus-{}-days", g, days);
    run_scenario_case(site_scenario(g, days).c_str(), name, run);
    const double per_day = run.wall_s / days;
    cases.push_back({{"name", name},
                     {"gpus", g},
                     {"nodes", g / 8 + g / 128},
                     {"days", days},
                     {"wall_s", run.wall_s},
                     {"s_per_day", per_day},
                     {"events", run.stats.events},
                     {"peak_rss_mb", run.peak_rss_mb}});
    const double x = std::log(static_cast<double>(g)), y = std::log(per_day);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = static_cast<double>(gpus.size());
  const double denominator = n * sxx - sx * sx;
  nlohmann::json out = {{"cases", cases}};
  out["exponent"] =
      gpus.size() >= 2 && denominator > 0 ? nlohmann::json((n * sxy - sx * sy) / denominator) : nlohmann::json(nullptr);
  return out;
}

nlohmann::json run_site_scenario_file(const std::string& path, double days, const std::string& output_dir) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  std::vector<std::string> overrides;
  if (days > 0) overrides.push_back(fmt::format("duration=\"{} d\"", days));
  reset_peak_rss();
  const auto wall0 = std::chrono::steady_clock::now();
  const auto scenario = scenario::load_scenario_file(path, overrides, std::nullopt, registries);
  const auto outputs = run::run_to_directory(scenario, registries, output_dir);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const double simulated_days = scenario.duration.seconds() / 86400.0;
  return {{"name", std::filesystem::path(path).stem().string()},
          {"days", simulated_days},
          {"wall_s", wall_s},
          {"s_per_day", wall_s / simulated_days},
          {"events", outputs.stats.events},
          {"peak_rss_mb", peak_rss_mb()},
          {"trace_mb", static_cast<double>(std::filesystem::file_size(outputs.trace_file)) / 1e6}};
}

}  // namespace dcsim::tools::bench
