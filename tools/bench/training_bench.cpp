#include "tools/bench/training_bench.hpp"

#include <chrono>
#include <string>
#include <vector>

#include "models/datacenter/cluster_simulation.hpp"
#include "models/datacenter/training_fabric.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/discard_trace_sink.hpp"
#include "sim/simulator.hpp"

namespace dcsim::tools::bench {

namespace {

namespace dc = models::datacenter;
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

dc::ClusterConfig cluster(int nodes, mw::TrainingJobSpec job) {
  dc::ClusterConfig c;
  c.node = models::hardware::hgx_h100();
  c.nodes = nodes;
  c.nodes_per_rack = 4;
  job.job.nodes = nodes;
  job.fabric.nics_per_node = c.node.compute_nics;
  job.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  c.training_jobs.push_back(std::move(job));
  return c;
}

nlohmann::json flow_case(const models::ModelRegistries& reg) {
  const int nodes = 128, steps = 1000;
  const auto start = Clock::now();
  mw::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.micro_batch_size = 8;
  t.steps = steps;
  const dc::ClusterConfig c = cluster(nodes, t);
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
  net::Fabric fabric(net::build_leaf_spine(topo), net::FabricOptions{});
  sim::Simulator sim;
  sim::DiscardTraceSink sink;
  net::FabricSimulation driver(sim, fabric, nullptr);
  dc::ClusterSimulation model(c, reg, sim, sink);
  std::vector<net::NodeId> hosts(nodes);
  for (int i = 0; i < nodes; ++i) hosts[static_cast<std::size_t>(i)] = static_cast<net::NodeId>(i);
  dc::TrainingFabric training(sim, driver, std::move(hosts));
  model.set_training_fabric(&training);
  model.start();
  sim.run();
  model.finish();
  auto r = result("dp-1024-gpus-flow", nodes * 8, steps, start, sim);
  r["fabric_flows"] = training.flows_started();
  r["graph_steps"] = training.steps_executed();
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
  const dc::ClusterConfig c = cluster(nodes, t);
  sim::Simulator sim;
  sim::DiscardTraceSink sink;
  dc::ClusterSimulation model(c, reg, sim, sink);
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

}  // namespace

nlohmann::json run_training_bench() {
  models::ModelRegistries reg;
  models::register_builtin_models(reg);
  return nlohmann::json::array({flow_case(reg), analytic_case(reg)});
}

}  // namespace dcsim::tools::bench
