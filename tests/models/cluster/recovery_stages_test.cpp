// Issue 40 item 5: a fault's detection and diagnosis come before the failover policy's restart.
// The job holds its GPUs for what is left of them when it starts again; the summary splits the
// restart time by stage. Times by hand on the simple cluster (1 GPU a node, cluster_test_support).
#include <catch2/catch.hpp>

#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::seams::RecoveryDelay;
using dcsim::tests::job;
using dcsim::tests::simple_cluster;

namespace {

// Job A: one node, 100 s of batch work from t = 0; checkpoint_restart with a 10 s relaunch (a
// batch job keeps no checkpoint: it starts over). Node 0 fails at 30 s, its fault detected after
// 60 s and diagnosed in 120 more.
constexpr double kFault = 30.0, kDetect = 60.0, kDiagnose = 120.0, kRelaunch = 10.0, kWork = 100.0;

ClusterConfig cluster(int nodes) {
  ClusterConfig c = simple_cluster(nodes);
  c.failover = "checkpoint_restart";
  c.failover_params.set_number("relaunch_overhead", kRelaunch);
  c.jobs = {job("A", Time::zero(), 1, Time::from_seconds(kWork), 1.0)};
  return c;
}

RecoveryDelay stages() { return {Time::from_seconds(kDetect), Time::from_seconds(kDiagnose)}; }

double gpu_h(double s) { return s / 3600.0; }  // one GPU

}  // namespace

TEST_CASE("detection and diagnosis delay a restart on free nodes, held on its GPUs and reported apart",
          "[models][datacenter][lifecycle][recovery]") {
  dcsim::tests::TimedRun f;
  f.build(cluster(2));
  f.at(kFault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu", stages()); });
  f.to_end();
  // Node 1 is free: A starts there at once and holds it through 60 + 120 s of recovery, the 10 s
  // relaunch, then its 100 s of work: 30 + 190 + 100 = 320 s.
  CHECK(f.num("A", "finish_s") == Approx(kFault + kDetect + kDiagnose + kRelaunch + kWork));
  CHECK(f.summary("goodput/restart_gpu_h") == Approx(gpu_h(kDetect + kDiagnose + kRelaunch)));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/detection") == Approx(gpu_h(kDetect)));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/diagnosis") == Approx(gpu_h(kDiagnose)));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/restart") == Approx(gpu_h(kRelaunch)));
  CHECK(f.summary("reliability/recovery_h_by_stage/detection") == Approx(kDetect / 3600.0));
  CHECK(f.summary("reliability/recovery_h_by_stage/diagnosis") == Approx(kDiagnose / 3600.0));
}

TEST_CASE("a job that waits in the queue through detection and diagnosis holds none of them",
          "[models][datacenter][lifecycle][recovery]") {
  dcsim::tests::TimedRun f;
  f.build(cluster(1));
  f.at(kFault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu", stages()); });
  f.at(500, [](ClusterSimulation& m) { m.set_node_up(0); });
  f.to_end();
  // The only node is down until 500 s, after the recovery ended (210 s): A waits in the queue
  // holding nothing, then pays only the relaunch: 500 + 10 + 100 = 610 s.
  CHECK(f.num("A", "finish_s") == Approx(500.0 + kRelaunch + kWork));
  CHECK(f.summary("goodput/restart_gpu_h") == Approx(gpu_h(kRelaunch)));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/detection") == 0.0);
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/diagnosis") == 0.0);
}

TEST_CASE("a job placed during diagnosis holds the rest of it", "[models][datacenter][lifecycle][recovery]") {
  dcsim::tests::TimedRun f;
  f.build(cluster(1));
  f.at(kFault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu", stages()); });
  f.at(100, [](ClusterSimulation& m) { m.set_node_up(0); });
  f.to_end();
  // Back at 100 s: detection ended at 90 s, diagnosis ends at 210 s. A holds the node for those
  // 110 s, the relaunch and its work: 100 + 110 + 10 + 100 = 320 s.
  const double rest = kFault + kDetect + kDiagnose - 100.0;
  CHECK(f.num("A", "finish_s") == Approx(100.0 + rest + kRelaunch + kWork));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/detection") == 0.0);
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/diagnosis") == Approx(gpu_h(rest)));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/restart") == Approx(gpu_h(kRelaunch)));
}

TEST_CASE("hot spares start at once: the whole recovery comes before the swap and the relaunch",
          "[models][datacenter][lifecycle][recovery]") {
  dcsim::tests::TimedRun f;
  ClusterConfig c = cluster(4);
  c.failover = "hot_spares";
  c.failover_params.set_number("relaunch_overhead", kRelaunch);
  c.failover_params.set_number("spare_fraction", 0.25);  // 1 of 4 nodes
  c.failover_params.set_number("swap_time", 20);
  f.build(c);
  f.at(kFault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu", stages()); });
  f.to_end();
  CHECK(f.num("A", "finish_s") == Approx(kFault + kDetect + kDiagnose + 20.0 + kRelaunch + kWork));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/detection") == Approx(gpu_h(kDetect)));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/diagnosis") == Approx(gpu_h(kDiagnose)));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/restart") == Approx(gpu_h(20.0 + kRelaunch)));
}

TEST_CASE("a scripted fault carries no recovery stages: the policy acts at once",
          "[models][datacenter][lifecycle][recovery]") {
  dcsim::tests::TimedRun f;
  f.build(cluster(2));
  f.at(kFault, [](ClusterSimulation& m) { m.set_node_down(0, "scripted node fault"); });
  f.to_end();
  CHECK(f.num("A", "finish_s") == Approx(kFault + kRelaunch + kWork));
  CHECK(f.summary("goodput/restart_gpu_h_by_stage/detection") == 0.0);
}
