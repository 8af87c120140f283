// A contract every registered failover policy keeps: whatever faults, crashes and warnings hit a
// small cluster of training and batch jobs, every job completes, the accounting adds up
// (lost and restart time within the time held, goodput a fraction) and every interruption is a
// transition with its cause.

#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "models/hardware/node_presets.hpp"
#include "sim/error.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::tests::builtin;
using dcsim::tests::job;

TEST_CASE("every failover policy brings every job to completion under faults and warnings",
          "[models][policy][contract]") {
  const auto registries = builtin();
  for (const auto& entry : registries.failover_policies.entries()) {
    INFO("failover policy " << entry.name);
    ClusterConfig c;
    c.node = dcsim::models::hardware::hgx_h100();
    c.nodes = 7;
    c.nodes_per_rack = 4;
    c.failover = entry.name;
    c.failover_params.set_number("relaunch_overhead", 30);
    // A data-parallel training job that checkpoints (elastic and predictive policies act on it)
    // and batch jobs behind it.
    dcsim::models::workload::TrainingJobSpec t;
    t.job.name = "train";
    t.job.model = registries.training_models.get("bert-large").factory();
    t.job.nodes = 4;
    t.job.parallelism.tp = 8;
    t.job.micro_batch_size = 1;
    t.job.global_batch_sequences = 48;
    t.steps = 400;
    t.checkpoint.interval_steps = 50;
    t.fabric.nics_per_node = c.node.compute_nics;
    t.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
    c.training_jobs.push_back(t);
    for (int i = 0; i < 6; ++i)
      c.jobs.push_back(
          job("B" + std::to_string(i), Time::from_seconds(i), 1, Time::from_seconds(40), 1.0));
    dcsim::tests::Run run(c);
    auto& sim = run.sim;
    auto& m = *run.model;
    const auto at = [&sim, &m](double t_s, std::function<void(ClusterSimulation&)> what) {
      sim.at(
          Time::from_seconds(t_s), [&m, what] { what(m); }, dcsim::sim::Priority::kFirst);
    };
    at(5, [](ClusterSimulation& x) { x.set_node_down(1, "gpu"); });
    at(8, [](ClusterSimulation& x) { x.crash_jobs_on_node(0, "software"); });
    at(12, [](ClusterSimulation& x) {
      x.warn_node(2, "predicted:gpu_hbm3", Time::from_seconds(20), false);
    });
    at(20, [](ClusterSimulation& x) { x.set_node_down(2, "gpu_hbm3"); });
    at(25,
       [](ClusterSimulation& x) { x.warn_node(3, "false_alarm", Time::from_seconds(60), true); });
    at(90, [](ClusterSimulation& x) { x.set_node_up(1); });
    at(120, [](ClusterSimulation& x) { x.set_node_up(2); });
    run.to_end();
    CHECK(std::get<std::int64_t>(run.sink.summary("workload/jobs_completed").value) == 7);
    const double held = run.summary("goodput/allocated_gpu_h");
    const double lost = run.summary("goodput/lost_gpu_h");
    const double restart = run.summary("goodput/restart_gpu_h");
    CHECK(lost >= 0.0);
    CHECK(restart >= 0.0);
    CHECK(lost + restart <= held);
    const double goodput = run.summary("goodput/fraction");
    CHECK(goodput > 0.0);
    CHECK(goodput <= 1.0);
    std::int64_t interrupted = 0;
    for (const auto& row : run.sink.table("job_states").rows) {
      if (std::get<std::string>(row[3]) != "interrupted") continue;
      ++interrupted;
      CHECK_FALSE(std::get<std::string>(row[4]).empty());
    }
    CHECK(interrupted ==
          std::get<std::int64_t>(run.sink.summary("reliability/interruptions_total").value));
  }
}
