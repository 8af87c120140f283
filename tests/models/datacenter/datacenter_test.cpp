// The datacenter assembly: parts announce on its signals what they do, and subsystems come from
// one registration list.

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "models/datacenter/datacenter.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::datacenter::Datacenter;
using dcsim::models::datacenter::DatacenterConfig;
using dcsim::models::datacenter::DatacenterConfigError;
using dcsim::tests::builtin;
using dcsim::tests::job;
using dcsim::tests::simple_cluster;

namespace dc = dcsim::models::datacenter;
namespace seams = dcsim::models::seams;

TEST_CASE("the assembly announces every job transition with its energy, and IT power whose integral is the energy",
          "[models][datacenter]") {
  // The cluster's hand case (cluster_simulation_test.cpp): A (1 node, u=1) runs 0-1 h at 650 W;
  // B (2 nodes, u=0.2) waits for A, runs 1-3 h at 2 x 250 W; the idle node draws 150 W while A
  // runs. IT energy 0-3 h: 800 W x 1 h + 500 W x 2 h = 1.8 kWh = 6.48 MJ.
  DatacenterConfig config;
  config.cluster = simple_cluster(2);
  config.cluster->jobs = {job("A", Time::zero(), 1, Time::from_s(3600), 1.0),
                          job("B", Time::from_s(1800), 2, Time::from_s(7200), 0.2)};
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  const auto registries = builtin();
  Datacenter datacenter(config, registries, sim, sink);

  std::vector<std::string> transitions;
  std::vector<double> completed_energy_j;
  datacenter.signals().job_state.connect([&](const seams::JobStateChange& c) {
    transitions.push_back(std::string(c.name) + " " + std::string(c.from) + ">" + std::string(c.to) + " @" +
                          std::to_string(static_cast<int>(c.at.seconds())));
    if (c.to == "completed") completed_energy_j.push_back(c.energy_j);
  });
  double energy_j = 0.0, power_w = 0.0;
  Time last = Time::zero();
  datacenter.signals().it_power.connect([&](const seams::ItPowerChange& p) {
    energy_j += power_w * (p.at - last).seconds();
    power_w = p.power_w;
    last = p.at;
  });
  datacenter.start();
  sim.run();
  datacenter.finish();
  energy_j += power_w * (sim.now() - last).seconds();

  CHECK(transitions == std::vector<std::string>{"A waiting>running @0", "A running>completed @3600",
                                                "B waiting>running @3600", "B running>completed @10800"});
  // A's node at 650 W for 1 h; B's two nodes at 250 W for 2 h.
  REQUIRE(completed_energy_j.size() == 2);
  CHECK(completed_energy_j[0] == Approx(650.0 * 3600));
  CHECK(completed_energy_j[1] == Approx(2 * 250.0 * 7200));
  CHECK(energy_j == Approx(6.48e6).epsilon(1e-12));
  CHECK(std::get<double>(sink.summary("energy/it_kwh").value) == Approx(1.8).epsilon(1e-12));
}

TEST_CASE("every registered subsystem has a unique name and stays out of a config that does not ask for it",
          "[models][datacenter][contract]") {
  const auto registries = builtin();
  std::set<std::string> names;
  for (const auto& entry : dc::subsystem_entries()) {
    INFO(entry.name);
    CHECK(!entry.name.empty());
    CHECK(!entry.summary.empty());
    CHECK(names.insert(std::string(entry.name)).second);
    DatacenterConfig empty;
    dcsim::sim::Simulator sim;
    dcsim::sim::MemoryTraceSink sink;
    seams::DatacenterSignals signals;
    const dc::SubsystemContext context{empty, registries, sim, sink, signals, {}};
    CHECK(entry.build(context) == nullptr);
  }
  CHECK(names.count("reliability") == 1);
}

TEST_CASE("a facility without a cluster is refused, naming the part", "[models][datacenter]") {
  DatacenterConfig config;
  config.facility.emplace();
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  const auto registries = builtin();
  try {
    Datacenter datacenter(config, registries, sim, sink);
    FAIL("no error");
  } catch (const DatacenterConfigError& e) {
    CHECK(e.part() == "facility");
    CHECK_THAT(e.detail(), Catch::Contains("needs a cluster"));
  }
}
