// The cluster's check of NVLink domains (models/cluster/cluster_config.cpp): a domain is whole
// nodes and a cluster whole domains, so every domain-aligned TP group exists; and the schedulers
// place a job's TP groups inside one domain (policy/free_capacity.hpp).

#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "models/cluster/cluster_config.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/policy/cluster_view.hpp"
#include "sim/error.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

TEST_CASE("an NVL72 cluster is whole 18-tray domains of whole trays", "[models][cluster]") {
  ClusterConfig c;
  c.node = dcsim::models::hardware::gb200_nvl72_tray();
  c.nodes = 36;  // two racks
  CHECK_NOTHROW(validate(c));
  c.nodes = 20;  // a rack and 2 trays of another
  CHECK_THROWS_WITH(validate(c), Catch::Contains("whole NVLink domains of 18 nodes (72 GPUs), got 20"));
  c.nodes = 18;
  c.node.gpus = 16;  // 72 is not whole nodes of 16
  CHECK_THROWS_WITH(validate(c), Catch::Contains("multiple of the node's 16 GPUs"));
  // HGX: the domain is the node, so any node count is whole domains.
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = 3;
  CHECK_NOTHROW(validate(c));
}

namespace {

// Two GB200 NVL72 racks of 18 trays (4 GPUs each) running Llama 3 8B with TP 8 (2 trays a group)
// on 18 trays for `steps` steps.
ClusterConfig two_racks_with_llama(const dcsim::models::ModelRegistries& reg, int steps) {
  ClusterConfig c;
  c.node = dcsim::models::hardware::gb200_nvl72_tray();
  c.nodes = 36;
  c.nodes_per_rack = 18;
  dcsim::models::workload::TrainingJobSpec t;
  t.job.name = "llama";
  t.job.model = reg.training_models.get("llama3-8b").factory();
  t.job.nodes = 18;
  t.job.parallelism.tp = 8;
  t.job.micro_batch_size = 1;
  t.steps = steps;
  c.training_jobs.push_back(t);
  return c;
}

// The node ids the jobs table lists for `job`.
std::vector<int> node_list(const dcsim::sim::MemoryTraceSink& sink, const std::string& job) {
  std::istringstream list(std::get<std::string>(dcsim::tests::row_cell(sink, "jobs", job, "node_list")));
  return {std::istream_iterator<int>(list), std::istream_iterator<int>()};
}

}  // namespace

TEST_CASE("on GB200 NVL72 every scheduler keeps a job's TP groups inside one rack", "[models][cluster][nvlink]") {
  // Two racks of 18 trays (4 GPUs each); a one-tray batch job holds tray 0 when Llama 3 8B with
  // TP 8 (2 trays a group) asks for 18 trays. The lowest 18 free trays would put one group on
  // trays 17 and 18, across the racks, where the step model's NVLink TP does not exist: every
  // scheduler takes 8 groups from rack 0 and 1 from rack 1 instead (the cluster throws
  // InternalError on a placement that splits a group, so running through is part of the check).
  const auto registries = dcsim::tests::builtin();
  for (const auto& entry : registries.schedulers.entries()) {
    if (entry.factory(dcsim::sim::Params::defaults(entry.params))->uses_cloud_pool()) continue;
    INFO("scheduler " << entry.name);
    ClusterConfig c = two_racks_with_llama(registries, 2);
    c.scheduler = entry.name;
    c.jobs.push_back(dcsim::tests::job("tray-0", Time::zero(), 1, Time::from_s(100), 1.0));
    c.training_jobs[0].arrival = Time::from_s(1);
    dcsim::tests::Run run(c);
    run.to_end();
    const std::vector<int> nodes = node_list(run.sink, "llama");
    REQUIRE(nodes.size() == 18);
    CHECK(dcsim::models::policy::nvlink_aligned(nodes, 2, 18));
    CHECK(std::count_if(nodes.begin(), nodes.end(), [](int n) { return n >= 18; }) == 2);
    CHECK(run.column_of("llama", "steps_done") == 2.0);
  }
}

TEST_CASE("a hot spare in another rack that splits a TP group is counted, not hidden", "[models][cluster][nvlink]") {
  // Two NVL72 racks, trays 34 and 35 held as hot spares (the highest ids). Llama 3 8B with TP 8
  // (2-tray groups) runs on rack 0's trays 0-17; tray 5 fails and the failover policy swaps in
  // spare 34 of rack 1: the group of trays 4 and 5 now spans both racks, which hot spares do not
  // yet avoid. The run says so: one start with a split group.
  dcsim::tests::TimedRun f;
  ClusterConfig c = two_racks_with_llama(f.reg, 40);
  c.failover = "hot_spares";
  c.failover_params.set_number("spare_fraction", 2.0 / 36.0);
  c.training_jobs[0].checkpoint.interval_steps = 10;
  c.training_jobs[0].checkpoint.target = dcsim::models::workload::CheckpointTarget::kNvme;
  f.build(c);
  f.at(15.5 * f.T + f.C, [](ClusterSimulation& m) { m.set_node_down(5, "gpu"); });
  f.to_end();
  const std::vector<int> nodes = node_list(f.sink, "llama");
  REQUIRE(nodes.size() == 18);
  CHECK(nodes[5] == 34);
  CHECK(f.count("training/jobs/llama/nvlink_split_starts") == 1);
}
