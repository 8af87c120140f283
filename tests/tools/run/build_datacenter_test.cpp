// Shipped scenarios as datacenter assemblies: what the parts announce on the signals adds up to
// what they report (bytes in = bytes out, energy in the steps = energy in the summary, one
// notice per fault).

#include <catch2/catch.hpp>

#include <string>

#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"
#include "tools/run/build_datacenter.hpp"

using dcsim::tools::run::build_datacenter;
using dcsim::tools::scenario::load_scenario_file;
namespace dc = dcsim::models::datacenter;
namespace seams = dcsim::models::seams;

namespace {

dcsim::models::ModelRegistries builtin() {
  dcsim::models::ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

std::string shipped(const std::string& name) { return std::string(DCSIM_SOURCE_DIR) + "/scenarios/" + name; }

}  // namespace

TEST_CASE("every delivered flow reaches the flow signal with its bytes", "[run][datacenter]") {
  const auto registries = builtin();
  const auto scenario = load_scenario_file(shipped("fat-tree-vs-mesh.json"), {}, {}, registries);
  REQUIRE(scenario.traffic);
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  auto datacenter = build_datacenter(scenario, registries, sim, sink);
  double delivered = 0.0;
  std::size_t flows = 0;
  datacenter->signals().flow_finished.connect([&](const dcsim::models::network::FinishedFlow& f) {
    ++flows;
    if (!f.failed) delivered += f.bytes;
  });
  datacenter->start();
  sim.run();
  datacenter->finish();
  // No fault in this scenario: every flow of the traffic finishes, with all its bytes.
  double given = 0.0;
  for (const auto& r : scenario.traffic->records) given += r.bytes;
  CHECK(flows == scenario.traffic->records.size());
  CHECK(delivered == Approx(given).epsilon(1e-12));
  CHECK(sink.table("network/flows").rows.size() == flows);
}

TEST_CASE("the facility's steps carry exactly the IT and facility energy it reports", "[run][datacenter]") {
  const auto registries = builtin();
  const auto scenario = load_scenario_file(shipped("cooling-failure.json"), {"duration=2 h"}, {}, registries);
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  auto datacenter = build_datacenter(scenario, registries, sim, sink);
  double it_j = 0.0, facility_j = 0.0, hottest_c = 0.0;
  std::size_t throttles = 0, restores = 0;
  datacenter->signals().node_clock.connect([&](const seams::NodeClockChange& c) {
    (c.factor < 1.0 ? throttles : restores) += 1;
  });
  dcsim::sim::Time covered = dcsim::sim::Time::zero();
  datacenter->signals().facility_step.connect([&](const seams::FacilityStep& s) {
    CHECK(s.from == covered);  // steps tile the run: no gap, no overlap
    covered = s.to;
    it_j += s.it_j;
    facility_j += s.facility_j;
    hottest_c = std::max(hottest_c, s.max_gpu_c);
  });
  datacenter->start();
  sim.run_until(scenario.duration);
  datacenter->finish();
  CHECK(covered == scenario.duration);
  const auto kwh = [&](const char* key) { return std::get<double>(sink.summary(key).value) * 3.6e6; };
  CHECK(it_j == Approx(kwh("facility/it_energy_kwh")).epsilon(1e-9));
  CHECK(facility_j == Approx(kwh("facility/total_energy_kwh")).epsilon(1e-9));
  CHECK(hottest_c == Approx(std::get<double>(sink.summary("thermal/max_gpu_c").value)));
  // The pump failure at 1 h heats the zone's GPUs past their slowdown threshold: the throttling
  // that the facility reports reaches the signal, and so does its end.
  CHECK(std::get<double>(sink.summary("thermal/throttled_gpu_s").value) > 0.0);
  CHECK(throttles > 0);
  CHECK(restores > 0);
}

TEST_CASE("every random fault and repair is one fault notice", "[run][datacenter][reliability]") {
  const auto registries = builtin();
  const auto scenario = load_scenario_file(
      shipped("quickstart.json"), {"duration=2 d", "reliability.faults=llama3_405b", "reliability.scale=10000"}, {},
      registries);
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  auto datacenter = build_datacenter(scenario, registries, sim, sink);
  std::int64_t faults = 0, repairs = 0, node_downs = 0;
  datacenter->signals().fault.connect([&](const seams::FaultNotice& n) { (n.repaired ? repairs : faults) += 1; });
  datacenter->signals().node_health.connect([&](const seams::NodeHealthChange& h) { node_downs += h.healthy ? 0 : 1; });
  datacenter->start();
  sim.run_until(scenario.duration);
  datacenter->finish();
  CHECK(faults == std::get<std::int64_t>(sink.summary("reliability/faults_total").value));
  CHECK(repairs > 0);
  CHECK(repairs <= faults);  // repairs past the horizon never happen
  CHECK(node_downs > 0);
}

TEST_CASE("a part's config error names the scenario's section", "[run][datacenter]") {
  const auto registries = builtin();
  auto scenario = load_scenario_file(shipped("quickstart.json"), {}, {}, registries);
  scenario.has_cluster = false;  // what no loaded file gives: the assembly's own check
  scenario.facility.emplace();
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  CHECK_THROWS_WITH(build_datacenter(scenario, registries, sim, sink),
                    Catch::Contains("quickstart.json:/facility: needs a cluster"));
}
