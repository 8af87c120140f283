#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "models/facility/facility_simulation.hpp"
#include "models/model_registries.hpp"
#include "models/seams/node_clock.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

using namespace dcsim;
using models::facility::FacilityConfig;
using models::facility::FacilitySimulation;
using models::facility::PlantFault;

namespace {

// The cluster as the facility sees it: clocks are taken, nothing else happens.
class StillClock final : public models::seams::NodeClock {
 public:
  void set_node_clock_factor(int, double) override {}
  void refresh_node_power(int) override {}
  bool has_work_left() const override { return true; }
};

// 12 nodes, 4 to a rack, each rack its own zone; zone 1's CDU pumps fail at 10 min down to 5%
// flow, so its dies climb through 87, 89 and 92 C while the others stay cool.
FacilityConfig three_zones_one_failing() {
  FacilityConfig f;
  f.zones.resize(3);
  for (int z = 0; z < 3; ++z) {
    f.zones[static_cast<std::size_t>(z)].name = "z" + std::to_string(z);
    f.zones[static_cast<std::size_t>(z)].racks = {z};
  }
  f.faults.push_back({PlantFault::Kind::kCduPumpFailure, sim::Time::from_s(600), sim::Time::max(), 1, 0.05, 0.0});
  return f;
}

struct Site {
  models::ModelRegistries registries;
  sim::Simulator sim;
  sim::MemoryTraceSink sink;
  StillClock clock;
  std::unique_ptr<FacilitySimulation> facility;
  explicit Site(FacilityConfig f) {
    models::register_builtin_models(registries);
    facility = std::make_unique<FacilitySimulation>(std::move(f), 12, 4, 1,
                                                    models::facility::FacilityRegistries{registries.cooling_controls,
                                                                                         registries.power_capping},
                                                    sim, sink);
    facility->attach(clock, sim::Time::from_s(7200));
    facility->start();
  }
};

}  // namespace

TEST_CASE("facility: the indexed earliest threshold crossing equals a scan of every GPU after every change",
          "[models][thermal][facility]") {
  // Random utilisation changes, often several at one instant (a job starting on many nodes), on
  // a site whose failing zone crosses every threshold: after each change and each step, the
  // per-node index must give the scan's value bit for bit wherever the threshold event is
  // scheduled from it, i.e. before the next tick (identical events with and without the index).
  // Zones that provably cannot cross before the tick are not derived, so beyond it the index
  // may say "none" where the scan has a later time.
  Site site(three_zones_one_failing());
  std::mt19937_64 rng(7);
  int compared = 0, finite = 0;
  auto compare = [&] {
    const double horizon_s = site.facility->crossing_horizon_s();
    const double indexed = site.facility->soonest_crossing_s();
    const double scanned = site.facility->soonest_crossing_by_scan_s();
    if (scanned < horizon_s) {
      REQUIRE(indexed == scanned);
      ++finite;
    } else {
      REQUIRE(!(indexed < horizon_s));
    }
    ++compared;
  };
  for (int k = 0; k < 300; ++k) {
    const sim::Time at = sim::Time::from_s(static_cast<std::int64_t>(rng() % 3600));
    const int node = static_cast<int>(rng() % 12);
    const double utilization = static_cast<double>(rng() % 5) / 4.0;
    site.sim.at(at, [&, node, utilization] {
      site.facility->on_node_utilization(node, utilization);
      compare();
    });
    // Every change repeated at the same instant on a neighbour: the same-instant path.
    site.sim.at(at, [&, node, utilization] {
      site.facility->on_node_utilization((node + 1) % 12, 1.0 - utilization);
      compare();
    });
  }
  // Changes just before a tick at its instant (10 s ticks): the zone steps, then the tick finds
  // it stepped and only moves the horizon, which must derive what was cleared for the old one.
  for (int k = 0; k < 60; ++k) {
    const int node = static_cast<int>(rng() % 12);
    site.sim.at(
        sim::Time::from_s(10 * (1 + static_cast<std::int64_t>(rng() % 359))),
        [&, node] {
          site.facility->on_node_utilization(node, 0.5);
          compare();
        },
        sim::Priority::kFirst);
  }
  site.sim.at(
      sim::Time::from_s(605), [&] { compare(); }, sim::Priority::kLast);
  for (int k = 1; k < 360; ++k) {  // after every tick
    site.sim.at(
        sim::Time::from_s(10 * k), [&] { compare(); }, sim::Priority::kLast);
  }
  site.sim.run_until(sim::Time::from_s(3600));
  site.facility->finish();
  CHECK(compared == 600 + 60 + 1 + 359);
  CHECK(finite > 100);  // the failing zone heats: crossings before the tick, compared exactly
  CHECK(site.facility->crossing_zone_skips() > 1000);  // the cool zones were mostly not derived
  CHECK(std::get<double>(site.sink.summary("thermal/max_gpu_c").value) > FacilityConfig{}.slowdown_c);
}

TEST_CASE("facility: a node's change steps its own zone only, and a second change at that instant its node only",
          "[models][thermal][facility]") {
  // Hand count, three zones of one rack of 4 nodes x 8 GPUs. At t = 155 s, between two ticks
  // (default 10 s), node 5 (zone 1) changes: zone 1 steps and derives its 4 x 8 = 32 GPUs'
  // crossings, not the site's 96, and the other zones stay at 150 s. Node 6 (zone 1 too)
  // changes at the same instant: no step, so its 8 GPUs alone. Node 9 (zone 2) then steps
  // zone 2: 32 again. Each zone's energy is still integrated to the end: heat in = heat out.
  Site site(three_zones_one_failing());
  std::size_t evaluations[4] = {};
  double zone0_c_at_150 = 0.0, zone0_c_after = 0.0;
  site.sim.at(
      sim::Time::from_s(150), [&] { zone0_c_at_150 = site.facility->zone_coolant_c(0); }, sim::Priority::kLast);
  site.sim.at(sim::Time::from_s(155), [&] {
    evaluations[0] = site.facility->crossing_gpu_evaluations();
    site.facility->on_node_utilization(5, 1.0);
    evaluations[1] = site.facility->crossing_gpu_evaluations();
    site.facility->on_node_utilization(6, 1.0);
    evaluations[2] = site.facility->crossing_gpu_evaluations();
    site.facility->on_node_utilization(9, 1.0);
    evaluations[3] = site.facility->crossing_gpu_evaluations();
    zone0_c_after = site.facility->zone_coolant_c(0);
  });
  site.sim.run_until(sim::Time::from_s(158));
  site.facility->finish();
  CHECK(evaluations[1] - evaluations[0] == 32);
  CHECK(evaluations[2] - evaluations[1] == 8);
  CHECK(evaluations[3] - evaluations[2] == 32);
  CHECK(zone0_c_after == zone0_c_at_150);  // zone 0 was not stepped by the others' changes
  CHECK(std::get<double>(site.sink.summary("thermal/energy_balance_error").value) < 1e-9);
}
