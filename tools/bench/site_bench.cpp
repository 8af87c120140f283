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

// The mix of scenarios/site/site-year-131k.json, scaled to `gpus` (HGX H100, 8 per node):
//   - three quarters of the nodes (a multiple of 16) train Llama 3 405B with its plan (TP 8 x
//     PP 16 = 16 nodes a replica, 16 micro-batches of one 8K sequence per DP rank and step, so
//     the batch is the job's nodes in sequences; ZeRO 2, and full recomputation below DP 8,
//     where the sharded optimizer and selective recomputation's activations no longer fit: DP
//     is 6 at 1,024 GPUs), in jobs of up to 2,048 nodes, checkpointing into the object store;
//   - the other quarter takes a stream of smaller jobs under easy_backfill: sizes of 16-256
//     nodes up to half of that quarter, arriving so that they ask for the share of it the site
//     year's stream asks for (1,786 of 4,096 nodes: 99 nodes x 16.5 h every 55 min);
//   - a Llama 3 70B chat service at 300 requests/s x (gpus / 131,072), HPA on batch between
//     32 and 256 replicas x the same share (at least 1 and 2), at auto resolution;
//   - an EC 8+3 store of 96 x the share OSD hosts (at least 11, one per shard) on a 2:1
//     leaf-spine front end with every node and OSD host on it, at aggregate resolution at every
//     size (the site year's `auto` picks it there; at 16,384 GPUs, 1,536 clients x 12 hosts
//     fall under auto's 20,000 flows and every save was 18,576 flows: 4.7 s per simulated day
//     against 1.9 at 131,072 GPUs, a change of resolution, not of cost per event);
//   - Llama 3 fault rates with checkpoint_restart; D2C + active rear doors at a 60 s tick with
//     one thermal path per node, in 8 x the share halls (at least 1); economics against AWS p5.
constexpr int kGpusPerStep = 1024;
constexpr int kMaxJobNodes = 2048;
constexpr int kSiteGpus = 131072;

std::string site_scenario(int gpus, double days) {
  const int nodes = gpus / 8;
  const double share = static_cast<double>(gpus) / kSiteGpus;
  const int training_nodes = nodes * 3 / 4 / 16 * 16;
  std::vector<int> job_nodes(static_cast<std::size_t>(training_nodes / kMaxJobNodes), kMaxJobNodes);
  if (training_nodes % kMaxJobNodes > 0) job_nodes.push_back(training_nodes % kMaxJobNodes);
  std::string training;
  for (std::size_t j = 0; j < job_nodes.size(); ++j) {
    training += fmt::format(
        R"({}{{"name": "llama3-405b-{}", "model": "llama3-405b", "nodes": {},
            "parallelism": {{"tp": 8, "pp": 16, "zero_stage": 2, "virtual_stages": 4,
                            "first_stage_layers": 7, "last_stage_layers": 7}},
            "micro_batch_size": 1, "global_batch": {}, "recompute": "{}", "steps": 1000000,
            "checkpoint": {{"interval": 500, "target": "store", "pool": "ec83"}}}})",
        j == 0 ? "" : ",", j, job_nodes[j], job_nodes[j], job_nodes[j] / 16 >= 8 ? "selective" : "full");
  }
  // The stream: the site year's sizes that fit half of the rest, at its share of the rest.
  const int rest = nodes - training_nodes;
  std::string sizes;
  double size_sum = 0.0;
  int size_count = 0;
  for (const int n : {16, 32, 64, 128, 256}) {
    if (n > std::max(16, rest / 2)) break;
    sizes += fmt::format("{}{}", size_count == 0 ? "" : ", ", n);
    size_sum += n;
    ++size_count;
  }
  const double asked_share = 99.2 * 16.5 / (55.0 / 60.0) / 4096.0;  // the site year's stream
  const double interarrival_min = size_sum / size_count * 16.5 * 60.0 / (asked_share * rest);
  const int arrivals = static_cast<int>(days * 24.0 * 60.0 / interarrival_min) + 1;
  const int osd_hosts = std::max(11, static_cast<int>(std::lround(96 * share)));
  const int leaves = (nodes + osd_hosts + 31) / 32;
  return fmt::format(R"({{
  "name": "site-{}-gpus", "seed": 38, "duration": "{} d",
  "cluster": {{"node": {{"preset": "hgx-h100"}}, "nodes": {}, "nodes_per_rack": 4}},
  "frontend": {{"topology": "leaf_spine", "leaves": {}, "hosts_per_leaf": 32, "oversubscription": 2,
               "switch": "nvidia_sn5600", "link_bandwidth_bps": "400 Gbps", "flow_table": false}},
  "storage": {{"hosts": {}, "drives_per_host": 16, "hosts_per_rack": 4, "resolution": "aggregate",
              "series_interval": "1 min", "pools": [{{"name": "ec83", "ec": {{"k": 8, "m": 3}}}}]}},
  "workload": {{"training": [{}],
    "generators": [{{"name": "research", "count": {}, "start": "0 s",
      "interarrival": {{"kind": "exponential", "mean": "{:.3f} min"}},
      "work": {{"kind": "lognormal", "median": "12 h", "sigma": 0.8}},
      "nodes": [{}], "gpu_utilization": 0.85}}]}},
  "inference": {{"services": [{{"name": "chat", "model": "llama3-70b", "engine": {{"tp": 8, "max_batch": 64}},
    "resolution": "auto", "replicas": {}, "autoscaler": "hpa",
    "autoscaler_params": {{"metric": "batch", "target_utilization": 0.8}},
    "min_replicas": {}, "max_replicas": {}, "allocation_delay": "60 s",
    "requests": {{"arrivals": "diurnal", "rate": {:.4f}, "peak_to_trough": 4,
      "input_tokens": {{"kind": "lognormal", "median": 1024, "sigma": 0.6, "max": 8192}},
      "output_tokens": {{"kind": "lognormal", "median": 256, "sigma": 0.6, "max": 2048}}}},
    "sla": {{"ttft": "2 s", "tpot": "200 ms"}}, "sample_every": "1 min"}}]}},
  "policies": {{"scheduler": "easy_backfill", "failover": "checkpoint_restart"}},
  "reliability": {{"faults": "llama3_405b"}},
  "facility": {{"tick": "60 s", "rack_limit": "55 kW", "halls": {}, "thermal_resolution": "node",
    "cooling": {{"mode": "d2c", "d2c_capture": 0.8, "rdhx": true, "rdhx_active": true, "rdhx_capacity": "50 kW",
                "control": "pi_target", "target_gpu": "65 C"}},
    "plant": {{"supply": "25 C", "chiller": true, "dry_cooler": true}},
    "outdoor": {{"kind": "sinusoid", "mean": "15 C", "amplitude": "8 C"}}}},
  "economics": {{"node_price": "hgx-h100", "site_prices": "us", "electricity": "0.08 USD/kWh",
    "depreciation": {{"method": "straight_line", "years": 5}}, "repair_default": "0 USD",
    "cloud": [{{"offer": "aws-p5-on-demand"}}]}},
  "outputs": {{"telemetry_interval": "1 h"}}
}})",
                     gpus, days, nodes, leaves, osd_hosts, training, arrivals, interarrival_min, sizes,
                     std::max(1, static_cast<int>(std::lround(64 * share))),
                     std::max(1, static_cast<int>(std::lround(32 * share))),
                     std::max(2, static_cast<int>(std::lround(256 * share))), 300.0 * share,
                     std::max(1, static_cast<int>(std::lround(8 * share))));
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
                     {"nodes", g / 8},
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
