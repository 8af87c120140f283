// Silent data corruption in the cluster (cluster_hosts.cpp): what a caught corruption rolls
// back to, what a missed one leaves, and when a restart washes one out, with times worked out
// by hand from the plan's step and checkpoint times.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <variant>

#include "models/cluster/cluster_simulation.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/training_job.hpp"
#include "models/model_registries.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

namespace mw = dcsim::models::workload;
using dcsim::models::cluster::SdcDetection;
using dcsim::tests::builtin;

namespace {

constexpr double kTimeTol = 1e-6;  // relative; activity ends are rounded up to whole ns

// BERT-Large on 3 HGX H100 nodes (24 GPUs) of a 4-node cluster: 100 steps, a checkpoint every
// 20, resumed from the checkpoint after a 60 s relaunch; its loss checks catch a corruption
// with `probability`, `latency` steps later.
ClusterConfig bert(const ModelRegistries& reg, double probability, int latency) {
  ClusterConfig c;
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = 4;
  c.nodes_per_rack = 4;
  mw::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.nodes = 3;
  t.job.micro_batch_size = 8;
  t.steps = 100;
  t.checkpoint.interval_steps = 20;
  t.fabric.nics_per_node = c.node.compute_nics;
  t.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  c.training_jobs.push_back(t);
  c.failover = "checkpoint_restart";
  c.failover_params.set_number("relaunch_overhead", 60);
  c.sdc_detection = SdcDetection{probability, latency};
  return c;
}

struct Corrupted : dcsim::tests::TimedRun {
  double num(const std::string& column) const { return TimedRun::num("bert", column); }
  std::vector<std::string> events() const {
    std::vector<std::string> out;
    for (const auto& row : sink.table("integrity_events").rows) {
      out.push_back(std::get<std::string>(row[3]) + "@" + std::to_string(std::get<std::int64_t>(row[4])));
    }
    return out;
  }
};

}  // namespace

TEST_CASE("a caught corruption rolls back past the checkpoints written since to the last clean one",
          "[models][datacenter][integrity]") {
  Corrupted f;
  f.build(bert(f.reg, 1.0, 30));
  REQUIRE(f.C > 0);
  // Node 0 corrupts the job 5.5 steps after its checkpoint at 20: its state is clean through
  // step 25. The checks see it 30 steps' time later, after the checkpoint at 40 (which holds
  // the corruption): 14.5 steps, C, then 15.5 - C/T steps.
  const double t_corrupt = 20 * f.T + f.C + 5.5 * f.T;
  const double t_caught = t_corrupt + 30 * f.T;
  const double steps_at_catch = 40 + 15.5 - f.C / f.T;
  f.at(t_corrupt,
       [](ClusterSimulation& m) { m.corrupt_jobs_on_node(0, "sdc", Time::from_seconds(3600)); });
  f.to_end();
  // Back to step 20, not 40: lost (steps_at_catch - 20) steps x 24 GPUs. Node 0 is quarantined
  // for an hour, so the job resumes on nodes 1-3 after the relaunch and its reload (C), and runs
  // 80 steps and the checkpoints at 40, 60 and 80.
  CHECK(f.events() == std::vector<std::string>{"corrupted@25", "caught@20"});
  CHECK(f.num("lost_gpu_h") == Approx((steps_at_catch - 20) * f.T * 24 / 3600).epsilon(kTimeTol));
  CHECK(std::get<std::string>(dcsim::tests::row_cell(f.sink, "jobs", "bert", "node_list")) ==
        "1 2 3");
  CHECK(f.num("finish_s") == Approx(t_caught + 60 + f.C + 80 * f.T + 3 * f.C).epsilon(kTimeTol));
  CHECK(f.count("integrity/caught") == 1);
  CHECK(f.count("integrity/quarantines") == 1);
  CHECK(f.count("integrity/wrong_results") == 0);
  CHECK(f.summary("integrity/corrupted_gpu_h") == Approx(30 * f.T * 24 / 3600).epsilon(kTimeTol));
  CHECK(f.summary("goodput/lost_gpu_h_by_cause/sdc") ==
        Approx(f.num("lost_gpu_h")).epsilon(kTimeTol));
}

TEST_CASE(
    "with detection probability 0 a corruption is never caught and the job ends on a wrong result",
    "[models][datacenter][integrity]") {
  Corrupted clean, f;
  clean.build(bert(clean.reg, 0.0, 1));
  clean.to_end();
  f.build(bert(f.reg, 0.0, 1));
  for (int k = 0; k < 4; ++k) {
    f.at((10 + 20 * k) * f.T,
         [](ClusterSimulation& m) { m.corrupt_jobs_on_node(1, "sdc", Time::from_seconds(3600)); });
  }
  f.to_end();
  // Nothing is lost and nothing is slower: the job finishes when the clean one does, wrong.
  CHECK(f.num("finish_s") == Approx(clean.num("finish_s")).epsilon(kTimeTol));
  CHECK(f.num("lost_gpu_h") == 0.0);
  CHECK(f.count("integrity/sdc_faults") == 4);
  CHECK(f.count("integrity/jobs_corrupted") == 1);  // the later three find it corrupted already
  CHECK(f.count("integrity/missed") == 1);
  CHECK(f.count("integrity/caught") == 0);
  CHECK(f.count("integrity/wrong_results") == 1);
  CHECK(f.count("integrity/quarantines") == 0);
}

TEST_CASE("with detection probability 1 every corruption is caught",
          "[models][datacenter][integrity]") {
  Corrupted f;
  ClusterConfig c = bert(f.reg, 1.0, 0);
  c.failover_params.set_number("relaunch_overhead", 0);
  f.build(c);
  // Latency 0: each is caught at once; the quarantine is 0 (nothing goes down) and the relaunch
  // free, so the job is stepping again on its nodes (back at a checkpoint, or at step 0 after
  // the first) when the next corruption comes, and that one finds it clean.
  for (int k = 0; k < 4; ++k) {
    f.at((10 + 30 * k) * f.T,
         [](ClusterSimulation& m) { m.corrupt_jobs_on_node(2, "sdc", Time::zero()); });
  }
  f.to_end();
  CHECK(f.count("integrity/jobs_corrupted") == 4);
  CHECK(f.count("integrity/caught") == 4);
  CHECK(f.count("integrity/missed") == 0);
  CHECK(f.count("integrity/wrong_results") == 0);
  CHECK(f.count("integrity/quarantines") == 0);
  CHECK(std::get<std::int64_t>(dcsim::tests::row_cell(f.sink, "jobs", "bert", "restarts")) == 4);
}

TEST_CASE("a restart from a checkpoint before the corruption washes it out",
          "[models][datacenter][integrity]") {
  Corrupted f;
  f.build(bert(f.reg, 1.0, 1000));  // caught only long after the job would have ended
  const double t_corrupt = 20 * f.T + f.C + 5.5 * f.T;  // clean through step 25
  f.at(t_corrupt,
       [](ClusterSimulation& m) { m.corrupt_jobs_on_node(0, "sdc", Time::from_seconds(3600)); });
  // A crash 5 steps later (before the checkpoint at 40) restarts it from step 20: clean.
  f.at(t_corrupt + 5 * f.T, [](ClusterSimulation& m) { m.crash_jobs_on_node(1, "software"); });
  f.to_end();
  CHECK(f.events() == std::vector<std::string>{"corrupted@25", "washed_out@20"});
  CHECK(f.count("integrity/washed_out") == 1);
  CHECK(f.count("integrity/wrong_results") == 0);
  CHECK(f.count("integrity/caught") == 0);
  CHECK(f.summary("integrity/corrupted_gpu_h") == Approx(5 * f.T * 24 / 3600).epsilon(kTimeTol));
}

TEST_CASE("a restart from a checkpoint written after the corruption keeps it",
          "[models][datacenter][integrity]") {
  Corrupted f;
  f.build(bert(f.reg, 0.0, 1));
  const double t_corrupt =
      20 * f.T + f.C + 5.5 * f.T;  // clean through 25; the checkpoint at 40 is not
  f.at(t_corrupt,
       [](ClusterSimulation& m) { m.corrupt_jobs_on_node(0, "sdc", Time::from_seconds(3600)); });
  f.at(t_corrupt + 20 * f.T, [](ClusterSimulation& m) { m.crash_jobs_on_node(1, "software"); });
  f.to_end();
  CHECK(f.events() == std::vector<std::string>{"corrupted_unnoticed@25", "finished_corrupted@-1"});
  CHECK(f.count("integrity/wrong_results") == 1);
}

TEST_CASE(
    "a corruption under a batch job is counted as unprotected, and one on idle GPUs as harmless",
    "[models][datacenter][integrity]") {
  ClusterConfig c = dcsim::tests::simple_cluster(2);
  c.jobs.push_back(dcsim::tests::job("batch", Time::zero(), 1, Time::from_seconds(100), 1.0));
  c.sdc_detection = SdcDetection{1.0, 1};
  dcsim::tests::Run r(c);
  r.sim.at(Time::from_seconds(10),
           [&] { r.model->corrupt_jobs_on_node(0, "sdc", Time::from_seconds(60)); });
  r.sim.at(Time::from_seconds(20),
           [&] { r.model->corrupt_jobs_on_node(1, "sdc", Time::from_seconds(60)); });
  r.to_end();
  CHECK(std::get<std::int64_t>(r.sink.summary("integrity/unprotected").value) == 1);
  CHECK(std::get<std::int64_t>(r.sink.summary("integrity/sdc_on_idle_gpus").value) == 1);
  CHECK(r.finish_of("batch") == Approx(100));  // no checks, no rollback
}

TEST_CASE("sdc_detection outside its ranges is refused", "[models][datacenter][integrity]") {
  ModelRegistries reg = builtin();
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  ClusterConfig c = dcsim::tests::simple_cluster(1);
  c.sdc_detection = SdcDetection{1.5, 1};
  CHECK_THROWS_WITH(ClusterSimulation(c, reg, sim, sink),
                    Catch::Contains("sdc_detection.probability"));
  c.sdc_detection = SdcDetection{0.5, -1};
  CHECK_THROWS_WITH(ClusterSimulation(c, reg, sim, sink),
                    Catch::Contains("sdc_detection.latency_steps"));
}
