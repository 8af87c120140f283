#pragma once
// A small cluster whose numbers are easy to do by hand, and a run harness around
// ClusterSimulation: shared by the cluster and the scheduling-policy tests.

#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>

#include "models/cluster/cluster_simulation.hpp"
#include "models/model_registries.hpp"
#include "models/network/topology_builders.hpp"
#include "models/workload/training_job.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"
#include "tests/table_test_support.hpp"

using dcsim::models::ModelRegistries;
using dcsim::models::cluster::ClusterConfig;
using dcsim::models::cluster::ClusterSimulation;
using dcsim::models::workload::JobSpec;
using dcsim::sim::Time;

namespace dcsim::tests {

inline ModelRegistries builtin() {
  ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

// Leaf-spine of `hosts` hosts, `hosts_per_leaf` per leaf, each host's 8 x 400G NICs bundled
// into one link (an HGX node's compute NICs): the training-on-a-fabric tests' network.
inline models::network::Topology leaf_spine(int hosts, double oversubscription = 1.0, int hosts_per_leaf = 2) {
  models::network::TopologyConfig t;
  t.leaves = (hosts + hosts_per_leaf - 1) / hosts_per_leaf;
  t.hosts_per_leaf = hosts_per_leaf;
  t.nics_per_node = 1;
  t.links_per_node = 8;
  t.bundle_parallel_links = true;
  t.link_bandwidth_bps = 400e9;
  t.nic_bandwidth_bps = 400e9;
  t.oversubscription = oversubscription;
  return models::network::build_leaf_spine(t);
}

// A node whose power is easy to do by hand: P(u) = 150 + 500 u watts.
inline ClusterConfig simple_cluster(int nodes) {
  ClusterConfig c;
  c.node.gpus = 1;
  c.node.gpu.idle_power_w = 100;
  c.node.gpu.max_power_w = 500;
  c.node.other_idle_power_w = 50;
  c.node.other_max_power_w = 150;
  c.nodes = nodes;
  c.nodes_per_rack = 1;
  return c;
}

inline JobSpec job(std::string name, Time arrival, int nodes, Time work, double util) {
  JobSpec j;
  j.name = std::move(name);
  j.arrival = arrival;
  j.nodes = nodes;
  j.work = work;
  j.gpu_utilization = util;
  return j;
}

struct Run {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  ModelRegistries registries = builtin();
  std::unique_ptr<ClusterSimulation> model;
  // `wire` connects the model before it starts (fabric groups, node conditions, ...).
  explicit Run(ClusterConfig c, const std::function<void(ClusterSimulation&)>& wire = {}) {
    model = std::make_unique<ClusterSimulation>(std::move(c), registries, sim, sink);
    if (wire) wire(*model);
    model->start();
  }
  void to_end() {
    sim.run();
    model->finish();
  }
  double summary(const std::string& path) const {
    return std::get<double>(sink.summary(path).value);
  }
  double finish_of(const std::string& name) const { return column_of(name, "finish_s"); }
  double start_of(const std::string& name) const { return column_of(name, "start_s"); }
  // A cell of the per-job event table (every job, placement details included).
  dcsim::sim::Cell event_cell(const std::string& name, const std::string& column) const {
    return row_cell(sink, "jobs", name, column);
  }
  double column_of(const std::string& name, const std::string& column) const {
    return std::get<double>(row_cell(sink, "summary/jobs", name, column));
  }
};

// A cluster whose first training job's step and checkpoint times (T, C) are known before it
// runs, with things done to it at given times: for tests that work times out by hand.
struct TimedRun {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  ModelRegistries reg = builtin();
  std::unique_ptr<ClusterSimulation> model;
  double T = 0, C = 0;  // the first training job's step and checkpoint times (0 without one)

  void build(ClusterConfig c) {
    if (!c.training_jobs.empty()) {
      const auto plan =
          dcsim::models::workload::plan_training_job(c.training_jobs.front(), c.node, reg.collective_algorithms);
      T = plan.step.step_time_s;
      C = plan.checkpoint_s;
    }
    model = std::make_unique<ClusterSimulation>(std::move(c), reg, sim, sink);
    model->start();
  }
  void at(double t_s, std::function<void(ClusterSimulation&)> what) {
    sim.at(Time::from_seconds(t_s), [this, what] { what(*model); }, dcsim::sim::Priority::kFirst);
  }
  void to_end() {
    sim.run();
    model->finish();
  }
  double num(const std::string& job, const std::string& column) const {
    return std::get<double>(row_cell(sink, "jobs", job, column));
  }
  std::int64_t count(const std::string& path) const { return std::get<std::int64_t>(sink.summary(path).value); }
  double summary(const std::string& path) const { return std::get<double>(sink.summary(path).value); }
};

}  // namespace dcsim::tests
