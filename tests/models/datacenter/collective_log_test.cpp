// Flow mode logs every fabric transfer of every step (collective_log.hpp): bytes in = bytes out
// (a step's rows carry exactly the bytes its graph puts on the fabric), each row inside its step,
// and past the cap rows are counted, not kept.

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <variant>

#include "models/cluster/collective_log.hpp"
#include "models/datacenter/datacenter.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/step_graph.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::cluster::CollectiveLog;
using dcsim::models::datacenter::Datacenter;
using dcsim::models::datacenter::DatacenterConfig;
using dcsim::tests::builtin;
namespace mw = dcsim::models::workload;
namespace net = dcsim::models::network;

namespace {

// llama3-8b at TP 8 x PP 2 on 4 nodes (DP 2), 4 micro-batches, 3 steps, on a non-blocking
// sprayed leaf-spine: pipeline sends and DP gradient chunks on the fabric.
DatacenterConfig pipeline_job(const dcsim::models::ModelRegistries& reg) {
  const auto node = dcsim::models::hardware::hgx_h100();
  mw::TrainingJobSpec t;
  t.job.name = "llama";
  t.job.model = reg.training_models.get("llama3-8b").factory();
  t.job.nodes = 4;
  t.job.parallelism.tp = 8;
  t.job.parallelism.pp = 2;
  t.job.global_batch_sequences = 8;
  t.fabric.nics_per_node = node.compute_nics;
  t.fabric.nic_bandwidth_bps = node.compute_nic_bandwidth_bps;
  t.steps = 3;
  DatacenterConfig c;
  c.cluster.emplace();
  c.cluster->node = node;
  c.cluster->nodes = 4;
  c.cluster->nodes_per_rack = 4;
  c.cluster->training_jobs.push_back(t);
  net::FabricRunConfig f;
  f.topology = "leaf_spine";
  f.topology_config.leaves = 2;
  f.topology_config.hosts_per_leaf = 2;
  f.topology_config.links_per_node = 8;
  f.topology_config.link_bandwidth_bps = 400e9;
  f.options.routing.mode = net::RoutingMode::kSpray;
  c.fabric = f;
  return c;
}

template <class T>
T cell(const dcsim::sim::MemoryTraceSink::Table& t, const std::vector<dcsim::sim::Cell>& row, const std::string& name) {
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == name) return std::get<T>(row[i]);
  }
  FAIL("no column " << name);
  return T{};
}

}  // namespace

TEST_CASE("every fabric transfer of every step is logged with its bytes, inside its step",
          "[models][datacenter][training][flow]") {
  const auto reg = builtin();
  DatacenterConfig config = pipeline_job(reg);
  const mw::TrainingJobSpec spec = config.cluster->training_jobs.front();
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  Datacenter datacenter(config, reg, sim, sink);
  datacenter.start();
  sim.run();
  datacenter.finish();

  // What one step's graph puts on the fabric.
  const auto plan = mw::plan_training_job(spec, config.cluster->node, reg.collective_algorithms);
  const auto graph = mw::build_step_graph(plan.job, plan.step, config.cluster->node, plan.fabric,
                                          reg.collective_algorithms, plan.graph_options);
  double graph_bytes = 0.0;
  std::size_t transfers = 0;
  std::map<std::string, int> kinds;
  for (const auto& task : graph.tasks) {
    if (task.kind != mw::StepTaskKind::kFabric || task.flows.empty()) continue;
    ++transfers;
    for (const auto& f : task.flows) graph_bytes += f.bytes;
  }
  REQUIRE(transfers > 0);

  const auto& t = sink.table("training_collectives");
  REQUIRE(t.rows.size() == 3 * transfers);
  std::map<std::int64_t, double> bytes_per_step;
  std::map<std::int64_t, std::int64_t> last_end_per_step;
  for (const auto& row : t.rows) {
    const auto step = cell<std::int64_t>(t, row, "step");
    bytes_per_step[step] += cell<double>(t, row, "bytes");
    ++kinds[cell<std::string>(t, row, "kind")];
    last_end_per_step[step] =
        std::max(last_end_per_step[step], cell<std::int64_t>(t, row, "time_ns") + cell<std::int64_t>(t, row, "duration_ns"));
  }
  CHECK(bytes_per_step.size() == 3);
  for (const auto& [step, bytes] : bytes_per_step) CHECK(bytes == Approx(graph_bytes));
  // A pipeline: sends between the stages; DP 2: gradient chunks.
  CHECK(kinds["pp"] > 0);
  CHECK(kinds["dp_grad"] > 0);
  // Steps follow each other: step n's transfers all end before step n + 1's last one.
  CHECK(last_end_per_step[1] < last_end_per_step[2]);
  CHECK(last_end_per_step[2] < last_end_per_step[3]);
  CHECK(std::get<std::int64_t>(sink.summary("training/collectives_recorded").value) ==
        static_cast<std::int64_t>(t.rows.size()));
}

TEST_CASE("past its cap the collective log counts rows instead of keeping them", "[models][datacenter]") {
  dcsim::sim::MemoryTraceSink sink;
  CollectiveLog log(sink, 2);
  mw::StepTask task;
  task.kind = mw::StepTaskKind::kFabric;
  task.role = mw::StepTaskRole::kPp;
  task.flows = {{0, 1, 100.0, -1}, {1, 0, 50.0, -1}};
  for (int i = 0; i < 5; ++i) log.record("j", 1, task, Time::from_ns(10 * i), Time::from_ns(10 * i + 7));
  log.finish();
  const auto& t = sink.table("training_collectives");
  REQUIRE(t.rows.size() == 2);
  CHECK(cell<double>(t, t.rows[0], "bytes") == 150.0);
  CHECK(cell<std::int64_t>(t, t.rows[1], "duration_ns") == 7);
  CHECK(cell<std::string>(t, t.rows[0], "kind") == "pp");
  CHECK(std::get<std::int64_t>(sink.summary("training/collectives_omitted").value) == 3);
}
