// Training jobs on a shared simulated fabric (flow mode, models/cluster/training_fabric.hpp):
// every step runs as its step graph with PP and DP traffic as flows, so jobs sharing links slow
// each other.
#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "models/cluster/cluster_simulation.hpp"
#include "models/cluster/training_fabric.hpp"
#include "models/cluster/training_job_run.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "models/power/node_power.hpp"
#include "models/workload/training_job.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::ModelRegistries;
using dcsim::models::cluster::ClusterConfig;
using dcsim::models::cluster::ClusterSimulation;
using dcsim::models::cluster::TrainingFabric;
namespace mw = dcsim::models::workload;
namespace net = dcsim::models::network;

namespace {

ModelRegistries builtin() {
  ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

// BERT-Large, micro-batch 8, data parallel on 3 HGX H100 nodes (bert-large-links.json's job):
// about 2% of its step is exposed DP communication on 8 x 400G, so fabric slowdowns show.
mw::TrainingJobSpec bert_job(const ModelRegistries& reg, const ClusterConfig& c, const std::string& name) {
  mw::TrainingJobSpec t;
  t.job.name = name;
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.nodes = 3;
  t.job.micro_batch_size = 8;
  t.steps = 50;
  t.fabric.nics_per_node = c.node.compute_nics;
  t.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  return t;
}

// 3 leaves of 2 hosts, each host's 8 x 400G NICs as one bundle. Cluster nodes 0-2 (job a) and
// 3-5 (job b) map to hosts in order, so both jobs have a node on leaf 1 and their ring edges
// leaving and entering leaf 1 share its uplinks.
net::Topology leaf_spine(double oversubscription) { return dcsim::tests::leaf_spine(6, oversubscription); }

struct Result {
  double a_step_s = 0.0;
  double b_step_s = 0.0;
};

double cell(const dcsim::sim::MemoryTraceSink& sink, std::size_t row, const std::string& column) {
  const auto& table = sink.table("summary/jobs");
  REQUIRE(row < table.rows.size());
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == column) return std::get<double>(table.rows[row][i]);
  }
  FAIL("no column " << column);
  return 0.0;
}

Result run(const ModelRegistries& reg, double oversubscription, int jobs) {
  ClusterConfig c;
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = 6;
  c.nodes_per_rack = 6;
  for (int j = 0; j < jobs; ++j) c.training_jobs.push_back(bert_job(reg, c, j == 0 ? "a" : "b"));
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  net::FabricOptions spray;  // packet spraying: no ECMP collisions, only shared capacity
  spray.routing.mode = net::RoutingMode::kSpray;
  net::Fabric fabric(leaf_spine(oversubscription), spray);
  net::FabricSimulation driver(sim, fabric, nullptr);
  ClusterSimulation cluster(c, reg, sim, sink);
  TrainingFabric training(sim, driver, {0, 1, 2, 3, 4, 5});
  cluster.connect({.training_fabric = &training});
  cluster.start();
  sim.run();
  cluster.finish();
  Result r;
  r.a_step_s = cell(sink, 0, "step_time_s");
  if (jobs > 1) r.b_step_s = cell(sink, 1, "step_time_s");
  return r;
}

}  // namespace

TEST_CASE("on a non-blocking fabric with spraying the flow-mode step agrees with the analytic one",
          "[models][datacenter][training][flow]") {
  const auto reg = builtin();
  ClusterConfig c;
  c.node = dcsim::models::hardware::hgx_h100();
  const auto plan = mw::plan_training_job(bert_job(reg, c, "a"), c.node, reg.collective_algorithms);
  // Nothing shares a link and spraying fills the spine evenly: the ring's flows run at the NICs'
  // line rate, as the closed form assumes, so the DP scale is 1 up to route latency.
  const Result alone = run(reg, 1.0, 1);
  CHECK(alone.a_step_s == Approx(plan.step.step_time_s).epsilon(0.02));
}

TEST_CASE("two jobs on one oversubscribed fabric each run slower than alone",
          "[models][datacenter][training][flow]") {
  const auto reg = builtin();
  const Result alone = run(reg, 4.0, 1);
  const Result both = run(reg, 4.0, 2);
  // Alone, job a's edges leaving leaves 0 and 1 each get 2 hosts x 3.2 Tb/s / 4 = 1.6 Tb/s of
  // uplink; together, leaf 1's uplinks also carry job b's edge 3 -> 4 (and its downlinks b's
  // 5 -> 3), so each crossing edge gets half of that: the DP all_reduce stretches, and more of
  // it outlasts the backward pass.
  INFO("alone " << alone.a_step_s << " s, together " << both.a_step_s << " / " << both.b_step_s << " s");
  CHECK(both.a_step_s > alone.a_step_s * 1.01);
  CHECK(both.b_step_s > alone.a_step_s * 1.01);  // job b alone is job a's mirror image
  // And the oversubscribed fabric alone already costs job a time against a non-blocking one.
  CHECK(alone.a_step_s > run(reg, 1.0, 1).a_step_s);
}

TEST_CASE("in flow mode a job's power follows each measured step's phases",
          "[models][datacenter][training][flow][power]") {
  const auto reg = builtin();
  ClusterConfig c;
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = 6;
  c.nodes_per_rack = 6;
  c.training_jobs.push_back(bert_job(reg, c, "a"));
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms);
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  net::FabricOptions spray;
  spray.routing.mode = net::RoutingMode::kSpray;
  net::Fabric fabric(leaf_spine(4.0), spray);
  net::FabricSimulation driver(sim, fabric, nullptr);
  ClusterSimulation cluster(c, reg, sim, sink);
  TrainingFabric training(sim, driver, {0, 1, 2, 3, 4, 5});
  cluster.connect({.training_fabric = &training});
  cluster.start();
  sim.run();
  cluster.finish();
  // The first step runs at the plan's mean activity; every later one at the activity of the
  // step measured before it. The oversubscribed fabric exposes more communication than the plan
  // (a ring edge gets 1.6 of 3.2 Tb/s), so the measured activity is lower.
  const auto activities = dcsim::models::power::phase_activities(c.gpu_phase_power, c.node.gpu);
  const double u_plan = dcsim::models::cluster::step_gpu_activity(activities, plan.step);
  const double step_s = cell(sink, 0, "step_time_s");
  const double u_step =
      dcsim::models::cluster::step_gpu_activity(activities, cell(sink, 0, "compute_s"),
                                                dcsim::models::cluster::step_memory_bound_s(plan.step),
                                                cell(sink, 0, "exposed_comm_s"), cell(sink, 0, "bubble_s"));
  CHECK(u_step < u_plan);
  // Energy by hand (identical steps on a quiet fabric): 3 busy nodes, one step at P(u_plan) and
  // 49 at P(u_step), 3 idle nodes throughout (node_power.hpp's linear model).
  const auto p = [&](double u) { return dcsim::models::power::node_power_w(c.node, u); };
  const double run_s = 50 * step_s;
  const double expected_j = 3 * (step_s * p(u_plan) + 49 * step_s * p(u_step)) + 3 * run_s * p(0.0);
  CHECK(std::get<double>(sink.summary("energy/it_kwh").value) * 3.6e6 == Approx(expected_j).epsilon(1e-6));
}
