// Scheduling policies, run through the real cluster (which checks every placement): hand-solved
// cases for each policy, and a contract every registered scheduler must keep.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "models/seams/node_conditions.hpp"
#include "sim/error.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::tests::builtin;
using dcsim::tests::job;
using dcsim::tests::Run;
using dcsim::tests::simple_cluster;
namespace seams = dcsim::models::seams;

namespace {

Time s(double seconds) { return Time::from_seconds(seconds); }

JobSpec estimated(std::string name, double arrival_s, int nodes, double work_s, double estimate_s) {
  JobSpec j = job(std::move(name), s(arrival_s), nodes, s(work_s), 1.0);
  j.estimate = s(estimate_s);
  return j;
}

// The EASY cases (4 one-GPU nodes): A holds 2 nodes for 10 s; the head B needs all 4, so its
// shadow time is 10 s with no extra nodes. C (1 node, estimate 8 s, arrives at 2 s) ends by its
// estimate at 10 s <= shadow: backfilled. D (1 node, 9 s, arrives at 3 s) would end at 12 s >
// 10 s and needs a node beyond the extra 0: it must wait, or it would delay B.
ClusterConfig easy_case(const std::string& scheduler, double c_work_s) {
  ClusterConfig c = simple_cluster(4);
  c.scheduler = scheduler;
  c.jobs = {estimated("A", 0, 2, 10, 10), estimated("B", 1, 4, 5, 5), estimated("C", 2, 1, c_work_s, 8),
            estimated("D", 3, 1, 9, 9)};
  return c;
}

}  // namespace

TEST_CASE("easy_backfill starts a job early only when its estimate keeps the head's reservation",
          "[models][policy]") {
  Run run(easy_case("easy_backfill", 8));
  run.to_end();
  CHECK(run.start_of("C") == Approx(2));    // backfilled: 2 + 8 <= shadow 10
  CHECK(run.start_of("B") == Approx(10));   // the reservation held
  CHECK(run.start_of("D") == Approx(15));   // not backfilled (2 s past the shadow), then after B
  CHECK(run.finish_of("D") == Approx(24));
}

TEST_CASE("easy_backfill: an estimate that is too short delays the head", "[models][policy]") {
  // C really runs 12 s, not the 8 s its user asked for: it holds its node until 14 s, so B
  // (needing all 4 nodes) starts at 14 s instead of its reserved 10 s.
  Run run(easy_case("easy_backfill", 12));
  run.to_end();
  CHECK(run.start_of("C") == Approx(2));
  CHECK(run.start_of("B") == Approx(14));
  CHECK(run.finish_of("B") == Approx(19));
}

TEST_CASE("fifo blocks behind the head; first_fit overtakes it and delays it", "[models][policy]") {
  {
    Run run(easy_case("fifo", 8));
    run.to_end();
    CHECK(run.start_of("B") == Approx(10));  // after A
    CHECK(run.start_of("C") == Approx(15));  // behind B, though a node idled from 2 s to 10 s
    CHECK(run.start_of("D") == Approx(15));
  }
  {
    Run run(easy_case("first_fit", 8));
    run.to_end();
    CHECK(run.start_of("C") == Approx(2));
    CHECK(run.start_of("D") == Approx(3));   // no reservation: D runs to 12 s ...
    CHECK(run.start_of("B") == Approx(12));  // ... and B starts 2 s later than under EASY
  }
}

TEST_CASE("topology_aware packs a job under one leaf where fifo splits it over two", "[models][policy]") {
  // 8 nodes under two leaves (0-3, 4-7). X takes node 0; Y needs 4 nodes: the lowest free ids
  // are 1-4 (two leaves, its collectives cross the spine); leaf 1 has 4 free nodes (one leaf).
  const auto run_with = [](const std::string& scheduler) {
    ClusterConfig c = simple_cluster(8);
    c.scheduler = scheduler;
    c.jobs = {job("X", s(0), 1, s(100), 1.0), job("Y", s(1), 4, s(10), 1.0)};
    auto run = std::make_unique<Run>(c, [](ClusterSimulation& m) {
      m.connect({.fabric_groups = {0, 0, 0, 0, 1, 1, 1, 1}});
    });
    run->to_end();
    return run;
  };
  const auto fifo = run_with("fifo");
  CHECK(std::get<std::string>(fifo->event_cell("Y", "node_list")) == "1 2 3 4");
  CHECK(std::get<std::int64_t>(fifo->event_cell("Y", "fabric_groups")) == 2);
  const auto packed = run_with("topology_aware");
  CHECK(std::get<std::string>(packed->event_cell("Y", "node_list")) == "4 5 6 7");
  CHECK(std::get<std::int64_t>(packed->event_cell("Y", "fabric_groups")) == 1);
}

namespace {

// Nodes 0-3 in a hot zone (80 C), 4-7 in a cool one (40 C); rack 3 (nodes 6, 7: 2 per rack) has
// no power headroom left.
class TwoZones : public seams::NodeConditions {
 public:
  int zone_of_node(int node) const override { return node < 4 ? 0 : 1; }
  double gpu_temperature_c(int node) const override { return node < 4 ? 80.0 : 40.0; }
  double rack_power_headroom_w(int rack) const override { return rack == 3 ? 0.0 : 1e4; }
};

}  // namespace

TEST_CASE("thermal_aware prefers cool GPUs in racks with power headroom", "[models][policy]") {
  TwoZones zones;
  const auto run_with = [&](const std::string& scheduler) {
    ClusterConfig c = simple_cluster(8);
    c.nodes_per_rack = 2;
    c.scheduler = scheduler;
    c.jobs = {job("X", s(0), 3, s(10), 1.0)};
    Run run(c, [&](ClusterSimulation& m) { m.connect({.node_conditions = &zones}); });
    run.to_end();
    return std::get<std::string>(run.event_cell("X", "node_list"));
  };
  CHECK(run_with("fifo") == "0 1 2");
  // Cool nodes 4, 5 (rack 2 has headroom) first; 6, 7 sit in the full rack 3, so the third node
  // is the coolest with headroom elsewhere: a hot-zone node, lowest id.
  CHECK(run_with("thermal_aware") == "0 4 5");
}

TEST_CASE("jobs smaller than a node share it, best fit first", "[models][policy]") {
  // One 8-GPU node: P (4 GPUs) and Q (4 GPUs) share it; R (2 GPUs) waits for P to end at 10 s.
  ClusterConfig c = simple_cluster(1);
  c.node.gpus = 8;
  c.jobs = {job("P", s(0), 1, s(10), 1.0), job("Q", s(0), 1, s(20), 0.5), job("R", s(1), 1, s(5), 1.0)};
  c.jobs[0].gpus_per_node = 4;
  c.jobs[1].gpus_per_node = 4;
  c.jobs[2].gpus_per_node = 2;
  Run run(c);
  run.to_end();
  CHECK(run.start_of("Q") == Approx(0));
  CHECK(run.start_of("R") == Approx(10));
  // Node utilisation while P and Q share it: 1.0 x 4/8 + 0.5 x 4/8 = 0.75, so its power is
  // 8 GPUs x (100 + 400 x 0.75) + the rest of the node (50 + 100 x 0.75) = 3325 W.
  const auto& power = run.sink.series("power/cluster_w");
  REQUIRE(!power.value.empty());
  CHECK(power.value.front() == Approx(8 * (100 + 400 * 0.75) + (50 + 100 * 0.75)));
}

TEST_CASE("scheduler parameters: defaults filled, undocumented ones refused", "[models][policy]") {
  ClusterConfig c = easy_case("easy_backfill", 8);
  c.scheduler_params.set_number("queue_depth", 1);
  Run ok(c);  // documented: accepted
  ok.to_end();
  CHECK(ok.start_of("C") == Approx(2));  // C is the first job behind the head: within 1 position
  CHECK(ok.start_of("D") == Approx(15));
  c.scheduler = "fifo";
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  const auto registries = builtin();
  try {
    ClusterSimulation model(c, registries, sim, sink);
    FAIL("fifo accepted queue_depth");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "scheduler_params.queue_depth");
    CHECK_THAT(e.detail(), Catch::Contains("valid: none"));
  }
}

TEST_CASE("every registered scheduler places only what is free and finishes a mixed workload",
          "[models][policy][contract]") {
  const auto registries = builtin();
  for (const auto& entry : registries.schedulers.entries()) {
    INFO("scheduler " << entry.name);
    ClusterConfig c = simple_cluster(6);
    c.node.gpus = 4;
    c.nodes_per_rack = 2;
    c.scheduler = entry.name;
    if (entry.factory(dcsim::sim::Params::defaults(entry.params))->uses_cloud_pool()) {
      // A bursting policy needs a pool (and may place on its instances, checked the same way):
      // 4-GPU spot instances that come 5 s after a request, preempted twice an hour.
      dcsim::models::cluster::CloudPoolConfig pool;
      pool.offer = dcsim::models::economics::aws_p5_spot();
      pool.offer.gpus_per_instance = 4;
      pool.offer.preemptions_per_instance_hour = 2;
      pool.max_instances = 6;
      pool.provisioning_delay = s(5);
      pool.idle_release = s(3);
      c.cloud_pool = pool;
    }
    // Whole-node jobs of 1-6 nodes and jobs of 1-3 GPUs, arriving every second; the cluster
    // throws InternalError on any placement that is not free, so finishing is the check.
    for (int i = 0; i < 40; ++i) {
      JobSpec j = job("J" + std::to_string(i), s(i), 1 + (i * 5) % 6, s(3 + (i * 7) % 11), 1.0);
      if (i % 3 == 0) {
        j.nodes = 1;
        j.gpus_per_node = 1 + i % 3 + (i / 3) % 3;
      }
      j.estimate = s(j.work.seconds() * (i % 2 == 0 ? 0.5 : 2.0));  // wrong both ways
      c.jobs.push_back(j);
    }
    Run run(c, [](ClusterSimulation& m) { m.connect({.fabric_groups = {0, 0, 0, 1, 1, 1}}); });
    run.to_end();
    CHECK(std::get<std::int64_t>(run.sink.summary("workload/jobs_completed").value) == 40);
    // Utilisation is a fraction: shared nodes counted by GPU share, never above 1.
    const double busy = run.summary("utilization/node_busy_fraction");
    CHECK(busy > 0.0);
    CHECK(busy <= 1.0);
  }
}

TEST_CASE("a higher priority waits ahead of earlier arrivals", "[models][policy]") {
  // One node busy with A until 10 s. B (priority 0) arrives at 1 s, C (priority 5) at 2 s: C goes
  // first at 10 s, B after it at 20 s. A requeued job would keep its priority too.
  ClusterConfig c = simple_cluster(1);
  c.jobs = {job("A", s(0), 1, s(10), 1.0), job("B", s(1), 1, s(10), 1.0), job("C", s(2), 1, s(10), 1.0)};
  c.jobs[2].priority = 5;
  Run run(c);
  run.to_end();
  CHECK(run.start_of("C") == Approx(10));
  CHECK(run.start_of("B") == Approx(20));
}

TEST_CASE("priority_preemptive stops a lower-priority job for a blocked higher-priority one, which loses its work",
          "[models][policy][preemption]") {
  // Two one-GPU nodes. L (priority 0, both nodes, 2 h, no checkpoints) starts at 0. H (priority
  // 5, 1 node, 1 h) arrives at 30 min and fits nowhere: L is preempted (its 30 min x 2 GPUs = 1
  // GPU-h is lost), H runs 0.5-1.5 h, and L starts over at 1.5 h (relaunch 0 here) on both
  // nodes: 1.5-3.5 h. Under fifo H waits for L: 2-3 h.
  const auto two_jobs = [](const std::string& scheduler) {
    ClusterConfig c = simple_cluster(2);
    c.scheduler = scheduler;
    JobSpec low = job("L", Time::zero(), 2, s(7200), 1.0);
    JobSpec high = job("H", s(1800), 1, s(3600), 1.0);
    high.priority = 5;
    c.jobs = {low, high};
    return c;
  };
  ClusterConfig preemptive = two_jobs("priority_preemptive");
  preemptive.scheduler_params.set_number("relaunch_overhead", 0.0);
  Run run(preemptive);
  run.to_end();
  CHECK(run.start_of("H") == Approx(1800));
  CHECK(run.finish_of("H") == Approx(5400));
  CHECK(run.finish_of("L") == Approx(5400 + 7200));
  CHECK(std::get<std::int64_t>(run.sink.summary("workload/preemptions").value) == 1);
  CHECK(run.summary("goodput/lost_gpu_h_by_cause/preempted") == Approx(1.0));
  CHECK(run.summary("goodput/lost_gpu_h") == Approx(1.0));
  bool logged = false;
  for (const auto& row : run.sink.table("job_states").rows) {
    if (std::get<std::string>(row[3]) == "preempted") {
      logged = true;
      CHECK(std::get<double>(row[0]) == Approx(1800));
      CHECK(std::get<std::string>(row[4]) == "preempted by H");
    }
  }
  CHECK(logged);

  Run fifo(two_jobs("fifo"));
  fifo.to_end();
  CHECK(fifo.start_of("H") == Approx(7200));
  CHECK(std::get<std::int64_t>(fifo.sink.summary("workload/preemptions").value) == 0);
}

TEST_CASE("priority_preemptive leaves jobs within min_priority_gap alone", "[models][policy][preemption]") {
  ClusterConfig c = simple_cluster(1);
  c.scheduler = "priority_preemptive";
  c.scheduler_params.set_number("min_priority_gap", 10.0);
  JobSpec low = job("L", Time::zero(), 1, s(100), 1.0);
  JobSpec high = job("H", s(10), 1, s(100), 1.0);
  high.priority = 5;  // outranks L by 5 < 10: waits
  c.jobs = {low, high};
  Run run(c);
  run.to_end();
  CHECK(run.start_of("H") == Approx(100));
  CHECK(std::get<std::int64_t>(run.sink.summary("workload/preemptions").value) == 0);
}
