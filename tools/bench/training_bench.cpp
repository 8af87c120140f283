#include "tools/bench/training_bench.hpp"

#include <algorithm>
#include <chrono>
#include <regex>
#include <string>
#include <vector>

#include "models/cluster/cluster_simulation.hpp"
#include "models/cluster/training_fabric.hpp"
#include "models/compute/precision.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/discard_trace_sink.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "tools/bench/process_memory.hpp"

namespace dcsim::tools::bench {

namespace {

namespace mc = models::cluster;
namespace mw = models::workload;
namespace net = models::network;

using Clock = std::chrono::steady_clock;

nlohmann::json result(const std::string& name, int gpus, double steps, Clock::time_point start,
                      const sim::Simulator& sim) {
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const auto events = sim.events_executed();
  return {{"name", name},     {"gpus", gpus},     {"steps", steps},
          {"wall_s", wall},   {"events", events}, {"events_per_s", wall > 0.0 ? static_cast<double>(events) / wall : 0.0}};
}

mc::ClusterConfig cluster(int nodes, mw::TrainingJobSpec job) {
  mc::ClusterConfig c;
  c.node = models::hardware::hgx_h100();
  c.nodes = nodes;
  c.nodes_per_rack = 4;
  job.job.nodes = nodes;
  job.fabric.nics_per_node = c.node.compute_nics;
  job.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  c.training_jobs.push_back(std::move(job));
  return c;
}

struct FlowRun {
  std::uint64_t flows = 0;
  std::uint64_t graph_steps = 0;
};

// Runs cluster `c` to the end in flow mode on `topology` (cluster node i is fabric host i).
FlowRun run_in_flow_mode(const mc::ClusterConfig& c, const models::ModelRegistries& reg, net::Topology topology,
                         sim::Simulator& sim) {
  net::Fabric fabric(std::move(topology), net::FabricOptions{});
  sim::DiscardTraceSink sink;
  net::FabricSimulation driver(sim, fabric, nullptr);
  mc::ClusterSimulation model(c, reg, sim, sink);
  std::vector<net::NodeId> hosts(static_cast<std::size_t>(c.nodes));
  for (int i = 0; i < c.nodes; ++i) hosts[static_cast<std::size_t>(i)] = static_cast<net::NodeId>(i);
  mc::TrainingFabric training(sim, driver, std::move(hosts));
  model.connect({.training_fabric = &training});
  model.start();
  sim.run();
  model.finish();
  return {training.flows_started(), training.steps_executed()};
}

nlohmann::json flow_case(const models::ModelRegistries& reg) {
  const int nodes = 128, steps = 1000;
  const auto start = Clock::now();
  mw::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.micro_batch_size = 8;
  t.steps = steps;
  const mc::ClusterConfig c = cluster(nodes, t);
  // Non-blocking leaf-spine: 16 leaves of 8 hosts, each host's 8 x 400G NICs as one bonded
  // link (so a node's 8 per-NIC flows share them evenly, as NCCL's channels pinned to NICs do),
  // 64 spines of 400G links, ECMP per flow (queue-pair hashing) on the uplinks: collisions
  // there are real, spraying would be the ideal upper bound.
  net::TopologyConfig topo;
  topo.leaves = 16;
  topo.hosts_per_leaf = 8;
  topo.links_per_node = c.node.compute_nics;
  topo.link_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  topo.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  sim::Simulator sim;
  const FlowRun run = run_in_flow_mode(c, reg, net::build_leaf_spine(topo), sim);
  auto r = result("dp-1024-gpus-flow", nodes * 8, steps, start, sim);
  r["fabric_flows"] = run.flows;
  r["graph_steps"] = run.graph_steps;
  r["simulated_s"] = sim.now().seconds();
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms);
  r["analytic_step_time_s"] = plan.step.step_time_s;
  r["step_time_s"] = sim.now().seconds() / steps;
  return r;
}

nlohmann::json analytic_case(const models::ModelRegistries& reg) {
  const int nodes = 2048;
  const auto start = Clock::now();
  mw::TrainingJobSpec t;
  t.job.name = "llama3-70b";
  t.job.model = reg.training_models.get("llama3-70b").factory();
  t.job.parallelism.tp = 8;
  t.job.parallelism.pp = 4;
  t.job.parallelism.zero_stage = 1;
  t.job.micro_batch_size = 1;
  t.steps = 1'000'000;  // more than a day holds: the run stops at the day
  t.checkpoint.interval_steps = 50;
  const mc::ClusterConfig c = cluster(nodes, t);
  sim::Simulator sim;
  sim::DiscardTraceSink sink;
  mc::ClusterSimulation model(c, reg, sim, sink);
  model.start();
  sim.run_until(sim::Time::from_seconds(86'400.0));
  model.finish();
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms);
  // Steps in the day: checkpoints included.
  const double cycle_s = 50 * plan.step.step_time_s + plan.checkpoint_s;
  auto r = result("llama3-70b-16384-gpus-analytic", nodes * 8, 86'400.0 / cycle_s * 50, start, sim);
  r["step_time_s"] = plan.step.step_time_s;
  r["simulated_s"] = sim.now().seconds();
  return r;
}

// A three-tier rail-optimised fabric of 128-port switches (SN5600 in 2 x 400G breakout) for
// `nodes` nodes like `node`, one 400G rail per NIC.
net::TopologyConfig rail_fabric(int nodes, const models::hardware::NodeSpec& node) {
  net::TopologyConfig topo;
  topo.nodes = nodes;
  topo.nics_per_node = node.compute_nics;
  topo.link_bandwidth_bps = node.compute_nic_bandwidth_bps;
  topo.tier_radix = {128, 128, 128};
  topo.tier_model = {"nvidia_sn5600", "nvidia_sn5600", "nvidia_sn5600"};
  return topo;
}

// Runs job `t` (one step) on `nodes` HGX nodes in flow mode on rail_fabric(): the flow-step
// cases' result, with the flows, their wall time each, peak RSS and both step times.
nlohmann::json one_flow_step(const models::ModelRegistries& reg, const mw::TrainingJobSpec& t, int nodes,
                             const std::string& name, Clock::time_point start) {
  const mc::ClusterConfig c = cluster(nodes, t);
  sim::Simulator sim;
  const FlowRun run = run_in_flow_mode(c, reg, net::build_rail_optimized(rail_fabric(nodes, c.node)), sim);
  auto r = result(name, nodes * 8, 1, start, sim);
  r["flows"] = run.flows;
  r["wall_us_per_flow"] = r["wall_s"].get<double>() / static_cast<double>(std::max<std::uint64_t>(run.flows, 1)) * 1e6;
  r["peak_rss_mb"] = peak_rss_mb();
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms);
  r["analytic_step_time_s"] = plan.step.step_time_s;
  r["step_time_s"] = sim.now().seconds();
  return r;
}

// flow-step-N-gpus: one step of a Llama-3-405B-style job (TP 8 x PP 16 x DP N / 128, ZeRO 1,
// full recomputation, 16 micro-batches of one 8K sequence per replica: Llama 3's 405B layout)
// in flow mode on a three-tier rail-optimised fabric of 128-port switches (SN5600 in 2x400G
// breakout): every pipeline send between nodes and every DP collective as its flows (one per
// NIC per node-to-node transfer, a ring's lock-step steps as one flow per edge); TP stays in
// the NVLink domain. Wall time covers building the fabric, planning and running the step.
nlohmann::json flow_step_case(const models::ModelRegistries& reg, int nodes) {
  reset_peak_rss();
  const auto start = Clock::now();
  mw::TrainingJobSpec t;
  t.job.name = "llama3-405b";
  t.job.model = reg.training_models.get("llama3-405b").factory();
  t.job.parallelism.tp = 8;
  t.job.parallelism.pp = 16;
  t.job.parallelism.zero_stage = 1;
  t.job.recompute = mw::Recompute::kFull;
  t.job.micro_batch_size = 1;
  t.job.global_batch_sequences = 16 * (nodes * 8 / 128);
  t.steps = 1;
  return one_flow_step(reg, t, nodes, "flow-step-" + std::to_string(nodes * 8) + "-gpus", start);
}

// moe-flow-step-N-gpus: one step of a DeepSeek-V3 job as DeepSeek trained it (TP 1 x PP 16 x
// EP 64 over 8 nodes, FP8 with FP8 dispatch, node-limited routing to 4 nodes, full
// recomputation so that it fits an 80 GB H100) with 16 micro-batches per replica, in flow mode on
// the rail-optimised fabric of flow-step-N-gpus: every MoE layer's all-to-alls as flows between
// the 8 nodes of each EP group (one per rail per node pair and direction), plus the pipeline
// sends and DP collectives. Wall time covers building the fabric, planning and running the step.
nlohmann::json moe_flow_step_case(const models::ModelRegistries& reg, int nodes) {
  reset_peak_rss();
  const auto start = Clock::now();
  mw::TrainingJobSpec t;
  t.job.name = "deepseek-v3";
  t.job.model = reg.training_models.get("deepseek-v3").factory();
  t.job.parallelism.pp = 16;
  t.job.parallelism.ep = 64;
  t.job.parallelism.distributed_optimizer = true;
  t.job.precision = models::compute::Precision::kFp8;
  t.job.moe_max_nodes_per_token = 4;
  t.job.recompute = mw::Recompute::kFull;
  t.job.micro_batch_size = 1;
  t.job.global_batch_sequences = 16 * (nodes * 8 / 16);
  t.steps = 1;
  return one_flow_step(reg, t, nodes, "moe-flow-step-" + std::to_string(nodes * 8) + "-gpus", start);
}

}  // namespace

nlohmann::json run_training_bench(const std::vector<std::string>& names) {
  models::ModelRegistries reg;
  models::register_builtin_models(reg);
  const std::vector<std::string> defaults{"dp-1024-gpus-flow",       "llama3-70b-16384-gpus-analytic",
                                          "flow-step-16384-gpus",    "flow-step-131072-gpus",
                                          "moe-flow-step-2048-gpus", "moe-flow-step-16384-gpus"};
  static const std::regex flow_step("flow-step-([0-9]{1,7})-gpus");
  static const std::regex moe_flow_step("moe-flow-step-([0-9]{1,7})-gpus");
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& name : names.empty() ? defaults : names) {
    std::smatch m;
    if (name == "dp-1024-gpus-flow") {
      out.push_back(flow_case(reg));
    } else if (name == "llama3-70b-16384-gpus-analytic") {
      out.push_back(analytic_case(reg));
    } else if (std::regex_match(name, m, flow_step) && std::stol(m[1]) % 1024 == 0 && std::stol(m[1]) >= 1024 &&
               std::stol(m[1]) <= 131'072) {
      out.push_back(flow_step_case(reg, static_cast<int>(std::stol(m[1]) / 8)));
    } else if (std::regex_match(name, m, moe_flow_step) && std::stol(m[1]) % 1024 == 0 && std::stol(m[1]) >= 1024 &&
               std::stol(m[1]) <= 131'072) {
      out.push_back(moe_flow_step_case(reg, static_cast<int>(std::stol(m[1]) / 8)));
    } else {
      throw sim::InputError("unknown training bench case '" + name +
                            "'; expected dp-1024-gpus-flow, llama3-70b-16384-gpus-analytic, flow-step-N-gpus "
                            "(N a multiple of 1,024 from 1,024 to 131,072: about 4.3 GB at the top) or "
                            "moe-flow-step-N-gpus (N a multiple of 1,024 from 1,024 to 131,072)");
    }
  }
  return out;
}

}  // namespace dcsim::tools::bench
