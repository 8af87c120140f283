#include <catch2/catch.hpp>

#include "models/cluster/cluster_simulation.hpp"
#include "models/power/node_power.hpp"
#include "sim/error.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::tests::builtin;
using dcsim::tests::job;
using dcsim::tests::Run;
using dcsim::tests::simple_cluster;

namespace {

constexpr double kEnergyTol = 1e-12;  // relative: sums of a few exact products

}  // namespace

TEST_CASE("node power is linear between idle and full load", "[models][power]") {
  const auto c = simple_cluster(1);
  CHECK(dcsim::models::power::node_power_w(c.node, 0.0) == Approx(150));
  CHECK(dcsim::models::power::node_power_w(c.node, 1.0) == Approx(650));
  CHECK(dcsim::models::power::node_power_w(c.node, 0.2) == Approx(250));
  CHECK(dcsim::models::power::node_power_w(c.node, 7.0) == Approx(650));  // clamped
}

TEST_CASE("hgx-h100 preset spans its published idle and a GPU job's full-load draw under the 10.2 kW rating",
          "[models][power]") {
  const auto reg = builtin();
  const auto node = reg.node_presets.get("hgx-h100").factory();
  CHECK(node.gpus == 8);
  CHECK(node.nameplate_power_w() == Approx(10'200.0));
  CHECK(dcsim::models::power::node_power_w(node, 1.0) == Approx(node.max_power_w()));
  CHECK(node.max_power_w() < node.nameplate_power_w());
  CHECK(node.gpu.idle_power_w >= 75.0);
  CHECK(node.gpu.idle_power_w <= 93.0);
}

TEST_CASE("energy of a hand-computed power profile is integrated exactly", "[models][cluster]") {
  // Two nodes. A (1 node, u=1) runs 0-1 h: 650 + 150 = 800 W. B (2 nodes, u=0.2) arrives at
  // 30 min, cannot fit until A ends, runs 1-3 h at 2 x 250 = 500 W. Energy = 800 W x 1 h +
  // 500 W x 2 h = 1.8 kWh; mean 600 W over 3 h; peak 800 W.
  auto c = simple_cluster(2);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3600), 1.0),
            job("B", Time::from_s(1800), 2, Time::from_s(7200), 0.2)};
  Run run(c);
  run.to_end();
  CHECK(run.sim.now() == Time::from_s(3 * 3600));
  CHECK(run.summary("energy/it_kwh") == Approx(1.8).epsilon(kEnergyTol));
  CHECK(run.summary("power/mean_w") == Approx(600).epsilon(kEnergyTol));
  CHECK(run.summary("power/peak_w") == Approx(800));
  CHECK(run.column_of("B", "wait_s") == Approx(1800));
  CHECK(run.column_of("B", "completion_s") == Approx(9000));
  // Per-job energy: A's node at 650 W for 1 h; B's two nodes at 250 W for 2 h.
  CHECK(run.column_of("A", "energy_kwh") == Approx(0.65).epsilon(kEnergyTol));
  CHECK(run.column_of("B", "energy_kwh") == Approx(1.0).epsilon(kEnergyTol));
  // The series are step functions with one settled point per instant at which anything
  // changed: 0 (A starts), 30 min (B queues), 1 h (A ends, B starts), 3 h (B ends).
  const auto& p = run.sink.series("power/cluster_w");
  const auto& waiting = run.sink.series("jobs/waiting");
  REQUIRE(p.time_ns.size() == 4);
  CHECK(p.time_ns[1] == Time::from_s(1800).ns());
  CHECK(p.value[0] == Approx(800));
  CHECK(p.value[1] == Approx(800));
  CHECK(waiting.value[1] == 1);
  CHECK(p.time_ns[2] == Time::from_s(3600).ns());
  CHECK(p.value[2] == Approx(500));
  CHECK(waiting.value[2] == 0);
  CHECK(p.value[3] == Approx(300));
}

TEST_CASE("fifo blocks behind a job that does not fit; first_fit does not", "[models][scheduler]") {
  // Three nodes: A holds two for 1 h; B needs two and arrives at 1 min; C needs one at 2 min.
  auto c = simple_cluster(3);
  c.jobs = {job("A", Time::zero(), 2, Time::from_s(3600), 1.0),
            job("B", Time::from_s(60), 2, Time::from_s(600), 1.0),
            job("C", Time::from_s(120), 1, Time::from_s(600), 1.0)};
  SECTION("fifo") {
    c.scheduler = "fifo";
    Run run(c);
    run.to_end();
    CHECK(run.column_of("C", "start_s") == Approx(3600));  // behind B
  }
  SECTION("first_fit") {
    c.scheduler = "first_fit";
    Run run(c);
    run.to_end();
    CHECK(run.column_of("C", "start_s") == Approx(120));  // straight into the free node
    CHECK(run.column_of("B", "start_s") == Approx(3600));
  }
}

TEST_CASE("a throttled clock stretches a running job by exactly the clock ratio", "[models][cluster]") {
  // 1 h of work; after 30 min the node runs at half clock, so the other 30 min take 60 min.
  auto c = simple_cluster(1);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3600), 1.0)};
  Run run(c);
  run.sim.at(Time::from_s(1800), [&] { run.model->set_node_clock_factor(0, 0.5); });
  run.to_end();
  CHECK(run.finish_of("A") == 5400.0);
}

TEST_CASE("a bounded run stops at its duration and reports unfinished jobs", "[models][cluster]") {
  auto c = simple_cluster(1);
  c.duration = Time::from_s(1800);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3600), 1.0),
            job("B", Time::from_s(60), 1, Time::from_s(60), 1.0)};
  Run run(c);
  run.sim.run_until(c.duration);
  run.model->finish();
  CHECK(std::get<std::int64_t>(run.sink.summary("workload/jobs_unfinished").value) == 2);
  CHECK(run.sink.table("summary/jobs").rows.size() == 2);
  CHECK(run.summary("energy/it_kwh") == Approx(0.65 * 0.5).epsilon(kEnergyTol));
  CHECK(std::isnan(run.finish_of("A")));
}

TEST_CASE("a job due after the end of a bounded run is counted as not arrived, not as unfinished",
          "[models][cluster]") {
  // A runs past the end (unfinished); B completes; C is due after the end, so it never arrived.
  // The four counts add up to the total.
  auto c = simple_cluster(2);
  c.duration = Time::from_s(1800);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3600), 1.0), job("B", Time::zero(), 1, Time::from_s(600), 1.0),
            job("C", Time::from_s(7200), 1, Time::from_s(60), 1.0)};
  Run run(c);
  run.sim.run_until(c.duration);
  run.model->finish();
  const auto count = [&](const char* path) { return std::get<std::int64_t>(run.sink.summary(path).value); };
  CHECK(count("workload/jobs_total") == 3);
  CHECK(count("workload/jobs_completed") == 1);
  CHECK(count("workload/jobs_unfinished") == 1);
  CHECK(count("workload/jobs_not_arrived") == 1);
  CHECK(count("workload/jobs_failed") == 0);
  CHECK(count("workload/service_replica_jobs") == 0);
  CHECK(run.summary("makespan_s") == 600.0);
}

TEST_CASE("telemetry ticks sample on the interval and do not keep a finished run alive",
          "[models][cluster]") {
  auto c = simple_cluster(1);
  c.telemetry_interval = Time::from_s(600);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3000), 1.0)};
  Run run(c);
  run.to_end();
  const auto& p = run.sink.series("power/cluster_w");
  // Ticks at 0, 600, ..., 3000 s: the job finishes at 3000 s (kCompletion runs before the
  // kTelemetry tick at the same instant), and the tick at 3000 s schedules no further tick.
  REQUIRE(p.time_ns.size() == 6);
  CHECK(p.time_ns[5] == Time::from_s(3000).ns());
  CHECK(p.value[4] == Approx(650));
  CHECK(p.value[5] == Approx(150));
  CHECK(run.sim.now() == Time::from_s(3000));
}

TEST_CASE("generated jobs depend on the seed and nothing else", "[models][workload]") {
  dcsim::models::workload::JobGeneratorConfig g;
  g.name = "batch";
  g.count = 50;
  g.interarrival_s = {dcsim::sim::Distribution::Kind::kExponential, 600.0, 0.0};
  g.work_s = {dcsim::sim::Distribution::Kind::kLognormal, 1800.0, 0.8};
  g.node_choices = {1, 2, 4};
  const auto a = dcsim::models::workload::generate_jobs(g, 7);
  const auto b = dcsim::models::workload::generate_jobs(g, 7);
  const auto other = dcsim::models::workload::generate_jobs(g, 8);
  REQUIRE(a.size() == 50);
  bool all_same = true;
  bool any_differs = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    all_same = all_same && a[i].arrival == b[i].arrival && a[i].work == b[i].work && a[i].nodes == b[i].nodes;
    any_differs = any_differs || a[i].work != other[i].work;
    if (i > 0) CHECK(a[i].arrival >= a[i - 1].arrival);
  }
  CHECK(all_same);
  CHECK(any_differs);
}

TEST_CASE("impossible cluster configs name the offending field", "[models][cluster]") {
  auto c = simple_cluster(2);
  c.jobs = {job("A", Time::zero(), 3, Time::from_s(60), 1.0)};
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  const auto reg = builtin();
  try {
    ClusterSimulation model(c, reg, sim, sink);
    FAIL("expected a ConfigError");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "jobs[0].nodes");
  }
  c.jobs.clear();
  c.scheduler = "lifo";
  CHECK_THROWS_WITH(ClusterSimulation(c, reg, sim, sink),
                    Catch::Contains("unknown scheduler 'lifo'; valid: cloud_burst, easy_backfill, fifo, first_fit, priority_preemptive, thermal_aware, topology_aware"));
}
