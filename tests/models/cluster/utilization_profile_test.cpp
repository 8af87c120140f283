// Batch jobs with a utilisation profile (JobSpec::utilization_profile, batch_job_run.hpp): the
// nodes' power follows the phases, which repeat until the work is done.
#include <catch2/catch.hpp>

#include "models/cluster/cluster_simulation.hpp"
#include "sim/error.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::tests::job;
using dcsim::tests::Run;
using dcsim::tests::simple_cluster;

namespace {

constexpr double kEnergyTol = 1e-12;  // relative: sums of a few exact products

dcsim::models::workload::UtilizationPhase phase(double hours, double utilization) {
  return {Time::from_seconds(hours * 3600), utilization};
}

}  // namespace

TEST_CASE("a batch job's node power follows its utilisation profile, phases repeating",
          "[models][cluster][power]") {
  // One node, P(u) = 150 + 500 u. 3 h of work in phases of 1 h at u=1 and 1 h at u=0.2, repeated:
  // 1 h at 650 W, 1 h at 250 W, 1 h at 650 W (the third phase is the first again) = 1.55 kWh,
  // mean 516.67 W over 3 h, peak 650 W.
  auto c = simple_cluster(1);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3 * 3600), 1.0)};
  c.jobs[0].utilization_profile = {phase(1, 1.0), phase(1, 0.2)};
  Run run(c);
  run.to_end();
  CHECK(run.sim.now() == Time::from_s(3 * 3600));
  CHECK(run.summary("energy/it_kwh") == Approx(1.55).epsilon(kEnergyTol));
  CHECK(run.summary("power/mean_w") == Approx(1550.0 / 3).epsilon(kEnergyTol));
  CHECK(run.summary("power/peak_w") == Approx(650));
}

TEST_CASE("a profile phase stretches with the clock like the rest of the work", "[models][cluster][power]") {
  // The same job with the node at half clock from the start: every phase takes twice as long,
  // so 6 h: 2 h at 650 W, 2 h at 250 W, 2 h at 650 W = 3.1 kWh.
  auto c = simple_cluster(1);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3 * 3600), 1.0)};
  c.jobs[0].utilization_profile = {phase(1, 1.0), phase(1, 0.2)};
  Run run(c, [](ClusterSimulation& m) { m.set_node_clock_factor(0, 0.5); });
  run.to_end();
  CHECK(run.sim.now() == Time::from_s(6 * 3600));
  CHECK(run.summary("energy/it_kwh") == Approx(3.1).epsilon(kEnergyTol));
}

TEST_CASE("a profile phase that is not positive names its field", "[models][cluster][power]") {
  auto c = simple_cluster(1);
  c.jobs = {job("A", Time::zero(), 1, Time::from_s(3600), 1.0)};
  c.jobs[0].utilization_profile = {phase(1, 1.0), phase(0, 0.2)};
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  const auto reg = dcsim::tests::builtin();
  try {
    ClusterSimulation model(c, reg, sim, sink);
    FAIL("accepted a zero-length phase");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "jobs[0].utilization_profile[1].work");
  }
}
