// Flow mode: training steps executed as their step graph (models/cluster/step_executor.hpp)
// on a simulated fabric agree with the closed form when nothing is shared, slow down when the
// fabric is, and follow the GPU clock in flight.
#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "models/cluster/cluster_simulation.hpp"
#include "models/cluster/step_executor.hpp"
#include "models/cluster/training_fabric.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/topology_builders.hpp"
#include "models/workload/training_job.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::ModelRegistries;
using dcsim::models::cluster::ClusterConfig;
using dcsim::models::cluster::ClusterSimulation;
using dcsim::models::cluster::StepExecutor;
using dcsim::models::cluster::StepMeasurement;
using dcsim::models::cluster::TrainingFabric;
namespace mw = dcsim::models::workload;
namespace net = dcsim::models::network;

namespace {

constexpr double kAgreeTol = 0.02;  // issue 4: flow and analytic modes within 2%
constexpr double kNsTol = 1e-6;     // relative: task ends are rounded up to whole ns

ModelRegistries builtin() {
  ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

const dcsim::models::hardware::NodeSpec& node() {
  static const auto n = dcsim::models::hardware::hgx_h100();
  return n;
}

mw::TrainingJobSpec spec(const ModelRegistries& reg, const std::string& model, int nodes) {
  mw::TrainingJobSpec t;
  t.job.name = model;
  t.job.model = reg.training_models.get(model).factory();
  t.job.nodes = nodes;
  t.fabric.nics_per_node = node().compute_nics;
  t.fabric.nic_bandwidth_bps = node().compute_nic_bandwidth_bps;
  return t;
}

mw::TrainingJobSpec bert(const ModelRegistries& reg, int zero = 0) {
  mw::TrainingJobSpec t = spec(reg, "bert-large", 3);
  t.job.micro_batch_size = 8;
  t.job.parallelism.zero_stage = zero;
  return t;
}

// llama3-8b, TP 8 x PP 4 x DP 2 on 8 nodes, 8 micro-batches.
mw::TrainingJobSpec llama_3d(const ModelRegistries& reg) {
  mw::TrainingJobSpec t = spec(reg, "llama3-8b", 8);
  t.job.parallelism.tp = 8;
  t.job.parallelism.pp = 4;
  t.job.global_batch_sequences = 16;
  return t;
}

// Non-blocking leaf-spine, 2 hosts per leaf, each host's 8 x 400G NICs bundled into one link:
// with spraying every flow gets its fair share of the NICs, nothing else limits it.
using dcsim::tests::leaf_spine;

net::FabricOptions spray() {
  net::FabricOptions o;
  o.routing.mode = net::RoutingMode::kSpray;
  return o;
}

struct Executed {
  StepMeasurement first;
  StepMeasurement second;
  std::uint64_t flows = 0;
};

// Runs two steps of `t` on `topology` (job node i = host i), with `before(driver)` applied
// before the first step and the clock factor changed to `clock` at `clock_at_s` if > 0.
template <class Before>
Executed execute(const ModelRegistries& reg, const mw::TrainingJobSpec& t, net::Topology topology,
                 Before before, double clock = 1.0, double clock_at_s = -1.0) {
  const mw::TrainingJobPlan plan = mw::plan_training_job(t, node(), reg.collective_algorithms);
  const mw::StepGraph graph = mw::build_step_graph(plan.job, plan.step, node(), plan.fabric,
                                                   reg.collective_algorithms, plan.graph_options);
  dcsim::sim::Simulator sim;
  net::Fabric fabric(std::move(topology), spray());
  net::FabricSimulation driver(sim, fabric, nullptr);
  before(driver);
  std::vector<net::NodeId> hosts;
  std::vector<int> nodes;
  for (int i = 0; i < t.job.nodes; ++i) {
    hosts.push_back(static_cast<net::NodeId>(i));
    nodes.push_back(i);
  }
  TrainingFabric tf(sim, driver, hosts);
  StepExecutor exec(graph, tf, nodes, 1.0);
  Executed out;
  exec.run_step([&](const StepMeasurement& m) {
    out.first = m;
    exec.run_step([&](const StepMeasurement& m2) { out.second = m2; });
  });
  if (clock_at_s > 0.0) {
    sim.at(dcsim::sim::Time::from_seconds(clock_at_s), [&] { exec.set_clock_factor(clock); });
  }
  sim.run();
  out.flows = tf.flows_started();
  return out;
}

auto nothing = [](net::FabricSimulation&) {};

}  // namespace

TEST_CASE("on a non-blocking sprayed fabric executed steps agree with the closed form",
          "[models][datacenter][training][flow]") {
  const auto reg = builtin();
  SECTION("data parallel bert-large on 3 nodes") {
    const auto t = bert(reg);
    const auto plan = mw::plan_training_job(t, node(), reg.collective_algorithms);
    const Executed e = execute(reg, t, leaf_spine(3), nothing);
    CHECK(e.first.step_s == Approx(plan.step.step_time_s).epsilon(kAgreeTol));
    CHECK(e.second.step_s == Approx(e.first.step_s).epsilon(kNsTol));  // steps repeat
    CHECK(e.flows > 0);
    // The breakdown adds up to the step, and the DP-only job has no bubble.
    CHECK(e.first.compute_s + e.first.exposed_comm_s + e.first.bubble_s ==
          Approx(e.first.step_s).epsilon(kNsTol));
    CHECK(e.first.bubble_s == Approx(0.0).margin(1e-6));
    CHECK(e.first.compute_s == Approx(plan.step.compute_s).epsilon(kNsTol));
  }
  SECTION("tp 8 x pp 4 x dp 2 llama3-8b: the 1F1B bubble emerges") {
    const auto t = llama_3d(reg);
    const auto plan = mw::plan_training_job(t, node(), reg.collective_algorithms);
    const Executed e = execute(reg, t, leaf_spine(8), nothing);
    CHECK(e.first.step_s == Approx(plan.step.step_time_s).epsilon(kAgreeTol));
    // The breakdown is the critical stream's, stage 0's (its last backward ends the pipeline):
    // its own m forwards and backwards are the compute. The last stage, with the LM head, is
    // the slowest and sets the slot (the step model's compute_s is its m slots).
    const auto& r = plan.step;
    const double m = r.micro_batches;
    CHECK(e.first.compute_s == Approx(m * (r.stage_forward_s[0] + r.stage_backward_s[0]) + r.optimizer_s).epsilon(kNsTol));
    // What stage 0 does not spend on its own work or its sends is bubble: the fill and drain
    // ((p-1)/(m+p-1) of the pipelined time with equal stages) and the wait for the slow stage.
    const double pipelined = e.first.step_s - r.optimizer_s - r.dp_exposed_s;
    const double own = m * (r.stage_forward_s[0] + r.stage_backward_s[0] + r.stage_comm_s[0] + 2.0 * r.pp_send_s);
    CHECK(e.first.bubble_s / pipelined == Approx(1.0 - own / pipelined).epsilon(0.05));
    CHECK(e.first.bubble_s / pipelined > 3.0 / 11.0);
  }
  SECTION("ZeRO 1 and ZeRO 3 bert-large") {
    for (int zero : {1, 3}) {
      const auto t = bert(reg, zero);
      const auto plan = mw::plan_training_job(t, node(), reg.collective_algorithms);
      const Executed e = execute(reg, t, leaf_spine(3), nothing);
      INFO("zero " << zero);
      CHECK(e.first.step_s == Approx(plan.step.step_time_s).epsilon(kAgreeTol));
    }
  }
}

TEST_CASE("a clock throttled in flight slows compute by exactly the clock ratio",
          "[models][datacenter][training][flow]") {
  const auto reg = builtin();
  // One node, TP 8: forward, TP, backward, TP, optimizer in a chain, no fabric traffic.
  mw::TrainingJobSpec t = spec(reg, "llama3-8b", 1);
  t.job.parallelism.tp = 8;
  const auto plan = mw::plan_training_job(t, node(), reg.collective_algorithms);
  const auto& r = plan.step;
  const Executed nominal = execute(reg, t, leaf_spine(1), nothing);
  CHECK(nominal.first.step_s == Approx(r.step_time_s).epsilon(kNsTol));
  // Half clock from the middle of the first forward: the forward's second half, the backward
  // and the optimizer take twice as long; the TP (NVLink) time does not change.
  const Executed slow = execute(reg, t, leaf_spine(1), nothing, 0.5, r.forward_s / 2);
  const double expected = r.step_time_s + r.forward_s / 2 + r.backward_s + r.optimizer_s;
  CHECK(slow.first.step_s == Approx(expected).epsilon(kNsTol));
  CHECK(slow.first.compute_s == Approx(r.forward_s * 1.5 + 2 * (r.backward_s + r.optimizer_s)).epsilon(kNsTol));
  CHECK(slow.first.exposed_comm_s == Approx(nominal.first.exposed_comm_s).epsilon(kNsTol));
}

TEST_CASE("pipeline traffic crosses the fabric: a slow link between the stages slows the step",
          "[models][datacenter][training][flow]") {
  const auto reg = builtin();
  // TP 8 x PP 2 on 2 nodes: stage 0 on node 0, stage 1 on node 1, each alone on its leaf, so the
  // leaf-spine links carry only the activations and gradients between the stages.
  mw::TrainingJobSpec t = spec(reg, "llama3-8b", 2);
  t.job.parallelism.tp = 8;
  t.job.parallelism.pp = 2;
  const auto plan = mw::plan_training_job(t, node(), reg.collective_algorithms);
  const Executed healthy = execute(reg, t, leaf_spine(2, 1.0, 1), nothing);
  // 8:1 oversubscribed uplinks: each transfer gets 1/8 of the NICs' rate.
  const Executed slow = execute(reg, t, leaf_spine(2, 8.0, 1), nothing);
  INFO("healthy " << healthy.first.step_s << " s, slow uplinks " << slow.first.step_s << " s");
  CHECK(healthy.first.step_s == Approx(plan.step.step_time_s).epsilon(kAgreeTol));
  // 2 x 8 transfers of 8 x 8.4 MB each way on the critical path: 7 more bandwidth terms each.
  const double p2p_bandwidth_s = 8 * (8192.0 * 4096 * 2 / 8) / 0.94 * 8 / 3.2e12;
  CHECK(slow.first.step_s - healthy.first.step_s > 0.5 * 2 * 8 * 7 * p2p_bandwidth_s);
  CHECK(slow.first.exposed_comm_s > healthy.first.exposed_comm_s);
}

TEST_CASE("checkpoints to a store host on the fabric are flows that converge on its link",
          "[models][datacenter][training][flow]") {
  const auto reg = builtin();
  // 2 training nodes and a store (host 2) on a non-blocking leaf-spine; every host has one
  // bundled 8 x 400G link, so the two nodes' writes share the store's 3.2 Tb/s.
  ClusterConfig c;
  c.node = node();
  c.nodes = 2;
  c.nodes_per_rack = 2;
  mw::TrainingJobSpec t = spec(reg, "bert-large", 2);
  t.job.micro_batch_size = 8;
  t.steps = 3;
  t.checkpoint.interval_steps = 1;
  t.checkpoint.target = mw::CheckpointTarget::kRemote;
  t.checkpoint.store_host = 2;
  t.checkpoint.network = mw::CheckpointNetwork::kBackend;  // the store is a host of the training fabric
  c.training_jobs.push_back(t);
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  net::Fabric fabric(leaf_spine(3), spray());
  net::FabricSimulation driver(sim, fabric, nullptr);
  ClusterSimulation cluster(c, reg, sim, sink);
  TrainingFabric tf(sim, driver, {0, 1});
  cluster.connect({.training_fabric = &tf});
  cluster.start();
  sim.run();
  cluster.finish();
  const auto& table = sink.table("summary/jobs");
  REQUIRE(table.rows.size() == 1);
  auto col = [&](const std::string& name) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].name == name) return std::get<double>(table.rows[0][i]);
    }
    FAIL("no column " << name);
    return 0.0;
  };
  const double bytes = mw::checkpoint_bytes(t.job.model);
  CHECK(col("checkpoints") == 2.0);
  // Each checkpoint: the whole state through the store's link at line rate (plus route latency).
  CHECK(col("checkpoint_s") == Approx(2 * bytes * 8 / 3.2e12).epsilon(0.01));
  CHECK(col("checkpoint_bytes") == Approx(2 * bytes));
  // A store host with an NVMe target is a config error naming the key.
  mw::TrainingJobSpec bad = t;
  bad.checkpoint.target = mw::CheckpointTarget::kNvme;
  CHECK_THROWS_AS(mw::plan_training_job(bad, node(), reg.collective_algorithms), dcsim::sim::ConfigError);
}

TEST_CASE("MoE all-to-alls on a rail-optimised fabric stay on the rails; a 4:1 leaf-spine slows them",
          "[models][datacenter][training][flow][moe]") {
  const auto reg = builtin();
  // Mixtral's shape with 16 experts on 8 nodes: PP 4, each stage on 2 nodes with one EP 16 group
  // across them (issue 41). Each GPU's copies for the other node cross on its own rail to the
  // GPU of the same index, so on a rail-optimised fabric (NIC r on rail switch r) every EP flow
  // is one hop on its rail and nothing else shares it: the executed step is the closed form.
  mw::TrainingJobSpec t;
  t.job.name = "mixtral";
  t.job.model = mw::mixtral_8x7b();
  t.job.model.moe.experts = 16;
  t.job.nodes = 8;
  t.job.parallelism.pp = 4;
  t.job.parallelism.ep = 16;
  t.job.parallelism.distributed_optimizer = true;
  t.job.global_batch_sequences = 128;
  t.fabric.nics_per_node = node().compute_nics;
  t.fabric.nic_bandwidth_bps = node().compute_nic_bandwidth_bps;
  const auto plan = mw::plan_training_job(t, node(), reg.collective_algorithms);
  net::TopologyConfig rails;
  rails.nodes = 8;
  rails.nics_per_node = 8;
  rails.link_bandwidth_bps = 400e9;
  const Executed railed = execute(reg, t, net::build_rail_optimized(rails), nothing);
  CHECK(railed.first.step_s == Approx(plan.step.step_time_s).epsilon(kAgreeTol));
  // Every stage has 8 MoE layers: its measured all-to-alls are the closed form's, but for the
  // pipeline sends that share the rails with them now and then (3% here), never less.
  CHECK(railed.first.ep_s >= plan.step.ep_s * (1.0 - kNsTol));
  CHECK(railed.first.ep_s == Approx(plan.step.ep_s).epsilon(0.05));
  // One host per leaf with 4:1 uplinks: every byte between the stage's two nodes crosses the
  // spine at a quarter of the NICs' rate. The critical stage's all-to-alls alone: m micro-batches
  // x its 8 MoE layers x 4 all-to-alls of 33.5 MB per GPU (4,096 tokens x 4,096 x 2 B, top-2,
  // half for the other node) at a GPU's 50 GB/s NIC share take 3 x as long again.
  const Executed slow = execute(reg, t, leaf_spine(8, 4.0, 1), nothing);
  const double nic_s = 8 * 8 * 4 * (4096.0 * 4096 * 2 * 2 * 0.5) / 50e9;
  INFO("rail-optimised " << railed.first.step_s << " s, 4:1 leaf-spine " << slow.first.step_s << " s");
  CHECK(slow.first.step_s - railed.first.step_s > 3.0 * nic_s);
  CHECK(slow.first.exposed_comm_s - railed.first.exposed_comm_s > 3.0 * nic_s);
  CHECK(slow.first.ep_s - railed.first.ep_s > 3.0 * nic_s);
}
