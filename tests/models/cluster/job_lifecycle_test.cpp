// Job lifecycle under faults: interrupt, lost work, restart cost, and each failover policy's
// action, with times worked out by hand from the plan's step and checkpoint times.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

#include "models/cluster/cluster_simulation.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/power/node_power.hpp"
#include "models/reliability/checkpoint_interval.hpp"
#include "models/workload/training_job.hpp"
#include "models/model_registries.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

namespace mw = dcsim::models::workload;
using dcsim::tests::builtin;
using dcsim::tests::job;
using dcsim::tests::simple_cluster;

namespace {

constexpr double kTimeTol = 1e-6;  // relative; activity ends are rounded up to whole ns

// BERT-Large on 3 HGX H100 nodes (24 GPUs) of a 4-node cluster: 100 steps, a checkpoint every 20.
ClusterConfig bert(const ModelRegistries& reg, int checkpoint_interval = 20) {
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
  t.checkpoint.interval_steps = checkpoint_interval;
  t.fabric.nics_per_node = c.node.compute_nics;
  t.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  c.training_jobs.push_back(t);
  return c;
}

// TimedRun with the job tables' cells and a job's state transitions.
struct Faulty : dcsim::tests::TimedRun {
  dcsim::sim::Cell cell(const std::string& table, const std::string& name, const std::string& column) const {
    return dcsim::tests::row_cell(sink, table, name, column);
  }
  std::vector<std::string> transitions(const std::string& name) const {
    std::vector<std::string> out;
    for (const auto& row : sink.table("job_states").rows) {
      if (std::get<std::string>(row[1]) != name) continue;
      out.push_back(std::get<std::string>(row[2]) + ">" + std::get<std::string>(row[3]) + ":" +
                    std::get<std::string>(row[4]));
    }
    return out;
  }
};

}  // namespace

TEST_CASE("a job interrupted at a known time loses exactly the work since its last checkpoint",
          "[models][datacenter][lifecycle]") {
  Faulty f;
  ClusterConfig c = bert(f.reg);
  c.failover = "checkpoint_restart";
  c.failover_params.set_number("relaunch_overhead", 60);
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  const double T = plan.step.step_time_s;
  const double C = plan.checkpoint_s;
  REQUIRE(C > 0);
  // Node 0 fails 5.5 steps into the second segment: 20 steps are saved, 25.5 done.
  const double t_fault = 20 * T + C + 5.5 * T;
  f.build(c);
  f.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.to_end();
  // Lost: 5.5 steps x 24 GPUs. It resumes at once on nodes 1-3 (ahead of the queue), after the
  // 60 s relaunch and reading its checkpoint back (C again), from step 20: 80 steps and the 3
  // checkpoints still due (at 40, 60, 80; none after the last step).
  CHECK(f.num("bert", "lost_gpu_h") == Approx(5.5 * T * 24 / 3600).epsilon(kTimeTol));
  CHECK(std::get<std::int64_t>(f.cell("jobs", "bert", "restarts")) == 1);
  CHECK(std::get<std::string>(f.cell("jobs", "bert", "node_list")) == "1 2 3");
  CHECK(f.num("bert", "finish_s") == Approx(t_fault + 60 + C + 80 * T + 3 * C).epsilon(kTimeTol));
  CHECK(f.summary("goodput/restart_gpu_h") == Approx((60 + C) * 24 / 3600).epsilon(kTimeTol));
  CHECK(f.summary("goodput/lost_gpu_h_by_cause/gpu") == Approx(5.5 * T * 24 / 3600).epsilon(kTimeTol));
  CHECK(f.transitions("bert") == std::vector<std::string>{"waiting>running:", "running>interrupted:gpu",
                                                          "interrupted>requeued:resume from checkpoint",
                                                          "requeued>running:", "running>completed:"});
}

TEST_CASE("a restarting job holds its nodes at idle power until its relaunch and reload are over",
          "[models][datacenter][lifecycle][power]") {
  // The same fault as above. From t_fault the job holds nodes 1-3 through a 60 s relaunch and
  // a checkpoint reload of C: its GPUs compute nothing, so all 4 nodes (node 0 down, holding
  // nothing) draw idle power. Once the reload is over, nodes 1-3 draw the step's power again,
  // exactly what they drew before the fault (the same plan on the same nodes' hardware).
  Faulty f;
  ClusterConfig c = bert(f.reg);
  c.failover = "checkpoint_restart";
  c.failover_params.set_number("relaunch_overhead", 60);
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  const double T = plan.step.step_time_s;
  const double C = plan.checkpoint_s;
  const double t_fault = 20 * T + C + 5.5 * T;
  const double idle_w = dcsim::models::power::node_power_w(c.node, 0.0);
  f.build(c);
  f.at(t_fault, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.to_end();
  const auto& series = f.sink.series("power/cluster_w");
  const auto at = [&](double t_s) {
    const auto t_ns = static_cast<std::int64_t>(t_s * 1e9);
    const auto it = std::upper_bound(series.time_ns.begin(), series.time_ns.end(), t_ns);
    REQUIRE(it != series.time_ns.begin());
    return series.value[static_cast<std::size_t>(it - series.time_ns.begin()) - 1];
  };
  const double busy_w = at(t_fault - T);  // 3 nodes stepping, node 3 idle
  CHECK(busy_w > 4 * idle_w + 1000.0);
  CHECK(at(t_fault + 30) == Approx(4 * idle_w).epsilon(1e-9));          // relaunching
  CHECK(at(t_fault + 60 + 0.5 * C) == Approx(4 * idle_w).epsilon(1e-9));  // reloading
  CHECK(at(t_fault + 60 + C + 0.5 * T) == Approx(busy_w).epsilon(1e-9));  // stepping again
}

TEST_CASE("requeue starts a batch job over; a node down keeps jobs off it until repaired",
          "[models][datacenter][lifecycle]") {
  Faulty f;
  ClusterConfig c = simple_cluster(2);
  c.failover = "requeue";
  c.failover_params.set_number("relaunch_overhead", 10);
  c.jobs = {job("A", Time::zero(), 1, Time::from_seconds(100), 1.0),
            job("B", Time::from_seconds(50), 1, Time::from_seconds(20), 1.0)};
  f.build(c);
  f.at(30, [](ClusterSimulation& m) { m.set_node_down(0, "psu"); });
  f.at(200, [](ClusterSimulation& m) { m.set_node_up(0); });
  f.to_end();
  // A ran 30 s on node 0: all lost (batch jobs keep nothing). It restarts at once on node 1:
  // 10 s relaunch + 100 s of work -> 140 s. B (arrives at 50 s) finds node 0 down and node 1
  // busy: it waits for A, 140 s -> 160 s, on node 1 again.
  CHECK(f.num("A", "lost_gpu_h") == Approx(30.0 / 3600));
  CHECK(f.num("A", "finish_s") == Approx(140));
  CHECK(f.num("B", "start_s") == Approx(140));
  CHECK(std::get<std::string>(f.cell("jobs", "B", "node_list")) == "1");
  CHECK(std::get<std::int64_t>(f.sink.summary("reliability/interruptions/psu").value) == 1);
}

TEST_CASE("hot spares replace a failed node in place; the repaired node becomes the spare",
          "[models][datacenter][lifecycle]") {
  Faulty f;
  ClusterConfig c = bert(f.reg);
  c.failover = "hot_spares";
  c.failover_params.set_number("spare_fraction", 0.25);  // 1 of 4 nodes: node 3
  c.failover_params.set_number("swap_time", 120);
  c.failover_params.set_number("relaunch_overhead", 60);
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  const double T = plan.step.step_time_s;
  const double C = plan.checkpoint_s;
  f.build(c);
  const double t1 = 20 * T + C + 2 * T;  // second segment
  f.at(t1, [](ClusterSimulation& m) { m.set_node_down(1, "gpu_hbm"); });
  f.at(t1 + 1, [](ClusterSimulation& m) { m.set_node_up(1); });  // repaired: joins the pool as spare
  const double t2 = t1 + 120 + 60 + C + 30 * T;  // well into the resumed run
  f.at(t2, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.to_end();
  // First fault: node 3 (the spare) takes node 1's place; second: node 1 (spare again) takes 0's.
  CHECK(std::get<std::string>(f.cell("jobs", "bert", "node_list")) == "1 3 2");
  CHECK(std::get<std::int64_t>(f.cell("jobs", "bert", "restarts")) == 2);
  // Each restart waits for the swap, the relaunch and the checkpoint reload.
  CHECK(f.summary("goodput/restart_gpu_h") == Approx(2 * (120 + 60 + C) * 24 / 3600).epsilon(kTimeTol));
}

TEST_CASE("a job crash leaves the node up: the job resumes on the same nodes", "[models][datacenter][lifecycle]") {
  Faulty f;
  ClusterConfig c = bert(f.reg);
  c.nodes = 3;
  c.failover_params.set_number("relaunch_overhead", 0);
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  f.build(c);
  f.at(20 * plan.step.step_time_s + plan.checkpoint_s + 3 * plan.step.step_time_s,
       [](ClusterSimulation& m) { m.crash_jobs_on_node(2, "nccl_watchdog"); });
  f.to_end();
  CHECK(f.model->nodes().node(2).healthy);
  CHECK(std::get<std::string>(f.cell("jobs", "bert", "node_list")) == "0 1 2");
  CHECK(std::get<std::int64_t>(f.cell("jobs", "bert", "restarts")) == 1);
}

TEST_CASE("checkpoint_restart with interval 0 checkpoints at Daly's optimum for the job's MTBF",
          "[models][datacenter][lifecycle]") {
  Faulty f;
  ClusterConfig c = bert(f.reg, 1);
  c.training_jobs[0].steps = 2000;
  c.node_fault_rate_per_hour = 0.01;  // 3 nodes: the job's MTBF is 100 / 3 h
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  const double mtbf_s = 3600.0 / (0.01 * 3);
  const double interval_s = dcsim::models::reliability::checkpoint_interval_daly(plan.checkpoint_s, mtbf_s);
  const int interval_steps = std::max(1, static_cast<int>(std::llround(interval_s / plan.step.step_time_s)));
  f.build(c);
  f.to_end();
  CHECK(f.num("bert", "checkpoints") == (2000 - 1) / interval_steps);
}

TEST_CASE("spare pools and jobs that cannot fit beside them are refused", "[models][datacenter][lifecycle]") {
  const auto refused = [](ClusterConfig c) {
    Faulty f;
    try {
      f.build(std::move(c));
    } catch (const dcsim::sim::ConfigError& e) {
      return e.field() + ": " + e.detail();
    }
    return std::string("accepted");
  };
  const ModelRegistries reg = builtin();
  ClusterConfig c = bert(reg);
  c.failover = "hot_spares";
  c.failover_params.set_number("spare_fraction", 0.5);  // 2 spares leave 2 nodes; bert needs 3
  CHECK_THAT(refused(c), Catch::Contains("job 'bert' needs 3"));
  c.failover_params.set_number("spare_fraction", 0.99);
  CHECK_THAT(refused(c), Catch::Contains("none would be left to run jobs"));
  c.failover = "requeue";
  c.failover_params = {};
  c.failover_params.set_number("swap_time", 1);
  CHECK_THAT(refused(c), Catch::StartsWith("failover_params.swap_time: is not a parameter of failover policy 'requeue'"));
}

TEST_CASE("a job without checkpoints gets none from the failover policy, and loses all its work",
          "[models][datacenter][lifecycle]") {
  Faulty f;
  ClusterConfig c = bert(f.reg, 0);  // no checkpoint target or interval
  c.failover_params.set_number("interval", 60);
  c.failover_params.set_number("relaunch_overhead", 0);
  const auto plan = mw::plan_training_job(c.training_jobs[0], c.node, f.reg.collective_algorithms);
  const double T = plan.step.step_time_s;
  f.build(c);
  f.at(30.5 * T, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.to_end();
  // 30.5 steps done, none saved: all lost, and the job runs its 100 steps again from step 0.
  CHECK(f.num("bert", "checkpoints") == 0);
  CHECK(f.num("bert", "lost_gpu_h") == Approx(30.5 * T * 24 / 3600).epsilon(kTimeTol));
  CHECK(f.num("bert", "finish_s") == Approx(30.5 * T + 100 * T).epsilon(kTimeTol));
}

TEST_CASE("max_restarts gives a job up: it ends failed and its nodes are free", "[models][datacenter][lifecycle]") {
  // A (100 s of work) is interrupted at 30 s and restarts at once on node 1 (max_restarts 1);
  // interrupted again at 50 s, it is given up: failed, the 20 s of its second run lost too. Node
  // 0 is still down, so B (waiting since 40 s) takes node 1 at 50 s.
  Faulty f;
  ClusterConfig c = simple_cluster(2);
  c.failover = "requeue";
  c.failover_params.set_number("relaunch_overhead", 0);
  c.failover_params.set_number("max_restarts", 1);
  c.jobs = {job("A", Time::zero(), 1, Time::from_seconds(100), 1.0),
            job("B", Time::from_seconds(40), 1, Time::from_seconds(20), 1.0)};
  f.build(c);
  f.at(30, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.at(50, [](ClusterSimulation& m) { m.crash_jobs_on_node(1, "software"); });
  f.to_end();
  CHECK(std::get<std::string>(f.cell("jobs", "A", "state")) == "failed");
  CHECK(std::get<std::int64_t>(f.cell("jobs", "A", "restarts")) == 1);
  CHECK(f.num("A", "lost_gpu_h") == Approx((30.0 + 20.0) / 3600));
  CHECK(f.num("B", "start_s") == Approx(50));
  CHECK(std::get<std::int64_t>(f.sink.summary("workload/jobs_failed").value) == 1);
  CHECK(f.transitions("A").back() == "interrupted>failed:max_restarts");
}

TEST_CASE("a node two faults took down comes back only when both are repaired", "[models][datacenter][lifecycle]") {
  // Node 0 fails at 10 s (GPU 1) and at 20 s (GPU 2, repaired first, at 30 s); the first repair
  // is at 60 s. B (arrives at 35 s) must wait for node 0 until 60 s: node 1 is busy with A.
  Faulty f;
  ClusterConfig c = simple_cluster(2);
  c.jobs = {job("A", Time::zero(), 1, Time::from_seconds(1000), 1.0),
            job("B", Time::from_seconds(35), 1, Time::from_seconds(10), 1.0)};
  f.build(c);
  f.at(10, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.at(20, [](ClusterSimulation& m) { m.set_node_down(0, "gpu"); });
  f.at(30, [](ClusterSimulation& m) { m.set_node_up(0); });
  f.at(60, [](ClusterSimulation& m) { m.set_node_up(0); });
  f.to_end();
  CHECK(f.num("B", "start_s") == Approx(60));
}
