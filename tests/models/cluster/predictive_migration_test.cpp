// The predictive_migration failover policy at the cluster: a warned node's job checkpoints at the
// end of its step in flight and moves to a free node before the fault, so the fault interrupts
// nothing; the warned node is drained. Times by hand from the plan's step and checkpoint times.
#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "models/cluster/cluster_simulation.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/training_job.hpp"
#include "models/model_registries.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

namespace mw = dcsim::models::workload;
using dcsim::tests::builtin;

namespace {

constexpr double kTimeTol = 1e-6;  // relative; activity ends are rounded up to whole ns

// BERT-Large on 3 HGX H100 nodes of a `nodes`-node cluster: 100 steps, a checkpoint every 20.
ClusterConfig bert(const ModelRegistries& reg, int nodes) {
  ClusterConfig c;
  c.node = dcsim::models::hardware::hgx_h100();
  c.nodes = nodes;
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
  c.failover = "predictive_migration";
  c.failover_params.set_number("relaunch_overhead", 60);
  return c;
}

struct Warned {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  ModelRegistries reg = builtin();
  std::unique_ptr<ClusterSimulation> model;
  double T = 0, C = 0;  // step and checkpoint times

  explicit Warned(ClusterConfig c) {
    const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, reg.collective_algorithms);
    T = plan.step.step_time_s;
    C = plan.checkpoint_s;
    model = std::make_unique<ClusterSimulation>(std::move(c), reg, sim, sink);
    model->start();
  }
  void at(double t_s, std::function<void(ClusterSimulation&)> what) {
    sim.at(
        Time::from_seconds(t_s), [this, what] { what(*model); }, dcsim::sim::Priority::kFirst);
  }
  void to_end() {
    sim.run();
    model->finish();
  }
  double num(const std::string& job, const std::string& column) const {
    return std::get<double>(dcsim::tests::row_cell(sink, "jobs", job, column));
  }
  double summary(const std::string& path) const {
    return std::get<double>(sink.summary(path).value);
  }
  std::int64_t count(const std::string& path) const {
    return std::get<std::int64_t>(sink.summary(path).value);
  }
  std::vector<std::string> transitions(const std::string& job) const {
    std::vector<std::string> out;
    for (const auto& row : sink.table("job_states").rows) {
      if (std::get<std::string>(row[1]) != job) continue;
      out.push_back(std::get<std::string>(row[2]) + ">" + std::get<std::string>(row[3]) + ":" +
                    std::get<std::string>(row[4]));
    }
    return out;
  }
};

}  // namespace

TEST_CASE(
    "a predicted fault interrupts nothing and costs exactly a checkpoint, a relaunch and a reload",
    "[models][datacenter][predictive]") {
  Warned w(bert(builtin(), 4));  // node 3 idle
  REQUIRE(w.C > 0);
  // The alarm comes 5.5 steps into the second segment, 100 s before node 0's GPU fails. The job
  // finishes step 26 (0.5 T, useful), writes a checkpoint (C), moves node 0's share to node 3
  // (relaunch 60 s + reading the checkpoint back, C) and resumes from step 26; its next
  // checkpoint is at 40, as without the move. So it ends C + 60 + C later than a run without
  // faults (100 T + 4 C), and the fault finds node 0 empty.
  const double t_alarm = 20 * w.T + w.C + 5.5 * w.T;
  const double t_fault = t_alarm + 100;
  REQUIRE(0.5 * w.T + w.C < 100);
  w.at(t_alarm, [t_fault](ClusterSimulation& m) {
    m.warn_node(0, "predicted:gpu_faulty", Time::from_seconds(t_fault), false);
  });
  w.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu_faulty"); });
  w.at(t_fault + 3600, [](ClusterSimulation& m) { m.set_node_up(0); });
  w.to_end();
  CHECK(w.num("bert", "finish_s") ==
        Approx(100 * w.T + 4 * w.C + w.C + 60 + w.C).epsilon(kTimeTol));
  CHECK(w.num("bert", "lost_gpu_h") == 0);
  CHECK(w.num("bert", "checkpoints") == 5);
  CHECK(std::get<std::string>(dcsim::tests::row_cell(w.sink, "jobs", "bert", "node_list")) ==
        "3 1 2");
  CHECK(w.count("reliability/interruptions_total") == 0);
  CHECK(w.count("reliability/migrations") == 1);
  CHECK(w.count("reliability/alarms") == 1);
  CHECK(w.summary("goodput/restart_gpu_h") == Approx((60 + w.C) * 24 / 3600).epsilon(kTimeTol));
  CHECK(w.transitions("bert") ==
        std::vector<std::string>{"waiting>running:", "running>migrating:predicted:gpu_faulty",
                                 "migrating>running:migrated", "running>completed:"});
}

TEST_CASE("a false alarm drains its node for drain_time: no new work lands there",
          "[models][datacenter][predictive]") {
  ClusterConfig c = bert(builtin(), 4);
  c.training_jobs[0].steps = 50000;  // holds nodes 0-2 past 505 s
  c.jobs.push_back(dcsim::tests::job("B", Time::from_seconds(10), 1, Time::from_seconds(5), 1.0));
  Warned w(std::move(c));
  REQUIRE(50000 * w.T > 505);
  // Node 3, the only free one, is warned at 5 s for 500 s; B (arriving at 10 s) waits for it.
  w.at(5,
       [](ClusterSimulation& m) { m.warn_node(3, "false_alarm", Time::from_seconds(505), true); });
  bool drained_meanwhile = false;
  w.at(300, [&drained_meanwhile](ClusterSimulation& m) { drained_meanwhile = m.nodes().node(3).drained; });
  w.to_end();
  CHECK(drained_meanwhile);
  CHECK_FALSE(w.model->nodes().node(3).drained);
  CHECK(w.num("B", "start_s") == Approx(505));
  CHECK(w.count("reliability/false_alarms") == 1);
  CHECK(w.count("reliability/migrations") == 0);
}

TEST_CASE(
    "with no free node the warned job checkpoints and stays: the fault costs only the work since",
    "[models][datacenter][predictive]") {
  Warned w(bert(builtin(), 3));
  const double t_alarm = 20 * w.T + w.C + 5.5 * w.T;
  // Checkpoint at step 26, then 3.25 more steps before the GPU fails.
  const double t_fault = t_alarm + 0.5 * w.T + w.C + 3.25 * w.T;
  w.at(t_alarm, [t_fault](ClusterSimulation& m) {
    m.warn_node(0, "predicted:gpu_faulty", Time::from_seconds(t_fault), false);
  });
  w.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu_faulty"); });
  w.at(t_fault + 600, [](ClusterSimulation& m) { m.set_node_up(0); });
  w.to_end();
  CHECK(w.num("bert", "lost_gpu_h") == Approx(3.25 * w.T * 24 / 3600).epsilon(kTimeTol));
  CHECK(w.count("reliability/alarm_stays") == 1);
  CHECK(w.count("reliability/interruptions_total") == 1);
  // Back after the repair (600 s), the relaunch and the reload, from step 26.
  CHECK(w.num("bert", "finish_s") ==
        Approx(t_fault + 600 + 60 + w.C + 74 * w.T + 3 * w.C).epsilon(kTimeTol));
}
