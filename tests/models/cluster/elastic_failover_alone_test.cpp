// Elastic failover alone (models/cluster/elastic_failover.hpp): a host written by hand that lists
// free nodes and records the growths it is asked for; no cluster, no scheduler. The mechanism
// under a real cluster, with its times worked out by hand, is in elastic_failover_test.cpp.

#include <catch2/catch.hpp>

#include <memory>
#include <span>
#include <vector>

#include "models/cluster/elastic_failover.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/workload/training_job.hpp"
#include "sim/error.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::cluster::ElasticFailover;
namespace mw = dcsim::models::workload;

namespace {

struct RecordingHost final : ElasticFailover::Host, dcsim::models::cluster::JobTable {
  struct Growth {
    std::vector<int> nodes;
    const mw::TrainingJobPlan* plan;
    Time delay;
  };
  std::vector<int> free;
  std::vector<int> job_nodes;
  bool is_stepping = true;
  std::vector<Growth> growths;
  std::span<const int> free_nodes() const override { return free; }
  bool running(std::size_t) const override { return true; }
  bool stepping(std::size_t) const override { return is_stepping; }
  const std::vector<int>& nodes(std::size_t) const override { return job_nodes; }
  double step_time_s(std::size_t) const override { return 0.0; }
  int clean_checkpoint(std::size_t, int) const override { return 0; }
  void grow(std::size_t, const std::vector<int>& n, const mw::TrainingJobPlan* plan, Time delay) override {
    growths.push_back({n, plan, delay});
    job_nodes = n;
  }
};

// BERT-Large with TP 8 on 4 HGX H100 nodes: one node is one data-parallel replica (DP 4), a
// column of one node each (no pipeline stages).
struct Fixture {
  ModelRegistries reg = dcsim::tests::builtin();
  dcsim::models::hardware::NodeSpec node = dcsim::models::hardware::hgx_h100();
  std::shared_ptr<const mw::TrainingJobPlan> plan;
  RecordingHost host;
  ElasticFailover elastic{node, reg.collective_algorithms, "elastic", host, host};
  Fixture() {
    mw::TrainingJobSpec t;
    t.job.name = "bert";
    t.job.model = reg.training_models.get("bert-large").factory();
    t.job.nodes = 4;
    t.job.parallelism.tp = 8;
    t.job.micro_batch_size = 1;
    t.job.global_batch_sequences = 48;
    t.steps = 100;
    t.fabric.nics_per_node = node.compute_nics;
    t.fabric.nic_bandwidth_bps = node.compute_nic_bandwidth_bps;
    plan = std::make_shared<const mw::TrainingJobPlan>(mw::plan_training_job(t, node, reg.collective_algorithms));
    host.job_nodes = {0, 1, 2, 3};
  }
};

}  // namespace

TEST_CASE("a job re-forms on the columns a fault left it and grows back onto free nodes",
          "[models][cluster][elastic_failover]") {
  Fixture f;
  // Whole nodes of 8 GPUs, TP 8: DP 4 in four one-node columns. On half nodes: not elastic.
  CHECK(f.elastic.replicas(*f.plan, 8) == 4);
  CHECK(f.elastic.replicas(*f.plan, 4) == 0);
  // Node 1 fails with nothing free: three columns survive.
  CHECK(f.elastic.replicas_available(0, f.plan, f.host.job_nodes, {1}) == 3);
  const auto r = f.elastic.reform(0, "bert", f.plan, f.host.job_nodes, {1}, 3, Time::from_s(60));
  CHECK(r.nodes == std::vector<int>{0, 2, 3});
  CHECK(r.shrunk);
  REQUIRE(r.plan != nullptr);
  CHECK(r.plan->step.dp == 3);
  // The global batch is kept: 12 micro-batches per replica become 16, so a step takes longer.
  CHECK(r.plan->step.step_time_s > f.plan->step.step_time_s);
  f.host.job_nodes = r.nodes;
  // Nothing free: nothing grows.
  f.elastic.try_expand();
  CHECK(f.host.growths.empty());
  // Node 5 frees up: one column more, the job is whole again (its submitted plan: null), after
  // the reconfigure time the re-formation set.
  f.host.free = {5};
  f.elastic.try_expand();
  REQUIRE(f.host.growths.size() == 1);
  CHECK(f.host.growths[0].nodes == std::vector<int>{0, 2, 3, 5});
  CHECK(f.host.growths[0].plan == nullptr);
  CHECK(f.host.growths[0].delay == Time::from_s(60));
  // Whole again: off the shrunk list.
  f.elastic.try_expand();
  CHECK(f.host.growths.size() == 1);
}

TEST_CASE("a shrunk job grows only while it steps, and not after it restarts at full size",
          "[models][cluster][elastic_failover]") {
  Fixture f;
  f.host.free = {};
  const auto r = f.elastic.reform(0, "bert", f.plan, f.host.job_nodes, {1, 2}, 2, Time::from_s(30));
  CHECK(r.nodes == std::vector<int>{0, 3});
  f.host.job_nodes = r.nodes;
  f.host.free = {4};
  f.host.is_stepping = false;  // in its reconfiguration
  f.elastic.try_expand();
  CHECK(f.host.growths.empty());
  f.host.is_stepping = true;
  f.elastic.try_expand();  // one column: three replicas, still shrunk
  REQUIRE(f.host.growths.size() == 1);
  CHECK(f.host.growths[0].nodes == std::vector<int>{0, 3, 4});
  REQUIRE(f.host.growths[0].plan != nullptr);
  CHECK(f.host.growths[0].plan->step.dp == 3);
  f.elastic.restored(0);  // restarted from its checkpoint at full size
  f.host.free = {5};
  f.elastic.try_expand();
  CHECK(f.host.growths.size() == 1);
}

TEST_CASE("a re-formation on replicas the job does not have is a bug", "[models][cluster][elastic_failover]") {
  Fixture f;
  // Four replicas with one node down and none free; none at all.
  CHECK_THROWS_AS(f.elastic.reform(0, "bert", f.plan, f.host.job_nodes, {1}, 4, Time::from_s(60)),
                  dcsim::sim::InternalError);
  CHECK_THROWS_AS(f.elastic.reform(0, "bert", f.plan, f.host.job_nodes, {1}, 0, Time::from_s(60)),
                  dcsim::sim::InternalError);
}
